// GET /v1/agents/me (pinned-wave2 §3.4): the caller's own view. An agent gets its record (no
// token), passport, grants with the limits used and left in the current UTC day and month, its
// owner's essentials and the contract version; the owner gets the owner descriptor. Any live
// agent may ask (no scope): it is how an agent learns what it may do.
import type { TAgentActor, TOwnerActor } from "../auth/actor";
import { findGrant, type TGrant, type TResource } from "../auth/grants";
import { SCOPES } from "../auth/scopes";
import type { TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";
import { readPassport } from "../passports/passport-service";
import { CONTRACT_VERSION } from "../shared/contract-version";
import type { TAgentSelf, TOwnerSelf, TSelfMarkdown } from "./agent-me.schema";
import { renderAgentMarkdown, renderOwnerMarkdown } from "./agent-me-markdown";
import { getAgent } from "./agent-service";
import { loadGrants, withUsage } from "./grant-usage";

/** A `?resource` (already well-formed) as a resource of the owner; unknown or another owner's: 404. */
async function resolveResource(db: TDbOrTx, ownerId: string, resource: string): Promise<TResource> {
  if (resource === "*") return { kind: "owner" };
  if (resource === "personal") return { kind: "personal" };
  const [kind, id] = resource.split(":") as ["business" | "project", string];
  if (kind === "business") {
    const business = await db.business.findFirst({ where: { id, ownerId }, select: { id: true } });
    if (!business) throw AppError.notFound("business");
    return { kind: "business", businessId: business.id };
  }
  const project = await db.project.findFirst({ where: { id, ownerId }, select: { id: true, businessId: true } });
  if (!project) throw AppError.notFound("project");
  return { kind: "project", projectId: project.id, businessId: project.businessId };
}

/** Per scope, the most specific grant covering `resource` (the order of the grants kept). */
export function grantsCovering(grants: TGrant[], resource: TResource): TGrant[] {
  const kept = new Set(SCOPES.map((scope) => findGrant(grants, scope, resource)).filter((grant) => grant !== null));
  return grants.filter((grant) => kept.has(grant));
}

/** The names of the businesses and projects a view mentions, for the markdown. */
async function namesOf(db: TDbOrTx, ownerId: string, resources: string[], businessIds: string[]): Promise<Map<string, string>> {
  const business = new Set(businessIds);
  const project = new Set<string>();
  for (const resource of resources) {
    const [kind, id] = resource.split(":");
    if (kind === "business" && id) business.add(id);
    if (kind === "project" && id) project.add(id);
  }
  const [businesses, projects] = await Promise.all([
    business.size
      ? db.business.findMany({ where: { ownerId, id: { in: [...business] } }, select: { id: true, name: true } })
      : [],
    project.size
      ? db.project.findMany({
          where: { ownerId, id: { in: [...project] } },
          select: { id: true, name: true, business: { select: { name: true } } },
        })
      : [],
  ]);
  const names = new Map<string, string>();
  for (const row of businesses) names.set(`business:${row.id}`, row.name);
  for (const row of projects) names.set(`project:${row.id}`, `${row.business.name} › ${row.name}`);
  return names;
}

export async function describeCaller(
  db: TDbOrTx,
  actor: TOwnerActor | TAgentActor,
  query: { resource?: string; format: "json" | "markdown" },
  now: Date,
): Promise<TAgentSelf | TOwnerSelf | TSelfMarkdown> {
  const resource = query.resource === undefined ? null : await resolveResource(db, actor.ownerId, query.resource);
  if (actor.type === "owner") {
    const self: TOwnerSelf = {
      actor: { type: "owner", id: actor.ownerId },
      access: "all",
      agent: null,
      passport: null,
      grants: null,
      resource: query.resource ?? null,
      contract_version: CONTRACT_VERSION,
    };
    return query.format === "markdown" ? { format: "markdown", markdown: renderOwnerMarkdown(self) } : self;
  }

  const [agent, passport, allGrants, owner] = await Promise.all([
    getAgent(db, actor.ownerId, actor.agentId),
    readPassport(db, actor.agentId),
    loadGrants(db, actor.agentId),
    db.owner.findUniqueOrThrow({
      where: { id: actor.ownerId },
      select: { id: true, baseCurrency: true, timezone: true, plan: true },
    }),
  ]);
  const grants = await withUsage(db, resource === null ? allGrants : grantsCovering(allGrants, resource), now);
  const self: TAgentSelf = {
    actor: { type: "agent", id: actor.agentId },
    access: "grants",
    agent,
    passport,
    grants,
    resource: query.resource ?? null,
    owner: { id: owner.id, base_currency: owner.baseCurrency, timezone: owner.timezone, plan: owner.plan },
    contract_version: CONTRACT_VERSION,
  };
  if (query.format === "json") return self;
  const names = await namesOf(
    db,
    actor.ownerId,
    [...grants.map((grant) => grant.resource), ...(query.resource ? [query.resource] : [])],
    passport.constraints.businesses,
  );
  return { format: "markdown", markdown: renderAgentMarkdown(self, names) };
}

/** Panel: an agent's grants with their limits used and left (what agents/me tells the agent). */
export async function findAgentLimits(db: TDbOrTx, ownerId: string, agentId: string, now: Date) {
  const agent = await db.agent.findFirst({ where: { id: agentId, ownerId }, select: { id: true } });
  if (!agent) throw AppError.notFound("agent");
  return withUsage(db, await loadGrants(db, agentId), now);
}
