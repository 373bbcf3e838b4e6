// Idempotency-Key (Conventions 2): the first request with a key runs; a repeat with the same
// method, path and body replays the stored answer; another body is 409. Concurrent duplicates
// wait for the first to finish and replay it, so the write happens once. Keys are scoped to
// the principal (one owner, or one agent) and kept 24 hours.
//
// The claim, the write and the stored answer are ONE transaction (runIdempotent): a write that
// committed has its answer stored with it, so a retry after a lost connection replays it; a
// write that did not commit left no claim, so the retry runs it. (Completing the record in a
// statement of its own after the write's commit once let a dropped connection duplicate writes.)
import { createHash, createHmac } from "node:crypto";
import { decryptSecret, derivedKey, encryptSecret } from "../crypto/secret-box";
import type { TDb, TDbOrTx, TTx } from "../db/client";
import { inTransaction, type TTransactionLimits } from "../db/transaction";
import { AppError } from "../errors/app-error";
import type { TOutcome } from "./outcome";

export const IDEMPOTENCY_KEY_MAX = 128;
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A key held in_progress longer than this is presumed dead and retaken. Claims now commit only
 * with their answer, so a committed in_progress row is left by an older version (or its crash).
 */
const LOCK_STALE_MS = 60_000;
/** How long a duplicate waits for the first request before answering 409. */
const WAIT_MS = 15_000;
/** A record's states: in_progress while its write runs, completed once the answer is stored (CHECK idempotency_records_state_check). */
export const IDEMPOTENCY_STATES = ["in_progress", "completed"] as const;

/**
 * The limits of an idempotent write's transaction, which spans the whole operation (reads,
 * write, audit) where each of its own transactions once had Prisma's 5 s: 30 s to finish, and
 * 10 s to start, since writes queue for it (PGlite runs one transaction at a time; PostgreSQL's
 * pool holds 10 connections). A route with longer work declares its own (statement imports).
 */
export const IDEMPOTENT_WRITE_LIMITS: TTransactionLimits = { maxWait: 10_000, timeout: 30_000 };

/** `body`: the parsed JSON body, or the raw bytes (a Buffer) of a body that is not JSON. */
export type TIdempotencyRequest = { principal: string; key: string; method: string; path: string; body: unknown };

export type TIdempotencyStart = { kind: "execute"; recordId: string } | { kind: "replay"; outcome: TOutcome };

export function validateIdempotencyKey(header: string | null): string {
  if (header === null || header.trim() === "") {
    throw new AppError("missing_idempotency_key");
  }
  if (header.length > IDEMPOTENCY_KEY_MAX) {
    throw new AppError("validation_error", `Idempotency-Key is longer than ${IDEMPOTENCY_KEY_MAX} characters.`, {
      details: { issues: [{ path: "Idempotency-Key", message: `at most ${IDEMPOTENCY_KEY_MAX} characters` }] },
    });
  }
  return header;
}

/** Canonical JSON (sorted keys) so whitespace and key order do not count as another body. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** base64 input per update: a multiple of 3 bytes, so the pieces' encodings join into the whole's. */
const BASE64_PIECE_BYTES = 3 * 64 * 1024;

/**
 * Feeds a digest the canonical text of a body. A raw body (multipart, webhooks) counts as the
 * JSON string of its base64, as it always has, fed piece by piece: a 10 MB upload's fingerprint
 * no longer builds two 13 MB strings on the request thread.
 */
function feed(digest: { update(data: string): unknown }, body: unknown): void {
  if (!Buffer.isBuffer(body)) {
    digest.update(canonical(body));
    return;
  }
  digest.update('"');
  for (let at = 0; at < body.length; at += BASE64_PIECE_BYTES) {
    digest.update(body.subarray(at, at + BASE64_PIECE_BYTES).toString("base64"));
  }
  digest.update('"');
}

/**
 * The stored fingerprint of a request body: keyed (HMAC with a key derived from ENCRYPTION_KEY),
 * because some bodies carry secrets (a provider's signing secret) and a plain digest in the
 * database would let anyone who reads it confirm a guess of the secret.
 */
export async function requestHash(body: unknown): Promise<string> {
  const digest = createHmac("sha256", await derivedKey("idempotency-request-hash"));
  feed(digest, body);
  return digest.digest("hex");
}

