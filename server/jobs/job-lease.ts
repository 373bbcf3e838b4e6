// The lease of a queued job's run (pinned-wave3 §1.7: a job its instance was running when it died
// is retried by another instance within 60 s, at most once more than needed).
//
// pg-boss 10 knows a running job is lost only by its expiry: maintenance fails an `active` job
// whose `started_on + expire_in` has passed, and retries it. It has no heartbeat, and its own
// worker (`work`) also fails a job in process once it has run `expire_in`. So a short expiry alone
// would re-run every long run that is still alive (the reconciliation runs a minute, a daily brief
// of many owners longer), and a long one left a dead instance's job holding its `stately` queue
// for an hour. Instead the runner (pg-boss-runner.ts) fetches jobs itself and, while a run lives,
// renews its lease: `started_on` moved to now every `heartbeatSeconds`, the queue's expiry short
// (`leaseSeconds`). A dead instance (kill -9, a lost connection) stops renewing; the lease
// lapses, maintenance (every `maintenanceIntervalSeconds`) puts the job back at once (retry delay
// 0), and an idle worker of any instance fetches it.
//
// Every write is fenced by the fetch's `retry_count` (pg-boss raises it each time the job is
// fetched again): a run that lost its lease (stalled past it while another instance took the job
// over) renews nothing and completes nothing, so the run that holds the job is never cut short.
import type PgBoss from "pg-boss";
import { errorFields, log } from "../log";

export type TLeaseTerms = {
  /** The queue's expireInSeconds: a run whose lease was not renewed for this long is expired. */
  leaseSeconds: number;
  /** How often a live run renews its lease. */
  heartbeatSeconds: number;
  /** pg-boss's maintenanceIntervalSeconds: how often one instance expires lapsed leases. */
  maintenanceIntervalSeconds: number;
  /** How often an idle worker asks its queue for a job. */
  pollingIntervalSeconds: number;
  /** A run this long is presumed hung: its lease is no longer renewed, so another instance retries it. */
  maxRunSeconds: number;
};

/** Production: a dead instance's job starts again within 40 s (retryWithinSeconds), under §1.7's 60 s. */
export const JOB_LEASE_TERMS: TLeaseTerms = {
  leaseSeconds: 20,
  heartbeatSeconds: 5,
  maintenanceIntervalSeconds: 5,
  pollingIntervalSeconds: 10,
  maxRunSeconds: 60 * 60,
};

/**
 * The longest a dead instance's job waits before another instance starts it again: its last
 * renewal may come just before the death (then `leaseSeconds`); pg-boss maintains when more than
 * an interval has passed since the last maintenance, checked by each instance every interval, so
 * up to two intervals go by before one sees the lapsed lease; the retry is due at once; an idle
 * worker polls.
 */
export function retryWithinSeconds(terms: TLeaseTerms): number {
  return terms.leaseSeconds + 2 * terms.maintenanceIntervalSeconds + terms.pollingIntervalSeconds;
}

export type TLeasedJob = { id: string; name: string; retryCount: number };

export type THeldLease = {
  /** Completes the job with the run's result; false when the lease was lost (nothing written). */
  complete: (result: unknown) => Promise<boolean>;
  /** Marks the job failed (no pg-boss retry: the runner decides); false when the lease was lost. */
  fail: (error: unknown) => Promise<boolean>;
  /** Stops renewing (the run ended, or the instance is stopping). */
  release: () => void;
};

const FENCE = `name = $1 AND id = $2::uuid AND state = 'active' AND retry_count = $3`;

/** Holds the fetched job's lease while the run goes on: renews it every heartbeat. */
export function holdJobLease(boss: PgBoss, schema: string, job: TLeasedJob, terms: TLeaseTerms): THeldLease {
  const db = boss.getDb();
  const fence = [job.name, job.id, job.retryCount];
  const startedAt = Date.now();
  let renewing = false;
  let lost = false;

  const renew = async () => {
    if (renewing || lost) return;
    if (Date.now() - startedAt > terms.maxRunSeconds * 1000) {
      log.warn("queued job presumed hung: its lease is no longer renewed", { job: job.name, job_id: job.id });
      release();
      return;
    }
    renewing = true;
    try {
      const { rows } = await db.executeSql(`UPDATE ${schema}.job SET started_on = now() WHERE ${FENCE} RETURNING 1`, fence);
      if (rows.length === 0) {
        lost = true;
        release();
        log.warn("queued job lease lost: another instance may run it again", { job: job.name, job_id: job.id });
      }
    } catch (error) {
      // The next heartbeat tries again; the lease holds leaseSeconds, several heartbeats.
      log.warn("queued job lease renewal failed", { job: job.name, job_id: job.id, ...errorFields(error) });
    } finally {
      renewing = false;
    }
  };
  const timer = setInterval(() => void renew(), terms.heartbeatSeconds * 1000);
  timer.unref();
  const release = () => clearInterval(timer);

  const finish = async (state: "completed" | "failed", output: unknown): Promise<boolean> => {
    release();
    const { rows } = await db.executeSql(
      `UPDATE ${schema}.job SET state = '${state}', completed_on = now(), output = $4::jsonb WHERE ${FENCE} RETURNING 1`,
      [...fence, JSON.stringify(output)],
    );
    if (rows.length === 0) log.warn("queued job lease lost before its run ended", { job: job.name, job_id: job.id });
    return rows.length > 0;
  };
  return {
    // As pg-boss stores a result: an object as is, anything else under `value`.
    complete: (result) =>
      finish(
        "completed",
        result !== null && typeof result === "object" && !Array.isArray(result) ? result : { value: result ?? null },
      ),
    fail: (error) => finish("failed", { message: errorFields(error).error }),
    release,
  };
}
