// Reads from the streaming replica (DATABASE_READ_URL), never older than the caller's owner's
// last write, and from the primary whenever that cannot be shown.
//
// - Which reads: the /v1 GETs of procedures (read models, lists, records). Every write, every
//   plain route and the panel's tRPC endpoint stay on the primary. A GET that turns out to write
//   (the replica answers 25006, read-only) or meets a replica error is run again on the primary.
// - Read-your-writes across instances: after every /v1 write of an owner or one of their agents,
//   once it has committed and before its answer leaves, the primary's WAL position
//   (pg_current_wal_lsn(), past the write's commit) is kept as the owner's mark in the primary
//   (`fleet.read_marks`, its own schema as pg-boss keeps `pgboss`, created at first use). A read
//   looks the owner's mark up on the primary (one primary-key probe) and goes to the replica
//   only when the replica has replayed at least that far, so whichever instance took the write,
//   the read sees it.
// - Lag bound: a poller (every POLL_MS) samples the primary's WAL position and the replica's
//   replay position; the lag is how long ago the primary was where the replica now is (0 when it
//   caught up). Past READ_REPLICA_MAX_LAG_MS (default 2000), or when the replica does not answer,
//   every read goes to the primary until the replica is back within the bound.
import type { TActor } from "../auth/actor";
import { connectDatabase, type TDatabase, type TDbOrTx } from "../db/client";
import { errorFields, log } from "../log";
import { metrics, type TSample } from "../metrics/registry";

const STATE_KEY = Symbol.for("finance-back-office.read-routing");
const POLL_MS = 200;
const SAMPLE_WINDOW_MS = 120_000;

type TState = {
  replica: TDatabase;
  primary: () => Promise<TDbOrTx>;
  maxLagMs: number;
  up: boolean;
  replayLsn: bigint;
  primaryLsn: bigint;
  lagMs: number;
  samples: { at: number; lsn: bigint }[];
  reads: { replica: number; primary: number; fallback: number };
  marksReady: Promise<void> | null;
};