/** The digest records written before the keyed one held (kept 24 hours at most). */
function unkeyedRequestHash(body: unknown): string {
  const digest = createHash("sha256");
  feed(digest, body);
  return digest.digest("hex");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function beginIdempotentRequest(db: TDbOrTx, request: TIdempotencyRequest): Promise<TIdempotencyStart> {
  const hash = await requestHash(request.body);
  const deadline = Date.now() + WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    const now = new Date();
    // The unique (principal, key) index decides who runs: exactly one insert wins.
    const [claimed] = await db.idempotencyRecord.createManyAndReturn({
      data: [
        {
          principal: request.principal,
          key: request.key,
          method: request.method,
          path: request.path,
          requestHash: hash,
          state: "in_progress",
          // One clock for both ends of the 24 hours (the database's now() may differ).
          createdAt: now,
          lockedAt: now,
          expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        },
      ],
      skipDuplicates: true,
      select: { id: true },
    });
    if (claimed) return { kind: "execute", recordId: claimed.id };

    const existing = await db.idempotencyRecord.findUnique({
      where: { principal_key: { principal: request.principal, key: request.key } },
    });
    if (!existing) continue; // released meanwhile: claim again
    if (existing.expiresAt <= now) {
      await db.idempotencyRecord.deleteMany({ where: { id: existing.id, expiresAt: existing.expiresAt } });
      continue;
    }
    if (existing.method !== request.method || existing.path !== request.path) {
      throw new AppError("idempotency_conflict", `This Idempotency-Key was used for ${existing.method} ${existing.path}.`);
    }
    if (existing.requestHash !== hash && existing.requestHash !== unkeyedRequestHash(request.body)) {
      throw new AppError("idempotency_conflict", "This Idempotency-Key was used with a different request body.");
    }
    if (existing.state === "completed" && existing.responseStatus !== null && existing.responseBody !== null) {
      const stored = (existing.responseHeaders ?? {}) as { kind?: TOutcome["kind"]; headers?: Record<string, string> };
      return {
        kind: "replay",
        outcome: {
          status: existing.responseStatus,
          kind: stored.kind ?? "envelope",
          headers: stored.headers ?? {},
          body: await openStoredBody(existing.responseBody),
        },
      };
    }
    if (now.getTime() - existing.lockedAt.getTime() > LOCK_STALE_MS) {
      const { count } = await db.idempotencyRecord.updateMany({
        where: { id: existing.id, state: "in_progress", lockedAt: existing.lockedAt },
        data: { lockedAt: now },
      });
      if (count === 1) return { kind: "execute", recordId: existing.id };
      continue;
    }
    if (Date.now() > deadline) {
      throw new AppError("idempotency_conflict", "A request with this Idempotency-Key is still in progress; retry shortly.");
    }
    await sleep(Math.min(25 * 2 ** Math.min(attempt, 4), 250));
  }
}

/**
 * Which answers are kept for replay. Not kept: server errors and 429 (the contract tells
 * clients to retry those with the same key), and answers given before anything ran — a
 * rejected body or credential, a denied scope — so a corrected retry may reuse the key.
 */
export function isStorable(outcome: TOutcome, code?: string): boolean {
  if (outcome.status >= 500 || outcome.status === 429) return false;
  if (outcome.status === 400 || outcome.status === 401 || outcome.status === 403) return false;
  return code !== "fx_unavailable"; // a rate may exist on the next try
}

/** Stored answers that carry a secret (a token shown once) are kept encrypted, marked by this prefix. */
const ENCRYPTED_BODY = "enc:v1:";

async function openStoredBody(stored: string): Promise<string> {
  if (!stored.startsWith(ENCRYPTED_BODY)) return stored;
  return decryptSecret(Buffer.from(stored.slice(ENCRYPTED_BODY.length), "base64"));
}

export async function completeIdempotentRequest(
  db: TDbOrTx,
  recordId: string,
  outcome: TOutcome,
  options: { encrypt?: boolean } = {},
): Promise<void> {
  const body = options.encrypt
    ? ENCRYPTED_BODY + Buffer.from(await encryptSecret(outcome.body)).toString("base64")
    : outcome.body;
  await db.idempotencyRecord.update({
    where: { id: recordId },
    data: {
      state: "completed",
      responseStatus: outcome.status,
      responseHeaders: { kind: outcome.kind, headers: outcome.headers },
      responseBody: body,
    },
  });
}

/** Frees the key so the client may retry it. */
export async function releaseIdempotentRequest(db: TDbOrTx, recordId: string): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { id: recordId, state: "in_progress" } });
}

export type TIdempotentRun = { outcome: TOutcome; code?: string };

/** A 5xx answer: its transaction is rolled back, claim included, so a retry runs again. */
class RolledBack extends Error {
  constructor(readonly result: TIdempotentRun) {
    super("rolled back");
  }
}

/**
 * Runs an operation under its Idempotency-Key in one transaction, handed to `run` (every
 * inTransaction inside joins it as a savepoint). The claim is an insert on the unique
 * (principal, key): on PostgreSQL a concurrent duplicate waits on that index until this
 * transaction ends, then replays the stored answer (or runs, if this one rolled back).
 * - a storable answer (success, 202, 404, 409, …) is stored with the write, and commits;
 * - another 4xx (a refused body, a denied scope or limit) commits without the claim: what the
 *   operation recorded (the denial's audit entry) stays, and a corrected retry may reuse the key;
 * - a 5xx rolls everything back.
 */
export async function runIdempotent(
  db: TDb,
  request: TIdempotencyRequest,
  options: { encrypt?: boolean; limits?: TTransactionLimits },
  run: (tx: TTx) => Promise<TIdempotentRun>,
): Promise<{ outcome: TOutcome; replayed: boolean }> {
  try {
    return await inTransaction(
      db,
      async (tx) => {
        const started = await beginIdempotentRequest(tx, request);
        if (started.kind === "replay") return { outcome: started.outcome, replayed: true };
        const result = await run(tx);
        if (result.outcome.status >= 500) throw new RolledBack(result);
        if (isStorable(result.outcome, result.code)) {
          await completeIdempotentRequest(tx, started.recordId, result.outcome, { encrypt: options.encrypt });
        } else await releaseIdempotentRequest(tx, started.recordId);
        return { outcome: result.outcome, replayed: false };
      },
      options.limits ?? IDEMPOTENT_WRITE_LIMITS,
    );
  } catch (error) {
    if (error instanceof RolledBack) return { outcome: error.result.outcome, replayed: false };
    throw error;
  }
}

export async function sweepIdempotencyRecords(db: TDbOrTx, now = new Date()): Promise<number> {
  const { count } = await db.idempotencyRecord.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
