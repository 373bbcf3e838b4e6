-- Issue #32 item 8 (pinned-wave3 §1.7): a delivery's claim is now short and renewed while its
-- run attempts it, so a dead instance's claims lapse within seconds. The claim's id fences the
-- renewal and the recording of the attempt: a run that lost its claim records nothing.
ALTER TABLE "notification_deliveries" ADD COLUMN     "claim_id" UUID;
