// The words an owner reads for a signal when the integration sent none (the alert's message).
import type { TSignalCode } from "./ingest.schema";

const MESSAGES: Record<TSignalCode, string> = {
  payment_failed: "A customer payment failed.",
  dispute_opened: "A customer opened a dispute on a payment.",
  payout_paid: "A payout was paid to your bank account.",
  payout_failed: "A payout to your bank account failed.",
  subscription_past_due: "A customer's subscription is past due.",
  subscription_churned: "A customer cancelled their subscription.",
  campaign_paused: "An ad campaign was paused.",
  campaign_removed: "An ad campaign was removed.",
  budget_limited: "An ad campaign is limited by its budget.",
  ad_disapproved: "An ad was disapproved by the platform.",
  account_suspended: "An ad account was suspended.",
  integration_auth_expired: "An integration's authorization expired; connect it again.",
  budget_change_applied: "An ad budget change was applied.",
  budget_change_failed: "An ad budget change failed.",
  usage_unmapped_key: "Usage arrived for a key that is not mapped to a project.",
  unreconciled: "A bank statement line has no matching event after 3 days.",
  revenue_drop_source: "Revenue of the last 14 days is under half of the 14 days before.",
  spend_spike_source: "Today's ad spend is above twice the daily budget.",
  balance_low: "The balance is under the sum of the next 7 days' costs.",
};

export function alertMessage(code: TSignalCode): string {
  return MESSAGES[code];
}
