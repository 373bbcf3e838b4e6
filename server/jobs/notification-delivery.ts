// Delivering notifications to the owner's webhook and by email (server/notifications/
// delivery-service.ts). The outbox it drains is written in each notification's own statement;
// this job only sends. Woken right after a write queues a delivery (notifications/delivery-wake.ts),
// and run regularly for the retries and for whatever a restart left pending: every 30 s in
// process on the embedded database; on PostgreSQL through pg-boss every minute, once across all
// instances (claims use SKIP LOCKED with a lease, so even overlapping runs never send one twice).
import { deliverDueNotifications } from "../notifications/delivery-service";
import type { TJob } from "./scheduler";

export const NOTIFICATION_DELIVERY_JOB = "notification-delivery";

export const notificationDeliveryJob: TJob = {
  name: NOTIFICATION_DELIVERY_JOB,
  intervalMs: 30_000,
  cron: "* * * * *",
  // A wake (a new delivery) is picked up within a second by some instance.
  queuePollingSeconds: 1,
  run: (db, now) => deliverDueNotifications(db, now),
};
