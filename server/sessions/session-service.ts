// Owner sessions: one kind of record whatever started it (POST /v1/auth/verify → channel
// "api", the panel's Auth.js sign-in → channel "panel"), one token format (ses_…), only the
// token's SHA-256 stored. Sessions are never deleted by the owner, only revoked, so the list
// shows what was signed in and when it ended. Every query carries the owner id.
import type { TOwnerActor } from "../auth/actor";
import { SESSION_TTL_MS } from "../auth/lifetimes";
import { sha256Hex, tokenKey } from "../auth/tokens";
import { recordAudit } from "../audit/audit-service";
import type { TDb, TDbOrTx, TTx } from "../db/client";
import { inTransaction } from "../db/transaction";
import type { Owner, Prisma, Session } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { pageArgs, toPage, type TPageQuery } from "../shared/pagination";
import { toOwnerProfile } from "../me/me-service";
import type { TOwnerSession, TSessionChannel, TSessionStatus, TSessionUser } from "./session.schema";
import { newSessionToken } from "./session-tokens";

/** Longest User-Agent kept (some clients send kilobytes). */
const USER_AGENT_MAX = 512;

export function sessionStatus(row: Pick<Session, "revokedAt" | "expiresAt">, now = new Date()): TSessionStatus {
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= now ? "expired" : "active";
}

export function toSessionDto(row: Session, currentSessionId: string | undefined, now = new Date()): TOwnerSession {
  return {
    id: row.id,
    channel: row.channel as TSessionChannel,
    user_agent: row.userAgent,
    ip: row.ip,
    created_at: row.createdAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    status: sessionStatus(row, now),
    current: row.id === currentSessionId,
  };
}

export function toSessionUser(owner: Owner): TSessionUser {
  return toOwnerProfile(owner);
}

/** The owner as the actor of their own session (for audit entries written at sign-in). */
export function sessionActor(session: Pick<Session, "id" | "ownerId">, token: string): TOwnerActor {
  return { type: "owner", ownerId: session.ownerId, credential: "session", sessionId: session.id, tokenKey: tokenKey(token) };
}

export type TCreateSessionInput = {
  ownerId: string;
  channel: TSessionChannel;
  /** The token to store (Auth.js generates its own through our generator); a new one otherwise. */
  token?: string;
  userAgent?: string | null;
  ip?: string | null;
  /** Default: SESSION_TTL_MS from now. */
  expiresAt?: Date;
  requestId?: string | null;
};

/**
 * Inserts a session and its `session.created` audit entry. Runs inside the caller's
 * transaction (`tx`); openOwnerSession opens one of its own.
 */
export async function insertOwnerSession(tx: TTx, input: TCreateSessionInput): Promise<{ session: Session; token: string }> {
  const token = input.token ?? newSessionToken();
  const session = await tx.session.create({
    data: {
      ownerId: input.ownerId,
      tokenHash: sha256Hex(token),
      channel: input.channel,
      userAgent: input.userAgent ? input.userAgent.slice(0, USER_AGENT_MAX) : null,
      ip: input.ip || null,
      expiresAt: input.expiresAt ?? new Date(Date.now() + SESSION_TTL_MS),
    },
  });
  await recordAudit(tx, {
    ownerId: session.ownerId,
    actor: sessionActor(session, token),
    action: "session.created",
    target: { type: "session", id: session.id },
    requestId: input.requestId ?? null,
    details: { channel: session.channel },
  });
  return { session, token };
}

export function openOwnerSession(db: TDb, input: TCreateSessionInput): Promise<{ session: Session; token: string }> {
  return db.$transaction((tx) => insertOwnerSession(tx, input));
}

export type TSessionListFilter = "all" | TSessionStatus;

function statusWhere(status: TSessionListFilter, now: Date): Prisma.SessionWhereInput {
  switch (status) {
    case "active":
      return { revokedAt: null, expiresAt: { gt: now } };
    case "expired":
      return { revokedAt: null, expiresAt: { lte: now } };
    case "revoked":
      return { revokedAt: { not: null } };
    case "all":
      return {};
  }
}