/** "16/B374D848" → its 64-bit position. */
export function lsnToBigInt(lsn: string | null | undefined): bigint {
  if (!lsn) return 0n;
  const [high, low] = lsn.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** How long ago (ms) the primary was where the replica is now; 0 when it caught up. */
export function lagOf(samples: readonly { at: number; lsn: bigint }[], replayLsn: bigint, now: number): number {
  const latest = samples[samples.length - 1];
  if (!latest || replayLsn >= latest.lsn) return 0;
  // The newest sample the replica has passed: the primary was there at `at`.
  for (let index = samples.length - 1; index >= 0; index--) {
    if (samples[index]!.lsn <= replayLsn) return now - samples[index + 1]!.at;
  }
  return now - samples[0]!.at;
}

type TStore = Record<symbol, TState | null | undefined>;

function state(primary: () => Promise<TDbOrTx>): TState | null {
  const store = globalThis as unknown as TStore;
  if (store[STATE_KEY] !== undefined) return store[STATE_KEY];
  const url = process.env.DATABASE_READ_URL;
  if (!url || !process.env.DATABASE_URL) return (store[STATE_KEY] = null);
  const created: TState = {
    replica: undefined as unknown as TDatabase,
    primary,
    maxLagMs: Number(process.env.READ_REPLICA_MAX_LAG_MS ?? 2000),
    up: false,
    replayLsn: 0n,
    primaryLsn: 0n,
    lagMs: Number.POSITIVE_INFINITY,
    samples: [],
    reads: { replica: 0, primary: 0, fallback: 0 },
    marksReady: null,
  };
  store[STATE_KEY] = created;
  void connectDatabase({ engine: "postgres", url }).then((replica) => {
    created.replica = replica;
    const timer = setInterval(() => void poll(created), POLL_MS);
    timer.unref();
    void poll(created);
  });
  metrics().addCollector("read-replica", async () => replicaSamples(created));
  return created;
}

async function queryLsn(db: TDbOrTx, sql: string): Promise<bigint> {
  const rows = await db.$queryRawUnsafe<{ lsn: string | null }[]>(sql);
  return lsnToBigInt(rows[0]?.lsn);
}

async function poll(current: TState): Promise<void> {
  try {
    const primaryLsn = await queryLsn(await current.primary(), "SELECT pg_current_wal_lsn()::text AS lsn");
    const now = Date.now();
    current.primaryLsn = primaryLsn;
    current.samples.push({ at: now, lsn: primaryLsn });
    while (current.samples.length > 1 && current.samples[0]!.at < now - SAMPLE_WINDOW_MS) current.samples.shift();
  } catch (error) {
    log.warn("read routing: the primary's WAL position is unknown", errorFields(error));
    return;
  }
  await refreshReplica(current);
}

async function refreshReplica(current: TState): Promise<void> {
  if (!current.replica) return;
  try {
    current.replayLsn = await queryLsn(current.replica.prisma, "SELECT pg_last_wal_replay_lsn()::text AS lsn");
    if (!current.up) log.info("read routing: the replica answers", {});
    current.up = true;
    current.lagMs = lagOf(current.samples, current.replayLsn, Date.now());
  } catch (error) {
    if (current.up) log.warn("read routing: the replica does not answer; reads go to the primary", errorFields(error));
    current.up = false;
  }
}

function replicaSamples(current: TState): TSample[] {
  const gauge = (name: string, help: string, value: number, labels?: Record<string, string>): TSample => ({
    name,
    help,
    type: "gauge",
    value,
    ...(labels ? { labels } : {}),
  });
  const counter = (target: string, value: number): TSample => ({
    name: "fbo_reads_total",
    help: "/v1 reads by the database that answered them (fallback: begun on the replica, answered by the primary).",
    type: "counter",
    labels: { target },
    value,
  });
  return [
    gauge("fbo_replica_up", "Whether the read replica answered its last poll.", current.up ? 1 : 0),
    gauge(
      "fbo_replica_lag_seconds",
      "How long ago the primary was where the replica has replayed to.",
      Number.isFinite(current.lagMs) ? current.lagMs / 1000 : -1,
    ),
    gauge("fbo_replica_lag_bytes", "WAL the replica has still to replay.", Number(current.primaryLsn - current.replayLsn)),
    counter("replica", current.reads.replica),
    counter("primary", current.reads.primary),
    counter("fallback", current.reads.fallback),
  ];
}

async function ensureMarks(current: TState): Promise<void> {
  current.marksReady ??= (async () => {
    const db = await current.primary();
    await db.$executeRawUnsafe("CREATE SCHEMA IF NOT EXISTS fleet");
    await db.$executeRawUnsafe(
      "CREATE TABLE IF NOT EXISTS fleet.read_marks (owner_id uuid PRIMARY KEY, lsn pg_lsn NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())",
    );
  })().catch((error: unknown) => {
    current.marksReady = null;
    throw error;
  });
  return current.marksReady;
}

/** After an owner's (or their agent's) committed write: their mark moves to the primary's WAL position. */
export async function markOwnerWrite(ownerId: string, primary: () => Promise<TDbOrTx>): Promise<void> {
  const current = state(primary);
  if (!current) return;
  try {
    await ensureMarks(current);
    await (
      await current.primary()
    ).$executeRawUnsafe(
      `INSERT INTO fleet.read_marks (owner_id, lsn) VALUES ($1::uuid, pg_current_wal_lsn())
       ON CONFLICT (owner_id) DO UPDATE SET lsn = GREATEST(fleet.read_marks.lsn, EXCLUDED.lsn), updated_at = now()`,
      ownerId,
    );
  } catch (error) {
    log.error("read routing: the owner's write mark was not kept", errorFields(error));
  }
}

async function ownerMark(current: TState, ownerId: string): Promise<bigint> {
  await ensureMarks(current);
  const rows = await (
    await current.primary()
  ).$queryRawUnsafe<{ lsn: string }[]>("SELECT lsn::text AS lsn FROM fleet.read_marks WHERE owner_id = $1::uuid", ownerId);
  return lsnToBigInt(rows[0]?.lsn);
}

/** Whether an error is the operation's own answer (an AppError somewhere in its causes). */
function isOperationAnswer(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 8; depth++) {
    if ((cause as { name?: string }).name === "AppError" || (cause as { status?: unknown }).status !== undefined) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs a /v1 procedure call on the replica's database when the call is a read and the replica is
 * fresh enough for its owner, else on `primaryDb`. `run` builds the call's context on the database
 * it is given (nothing is swapped in place).
 */
export async function readFromReplicaWhenFresh<T>(
  primaryDb: TDbOrTx,
  method: string,
  actor: TActor,
  run: (db: TDbOrTx) => Promise<T>,
): Promise<T> {
  if (method !== "GET" || (actor.type !== "owner" && actor.type !== "agent")) return run(primaryDb);
  const current = state(async () => primaryDb);
  if (!current) return run(primaryDb);
  let useReplica = current.up && current.lagMs <= current.maxLagMs;
  if (useReplica) {
    const mark = await ownerMark(current, actor.ownerId).catch(() => Number.MAX_SAFE_INTEGER);
    if (current.replayLsn < BigInt(mark)) await refreshReplica(current);
    useReplica = current.up && current.replayLsn >= BigInt(mark);
  }
  if (!useReplica) {
    current.reads.primary += 1;
    return run(primaryDb);
  }
  try {
    const result = await run(current.replica.prisma);
    current.reads.replica += 1;
    return result;
  } catch (error) {
    if (isOperationAnswer(error)) throw error;
    // A read that writes, or a replica that went away: the primary answers it.
    log.warn("read routing: a replica read failed; the primary answers", errorFields(error));
    void refreshReplica(current);
    current.reads.fallback += 1;
    return await run(primaryDb);
  }
}
