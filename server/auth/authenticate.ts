// Bearer authentication: turns the Authorization header into an actor. One place for every
// kind of credential: owner sessions (ses_…), agent tokens (agt_…) and the static owner token.
import type { TDb } from "../db/client";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import type { TAgentActor, TAuthenticatedActor, TOwnerActor } from "./actor";
import type { TGrant, TGrantLevel, TOverLimit } from "./grants";
import { ipAllowed } from "./ip-allow-list";
import { SESSION_TOUCH_MS } from "./lifetimes";
import { safeEqualHashes, sha256Hex, tokenKeyOfHash } from "./tokens";

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/;

/** The token of an `Authorization: Bearer …` header; a missing or malformed one is 401. */
export function parseBearer(header: string | null): string {
  if (!header) throw new AppError("unauthenticated");
  const match = BEARER.exec(header.trim());
  if (!match?.[1]) throw new AppError("unauthenticated", "Authorization must be 'Bearer <token>'.");
  return match[1];
}

export async function authenticateToken(
  db: TDb,
  token: string,
  request: { ip?: string | null } = {},
): Promise<TAuthenticatedActor> {
  // One hash of the token per request: the lookup key, the comparison and the rate-limit key.
  const hash = sha256Hex(token);
  if (token.startsWith("ses_")) return authenticateSession(db, hash);
  if (token.startsWith("agt_")) return authenticateAgent(db, hash, request.ip ?? null);
  const env = getEnv();
  if (env.AUTH_MODE === "static" && env.STATIC_OWNER_TOKEN && safeEqualHashes(hash, staticTokenHash(env.STATIC_OWNER_TOKEN))) {
    return staticOwner(db, env.STATIC_OWNER_EMAIL, hash);
  }
  throw new AppError("unauthenticated", "The bearer token is not valid.");
}

let staticHash: { token: string; hash: string } | undefined;

/** The configured static token's hash, computed once (per value: tests change it). */
function staticTokenHash(token: string): string {
  if (staticHash?.token !== token) staticHash = { token, hash: sha256Hex(token) };
  return staticHash.hash;
}

async function authenticateSession(db: TDb, hash: string): Promise<TOwnerActor> {
  // Lookup by hash: the unique index compares; timing reveals nothing about the token.
  const session = await db.session.findUnique({ where: { tokenHash: hash } });
  if (!session) throw new AppError("unauthenticated", "The session token is not valid.");
  if (session.revokedAt) throw new AppError("session_revoked");
  const now = new Date();
  if (session.expiresAt <= now) throw new AppError("session_expired");
  if (now.getTime() - session.lastSeenAt.getTime() > SESSION_TOUCH_MS) {
    await db.session.updateMany({ where: { id: session.id, lastSeenAt: session.lastSeenAt }, data: { lastSeenAt: now } });
  }
  return {
    type: "owner",
    ownerId: session.ownerId,
    credential: "session",
    sessionId: session.id,
    tokenKey: tokenKeyOfHash(hash),
  };
}

async function authenticateAgent(db: TDb, hash: string, ip: string | null): Promise<TAgentActor> {
  const row = await db.agentToken.findUnique({
    where: { tokenHash: hash },
    include: { agent: { include: { grants: true } } },
  });
  if (!row) throw new AppError("unauthenticated", "The agent token is not valid.");
  const { agent } = row;
  if (row.revokedAt || agent.status === "revoked") throw new AppError("token_revoked");
  if (row.expiresAt <= new Date()) throw new AppError("token_expired");
  if (agent.status === "suspended") throw new AppError("agent_suspended");
  if (!ipAllowed(ip, agent.allowedIpRanges)) {
    throw new AppError("ip_not_allowed", `Requests from ${ip ?? "an unknown address"} are not allowed for this agent.`);
  }
  return {
    type: "agent",
    ownerId: agent.ownerId,
    agentId: agent.id,
    tokenKey: tokenKeyOfHash(hash),
    grants: agent.grants.map((grant): TGrant => ({
      id: grant.id,
      scope: grant.scope,
      resource: grant.resource,
      level: grant.level as TGrantLevel,
      dailyLimitMinor: grant.dailyLimitMinor,
      monthlyLimitMinor: grant.monthlyLimitMinor,
      currency: grant.currency,
      overLimit: grant.overLimit as TOverLimit,
    })),
  };
}

const staticOwnerIds = new WeakMap<TDb, Map<string, Promise<string>>>();

/**
 * The static mode's owner, created on first use (a database may be fresh), on the business plan:
 * an operator account (pinned-wave2 §5.2), unlike the free plan every new owner starts on.
 */
async function staticOwner(db: TDb, email: string, hash: string): Promise<TOwnerActor> {
  let byEmail = staticOwnerIds.get(db);
  if (!byEmail) staticOwnerIds.set(db, (byEmail = new Map()));
  let ownerId = byEmail.get(email);
  if (!ownerId) {
    ownerId = db.owner
      .upsert({ where: { email }, create: { email, plan: "business" }, update: {}, select: { id: true } })
      .then((owner) => owner.id);
    byEmail.set(email, ownerId);
    ownerId.catch(() => byEmail.delete(email));
  }
  return { type: "owner", ownerId: await ownerId, credential: "static", tokenKey: tokenKeyOfHash(hash) };
}
