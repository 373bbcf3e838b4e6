// Agents of one owner: their tokens (hash only, shown once), grants and status.
import { randomBytes } from "node:crypto";
import type { TCaller } from "../auth/caller";
import { AGENT_TOKEN_TTL_MS, latestAgentTokenExpiry } from "../auth/lifetimes";
import { sha256Hex } from "../auth/tokens";
import { auditCaller } from "../audit/audit-service";
import type { TDbOrTx, TTx } from "../db/client";
import type { Agent, AgentGrant, AgentToken } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { pageArgs, toPage, type TPageQuery } from "../shared/pagination";
import { AGENT_CREATED_VIA, AGENT_STATUSES, type TAgent, type TGrantParsed } from "./agent.schema";
import { parseState } from "../shared/parse-state";
import { endOAuthTokens } from "./end-agent-tokens";

type TAgentRow = Agent & { grants: AgentGrant[]; tokens: AgentToken[] };

const withCurrentToken = {
  grants: { orderBy: { createdAt: "asc" as const } },
  tokens: { where: { revokedAt: null }, orderBy: { createdAt: "desc" as const }, take: 1 },
};

function limitToNumber(value: bigint | null): number | null {
  return value === null ? null : Number(value);
}

export function toAgentDto(row: TAgentRow): TAgent {
  const token = row.tokens[0];
  return {
    id: row.id,
    name: row.name,
    status: parseState(AGENT_STATUSES, row.status),
    grants: row.grants.map((grant) => ({
      scope: grant.scope,
      resource: grant.resource,
      level: grant.level as "recommend" | "execute",
      daily_limit_minor: limitToNumber(grant.dailyLimitMinor),
      monthly_limit_minor: limitToNumber(grant.monthlyLimitMinor),
      currency: grant.currency,
      over_limit: grant.overLimit as "approval" | "deny",
    })),
    allowed_ip_ranges: row.allowedIpRanges,
    token_hint: token ? token.hint : null,
    token_expires_at: token ? token.expiresAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_via: parseState(AGENT_CREATED_VIA, row.createdVia),
  };
}

function newAgentToken(): { token: string; hash: string; hint: string } {
  const token = `agt_${randomBytes(32).toString("base64url")}`;
  return { token, hash: sha256Hex(token), hint: `${token.slice(0, 10)}…` };
}

/** When a new token expires: the default, or the requested time if it is in the future and at most one year ahead. */
export function tokenExpiry(requested: string | undefined, now: Date = new Date()): Date {
  if (!requested) return new Date(now.getTime() + AGENT_TOKEN_TTL_MS);
  const at = new Date(requested);
  if (at.getTime() <= now.getTime()) throw AppError.invalidField("token_expires_at", "must be in the future");
  const latest = latestAgentTokenExpiry(now);
  if (at.getTime() > latest.getTime()) {
    throw AppError.invalidField("token_expires_at", `must be at most one year ahead (${latest.toISOString()})`);
  }
  return at;
}

/** Grants may only name the owner's own businesses and projects. */
export async function assertGrantResources(db: TDbOrTx, ownerId: string, grants: TGrantParsed[]): Promise<void> {
  const businessIds = new Set<string>();
  const projectIds = new Set<string>();
  for (const grant of grants) {
    const [kind, id] = grant.resource.split(":");
    if (kind === "business" && id) businessIds.add(id);
    if (kind === "project" && id) projectIds.add(id);
  }
  const [businesses, projects] = await Promise.all([
    businessIds.size ? db.business.findMany({ where: { ownerId, id: { in: [...businessIds] } }, select: { id: true } }) : [],
    projectIds.size ? db.project.findMany({ where: { ownerId, id: { in: [...projectIds] } }, select: { id: true } }) : [],
  ]);
  const known = new Set([...businesses.map((b) => `business:${b.id}`), ...projects.map((p) => `project:${p.id}`)]);
  const issues = grants.flatMap((grant, index) =>
    grant.resource.includes(":") && !known.has(grant.resource)
      ? [{ path: `grants.${index}.resource`, message: `no such ${grant.resource.split(":")[0]}` }]
      : [],
  );
  if (issues.length) {
    throw new AppError("validation_error", `${issues[0]!.path}: ${issues[0]!.message}`, { details: { issues } });
  }
}