export async function findSessions(db: TDbOrTx, actor: TOwnerActor, query: TPageQuery & { status: TSessionListFilter }) {
  const now = new Date();
  const args = pageArgs(query);
  const rows = await db.session.findMany({
    ...args,
    where: { ownerId: actor.ownerId, AND: [statusWhere(query.status, now), args.where] },
  });
  const { rows: kept, page } = toPage(rows, query.limit);
  return { data: kept.map((row) => toSessionDto(row, actor.sessionId, now)), page };
}

/** Revokes one of the owner's sessions: another owner's is not_found, a revoked one state_conflict. */
export async function revokeSession(
  db: TDbOrTx,
  actor: TOwnerActor,
  sessionId: string,
  requestId: string,
): Promise<TOwnerSession> {
  return inTransaction(db, async (tx) => {
    const now = new Date();
    // The owner id and `revokedAt: null` are in the write itself: of two concurrent revokes
    // exactly one changes the row, the other sees state_conflict.
    const { count } = await tx.session.updateMany({
      where: { id: sessionId, ownerId: actor.ownerId, revokedAt: null },
      data: { revokedAt: now },
    });
    const row = await tx.session.findFirst({ where: { id: sessionId, ownerId: actor.ownerId } });
    if (!row) throw AppError.notFound("session");
    if (count === 0) {
      throw new AppError("state_conflict", "The session is already revoked.", {
        details: { revoked_at: row.revokedAt?.toISOString() ?? null },
      });
    }
    await recordAudit(tx, {
      ownerId: actor.ownerId,
      actor,
      action: "session.revoked",
      target: { type: "session", id: row.id },
      requestId,
      details: { channel: row.channel, current: row.id === actor.sessionId },
    });
    return toSessionDto(row, actor.sessionId, now);
  });
}

/** Revokes every live session of the owner except the caller's own; answers how many. */
export async function revokeOtherSessions(db: TDbOrTx, actor: TOwnerActor, requestId: string): Promise<{ revoked: number }> {
  return inTransaction(db, async (tx) => {
    const now = new Date();
    const revoked = await tx.session.updateManyAndReturn({
      where: {
        ownerId: actor.ownerId,
        revokedAt: null,
        expiresAt: { gt: now },
        ...(actor.sessionId ? { id: { not: actor.sessionId } } : {}),
      },
      data: { revokedAt: now },
      select: { id: true },
    });
    await recordAudit(tx, {
      ownerId: actor.ownerId,
      actor,
      action: "session.revoked_others",
      target: actor.sessionId ? { type: "session", id: actor.sessionId } : null,
      requestId,
      details: { revoked: revoked.length, session_ids: revoked.map((row) => row.id) },
    });
    return { revoked: revoked.length };
  });
}

/** Ends the session the request was made with (POST /v1/auth/logout). */
export async function endCurrentSession(db: TDbOrTx, actor: TOwnerActor, requestId: string): Promise<void> {
  if (actor.credential !== "session" || !actor.sessionId) {
    throw new AppError("unauthenticated", "Sign-out needs the bearer of an owner session (ses_…).");
  }
  const sessionId = actor.sessionId;
  await inTransaction(db, async (tx) => {
    const { count } = await tx.session.updateMany({
      where: { id: sessionId, ownerId: actor.ownerId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    // A concurrent sign-out already ended it: the outcome the caller wanted, nothing to audit.
    if (count === 0) return;
    await recordAudit(tx, {
      ownerId: actor.ownerId,
      actor,
      action: "session.signed_out",
      target: { type: "session", id: sessionId },
      requestId,
    });
  });
}

/**
 * Revokes the session a token belongs to (the panel's sign-out, Auth.js's deleteSession).
 * Unknown or already revoked tokens are a no-op; answers the session that was revoked.
 */
export async function revokeSessionByToken(
  db: TDb,
  token: string,
  options: { requestId?: string | null; action?: string } = {},
): Promise<Session | null> {
  return db.$transaction(async (tx) => {
    const tokenHash = sha256Hex(token);
    const now = new Date();
    const { count } = await tx.session.updateMany({ where: { tokenHash, revokedAt: null }, data: { revokedAt: now } });
    if (count === 0) return null;
    const session = await tx.session.findUniqueOrThrow({ where: { tokenHash } });
    await recordAudit(tx, {
      ownerId: session.ownerId,
      actor: sessionActor(session, token),
      action: options.action ?? "session.signed_out",
      target: { type: "session", id: session.id },
      requestId: options.requestId ?? null,
      details: { channel: session.channel },
    });
    return session;
  });
}
