// The production waits against pinned-wave3 §1.7 (a job its instance was running when it died is
// retried by another instance within 60 s). dead-instance.int.test.ts proves the mechanism with
// real processes and short waits; this checks that the waits the product ships with meet the rule.
import { describe, expect, it } from "vitest";
import { CLAIM_LEASE_MS } from "../notifications/delivery-service";
import { JOB_LEASE_TERMS, retryWithinSeconds } from "./job-lease";
import { NOTIFICATION_DELIVERY_INTERVAL_MS, notificationDeliveryJob } from "./notification-delivery";

describe("the production leases (§1.7)", () => {
  it("a queued job whose instance died starts again on another within 60 s", () => {
    // 20 s lease + two 5 s maintenance intervals + a 10 s poll.
    expect(retryWithinSeconds(JOB_LEASE_TERMS)).toBe(40);
    expect(retryWithinSeconds(JOB_LEASE_TERMS)).toBeLessThanOrEqual(60);
  });

  it("a live run keeps its lease through missed renewals: three heartbeats and more per lease", () => {
    expect(JOB_LEASE_TERMS.leaseSeconds / JOB_LEASE_TERMS.heartbeatSeconds).toBeGreaterThanOrEqual(3);
    // pg-boss's own floors (attorney.js): expiry and maintenance at least a second, polling half.
    expect(JOB_LEASE_TERMS.maintenanceIntervalSeconds).toBeGreaterThanOrEqual(1);
    expect(JOB_LEASE_TERMS.pollingIntervalSeconds).toBeGreaterThanOrEqual(0.5);
    // A run presumed hung only after an hour, far beyond any run's budget (the reconciliation's is 60 s).
    expect(JOB_LEASE_TERMS.maxRunSeconds).toBe(3600);
  });

  it("a dead instance's claimed deliveries are taken over within 60 s, by every instance's own delivery job", () => {
    // The claim lapses 30 s after its last renewal at most; another instance's run comes within 15 s.
    expect(CLAIM_LEASE_MS + NOTIFICATION_DELIVERY_INTERVAL_MS).toBeLessThanOrEqual(60_000);
    // In process in every instance: no queue slot a dead instance could hold.
    expect(notificationDeliveryJob.cron).toBeUndefined();
    expect(notificationDeliveryJob.intervalMs).toBe(NOTIFICATION_DELIVERY_INTERVAL_MS);
  });
});
