// Delivering notifications to the owner's webhook and by email (server/notifications/
// delivery-service.ts). The outbox it drains is written in each notification's own statement;
// this job only sends. Woken right after a write queues a delivery (notifications/delivery-wake.ts),
// and run regularly for the retries and for whatever a restart or a dead instance left pending.
//
// In process in EVERY instance, on either engine, not through the pg-boss queue: the delivery
// rows' claims (SKIP LOCKED, a lease the run renews, the claim's id fencing the record) are what
// keeps two runs from sending one delivery twice, so no instance needs to hold a queue's slot,
// and a dead one holds nothing but its own claims, which lapse (pinned-wave3 §1.7). It used to be
// a `stately` pg-boss job: one instance killed mid-run held the slot until pg-boss expired it
// (an hour), and nobody's notifications went out meanwhile.
import { deliverDueNotifications } from "../notifications/delivery-service";
import type { TJob } from "./scheduler";

export const NOTIFICATION_DELIVERY_JOB = "notification-delivery";

/**
 * Every 15 s: a dead instance's deliveries are taken over within CLAIM_LEASE_MS (30 s) plus this,
 * under the 60 s of §1.7 (job-lease.test.ts); on the embedded database one claim query per tick.
 */
export const NOTIFICATION_DELIVERY_INTERVAL_MS = 15_000;

export const notificationDeliveryJob: TJob = {
  name: NOTIFICATION_DELIVERY_JOB,
  intervalMs: NOTIFICATION_DELIVERY_INTERVAL_MS,
  run: (db, now) => deliverDueNotifications(db, now),
};
