// The daily reconciliation of imported bank lines (server/reconciliation): one job definition,
// run by the pg-boss queue on PostgreSQL (once a day at RECONCILIATION_CRON, once across all
// instances) and by the in-process scheduler on the embedded database (at start, then daily).
// reconcileImports is idempotent and locks per owner, so an extra run is harmless. A run is
// bounded (short batches, RECONCILIATION_BUDGET_MS): one cut by its budget answers
// complete: false, and the next run continues where it stopped.
import { reconcileImports } from "../reconciliation/reconciliation-service";
import type { TJob } from "./scheduler";

export const RECONCILIATION_JOB = "reconciliation";
/** Every day at 02:30 UTC. */
export const RECONCILIATION_CRON = "30 2 * * *";
export const RECONCILIATION_INTERVAL_MS = 24 * 60 * 60 * 1000;

export const reconciliationJob: TJob = {
  name: RECONCILIATION_JOB,
  intervalMs: RECONCILIATION_INTERVAL_MS,
  cron: RECONCILIATION_CRON,
  run: (db, now) => reconcileImports(db, { now }),
};