function grantRows(agentId: string, grants: TGrantParsed[]) {
  return grants.map((grant) => ({
    agentId,
    scope: grant.scope,
    resource: grant.resource,
    level: grant.level,
    dailyLimitMinor: grant.daily_limit_minor == null ? null : BigInt(grant.daily_limit_minor),
    monthlyLimitMinor: grant.monthly_limit_minor == null ? null : BigInt(grant.monthly_limit_minor),
    currency: grant.currency ?? null,
    overLimit: grant.over_limit,
  }));
}

async function loadAgent(db: TDbOrTx, ownerId: string, agentId: string): Promise<TAgentRow> {
  const row = await db.agent.findFirst({ where: { id: agentId, ownerId }, include: withCurrentToken });
  if (!row) throw AppError.notFound("agent");
  return row;
}

export async function createAgent(
  db: TDbOrTx,
  caller: TCaller,
  input: { name: string; grants: TGrantParsed[]; allowed_ip_ranges: string[]; token_expires_at?: string },
): Promise<TAgent & { token: string }> {
  await assertGrantResources(db, caller.ownerId, input.grants);
  const expiresAt = tokenExpiry(input.token_expires_at);
  const secret = newAgentToken();
  return inTransaction(db, async (tx) => {
    const agent = await tx.agent.create({
      data: { ownerId: caller.ownerId, name: input.name, allowedIpRanges: input.allowed_ip_ranges },
    });
    await tx.agentGrant.createMany({ data: grantRows(agent.id, input.grants) });
    await tx.agentToken.create({ data: { agentId: agent.id, tokenHash: secret.hash, hint: secret.hint, expiresAt } });
    await auditCaller(
      tx,
      caller,
      "agent.created",
      { type: "agent", id: agent.id },
      { name: input.name, grants: input.grants.length },
    );
    return { ...toAgentDto(await loadAgent(tx, caller.ownerId, agent.id)), token: secret.token };
  });
}

export async function findAgents(db: TDbOrTx, ownerId: string, query: TPageQuery) {
  const args = pageArgs(query);
  const rows = await db.agent.findMany({ ...args, where: { ownerId, ...args.where }, include: withCurrentToken });
  const { rows: kept, page } = toPage(rows, query.limit);
  return { data: kept.map(toAgentDto), page };
}

export async function getAgent(db: TDbOrTx, ownerId: string, agentId: string): Promise<TAgent> {
  return toAgentDto(await loadAgent(db, ownerId, agentId));
}

async function requireLiveAgent(tx: TTx, ownerId: string, agentId: string): Promise<TAgentRow> {
  const agent = await loadAgent(tx, ownerId, agentId);
  if (agent.status === "revoked") throw new AppError("state_conflict", "This agent is revoked; create a new one.");
  return agent;
}

export async function updateAgent(
  db: TDbOrTx,
  caller: TCaller,
  agentId: string,
  input: { name?: string; status?: "active" | "suspended"; grants?: TGrantParsed[]; allowed_ip_ranges?: string[] },
): Promise<TAgent> {
  if (input.grants) await assertGrantResources(db, caller.ownerId, input.grants);
  return inTransaction(db, async (tx) => {
    const current = await requireLiveAgent(tx, caller.ownerId, agentId);
    await tx.agent.update({
      where: { id: agentId },
      data: { name: input.name, status: input.status, allowedIpRanges: input.allowed_ip_ranges },
    });
    if (input.grants) await replaceGrants(tx, agentId, input.grants);
    // Suspending ends an OAuth connection (pinned-wave3 §2.2): its refresh and access tokens; the
    // assistant connects again once the agent is active. A token agent keeps its token, refused while suspended.
    if (input.status === "suspended" && current.createdVia === "oauth") await endOAuthTokens(tx, agentId, new Date());
    await auditCaller(
      tx,
      caller,
      input.status === "suspended" ? "agent.suspended" : "agent.updated",
      { type: "agent", id: agentId },
      { fields: Object.keys(input).filter((key) => input[key as keyof typeof input] !== undefined) },
    );
    return toAgentDto(await loadAgent(tx, caller.ownerId, agentId));
  });
}

