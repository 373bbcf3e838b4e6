// Housekeeping of the REST layer's shared state (and of the statement files kept for a preview's hour). Every step is an idempotent delete, so
// several app instances running it at once is harmless.
import type { TDbOrTx } from "../db/client";
import { sweepImportSources } from "../imports/import-store";
import { sweepIdempotencyRecords } from "../rest/idempotency";
import { sweepRateLimitBuckets } from "../rest/rate-limit";
import { sweepLoginTokens } from "../sessions/login-service";
import { sweepWebhookDeliveries } from "../webhooks/replay-guard";
import { startJobs, type TJob } from "./scheduler";

export const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;

export async function runMaintenance(db: TDbOrTx, now = new Date()) {
  const idempotencyRecords = await sweepIdempotencyRecords(db, now);
  const rateLimitBuckets = await sweepRateLimitBuckets(db, now);
  const loginTokens = await sweepLoginTokens(db, now);
  const webhookDeliveries = await sweepWebhookDeliveries(db, now);
  const importSources = await sweepImportSources(db, now);
  return { idempotencyRecords, rateLimitBuckets, loginTokens, webhookDeliveries, importSources };
}

export const maintenanceJob: TJob = { name: "maintenance", intervalMs: MAINTENANCE_INTERVAL_MS, run: runMaintenance };

/** Runs maintenance now and then every interval; returns a stop function. */
export function scheduleMaintenance(getDb: () => Promise<TDbOrTx>, intervalMs = MAINTENANCE_INTERVAL_MS): () => void {
  return startJobs([{ ...maintenanceJob, intervalMs }], getDb).stop;
}