export async function rotateAgentToken(
  db: TDbOrTx,
  caller: TCaller,
  agentId: string,
  input: { token_expires_at?: string },
): Promise<TAgent & { token: string }> {
  const expiresAt = tokenExpiry(input.token_expires_at);
  const secret = newAgentToken();
  return inTransaction(db, async (tx) => {
    await requireLiveAgent(tx, caller.ownerId, agentId);
    // The old token stops working with this commit.
    await tx.agentToken.updateMany({ where: { agentId, revokedAt: null }, data: { revokedAt: new Date() } });
    await tx.agentToken.create({ data: { agentId, tokenHash: secret.hash, hint: secret.hint, expiresAt } });
    await tx.agent.update({ where: { id: agentId }, data: { updatedAt: new Date() } });
    await auditCaller(tx, caller, "agent.token_rotated", { type: "agent", id: agentId });
    return { ...toAgentDto(await loadAgent(tx, caller.ownerId, agentId)), token: secret.token };
  });
}

export async function revokeAgent(db: TDbOrTx, caller: TCaller, agentId: string): Promise<TAgent> {
  return inTransaction(db, async (tx) => {
    await requireLiveAgent(tx, caller.ownerId, agentId);
    const now = new Date();
    await tx.agent.update({ where: { id: agentId }, data: { status: "revoked", revokedAt: now } });
    await endOAuthTokens(tx, agentId, now);
    await auditCaller(tx, caller, "agent.revoked", { type: "agent", id: agentId });
    return toAgentDto(await loadAgent(tx, caller.ownerId, agentId));
  });
}

/**
 * Replaces an agent's grants whole. What the agent already spent keeps counting: a new grant of
 * the same scope, resource and currency as an old one takes over the old one's counters, so
 * saving the grants (a new IP range, an accepted template grant) never hands out a fresh daily
 * or monthly allowance. A grant of another scope, resource or currency starts at zero.
 */
async function replaceGrants(tx: TTx, agentId: string, grants: TGrantParsed[]): Promise<void> {
  const spent = await tx.$queryRaw<
    Array<{ scope: string; resource: string; currency: string | null; period: string; periodStart: Date; usedMinor: bigint }>
  >`
    SELECT g.scope, g.resource, g.currency, u.period, u.period_start AS "periodStart", u.used_minor AS "usedMinor"
      FROM agent_limit_usage u JOIN agent_grants g ON g.id = u.grant_id
     WHERE g.agent_id = ${agentId}::uuid`;
  await tx.agentGrant.deleteMany({ where: { agentId } });
  const created = await tx.agentGrant.createManyAndReturn({ data: grantRows(agentId, grants) });
  const carried = new Map<string, { grantId: string; period: string; periodStart: Date; usedMinor: bigint }>();
  for (const grant of created) {
    for (const row of spent) {
      if (row.scope !== grant.scope || row.resource !== grant.resource || row.currency !== grant.currency) continue;
      const key = `${grant.id}|${row.period}|${row.periodStart.toISOString()}`;
      const sum = (carried.get(key)?.usedMinor ?? 0n) + row.usedMinor;
      carried.set(key, { grantId: grant.id, period: row.period, periodStart: row.periodStart, usedMinor: sum });
    }
  }
  if (carried.size) await tx.agentLimitUsage.createMany({ data: [...carried.values()] });
}

/** Adds one grant (an approved permission request). */
export async function addGrant(tx: TTx, ownerId: string, agentId: string, grant: TGrantParsed): Promise<void> {
  await requireLiveAgent(tx, ownerId, agentId);
  await assertGrantResources(tx, ownerId, [grant]);
  await tx.agentGrant.createMany({ data: grantRows(agentId, [grant]) });
}
