// K2 (pinned-wave2 §2.1): which rows a read model sees. Every fragment starts with the owner
// (tenant isolation), then the scope:
//
//   scope       events, subscriptions, reservations           cash snapshots
//   business B  business_id = B (its projects included)       business_id = B
//   project P   project_id = P (+ K7's share of allocated      its business's (cash_scope "business")
//               subscriptions, computed by commitments)
//   personal    personal = true                               personal = true
//   owner       all                                           all
//
// A business or project id is resolved for the owner first (resolveReadScope): unknown or
// another owner's → 404 not_found, so the fragments only ever see the owner's own ids.
import type { TDbOrTx } from "../db/client";
import { PREPARED } from "../db/prepared-statements";
import { Prisma } from "../db/generated/client";
import { AppError } from "../errors/app-error";

export type TReadScope =
  | { kind: "business"; businessId: string }
  | { kind: "project"; projectId: string; businessId: string }
  | { kind: "personal" }
  | { kind: "owner" };

/** A scope as a string, for keys (request-memo.ts): its kind and ids. */
export function readScopeKey(scope: TReadScope): string {
  switch (scope.kind) {
    case "business":
      return `business:${scope.businessId}`;
    case "project":
      return `project:${scope.projectId}`;
    case "personal":
    case "owner":
      return scope.kind;
  }
}

export const PERSONAL_SCOPE: TReadScope = { kind: "personal" };
export const OWNER_SCOPE: TReadScope = { kind: "owner" };

/** A plain SQL identifier (a table alias), checked before it is spliced. */
function aliasSql(alias: string): Prisma.Sql {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`Not an SQL alias: ${JSON.stringify(alias)}`);
  return Prisma.raw(alias);
}

/**
 * Rows of a table with owner_id, business_id, project_id and personal (financial_events,
 * subscriptions, budget_reservations) in the scope. A project's share of its business's
 * allocated subscriptions is not a row of the project: commitments (K7) add it.
 */
export function recordScopeSql(alias: string, ownerId: string, scope: TReadScope): Prisma.Sql {
  const a = aliasSql(alias);
  const owner = Prisma.sql`${a}.owner_id = ${ownerId}::uuid`;
  switch (scope.kind) {
    case "business":
      return Prisma.sql`${owner} AND ${a}.business_id = ${scope.businessId}::uuid`;
    case "project":
      return Prisma.sql`${owner} AND ${a}.project_id = ${scope.projectId}::uuid`;
    case "personal":
      return Prisma.sql`${owner} AND ${a}.personal = true`;
    case "owner":
      return owner;
  }
}

/** financial_events row `alias` in the scope. */
export const eventScopeSql = recordScopeSql;
/** subscriptions row `alias` in the scope (its own rows; allocations: K7). */
export const subscriptionScopeSql = recordScopeSql;
/** budget_reservations row `alias` in the scope. */
export const reservationScopeSql = recordScopeSql;

/** cash_snapshots row `alias` in the scope: a project counts its business's cash. */
export function cashScopeSql(alias: string, ownerId: string, scope: TReadScope): Prisma.Sql {
  const a = aliasSql(alias);
  const owner = Prisma.sql`${a}.owner_id = ${ownerId}::uuid`;
  switch (scope.kind) {
    case "business":
    case "project":
      return Prisma.sql`${owner} AND ${a}.business_id = ${scope.businessId}::uuid`;
    case "personal":
      return Prisma.sql`${owner} AND ${a}.personal = true`;
    case "owner":
      return owner;
  }
}

/** Whose cash a scope counts (free capital's cash_scope). */
export function cashScopeOf(scope: TReadScope): "business" | "personal" | "owner" {
  return scope.kind === "project" ? "business" : scope.kind;
}

/** The owner's business as a scope; unknown or another owner's → 404 not_found. */
export async function resolveBusinessScope(
  db: TDbOrTx,
  ownerId: string,
  businessId: string,
): Promise<TReadScope & { kind: "business" }> {
  // A prepared statement: the path's business check of every business read (a key probe whose
  // planning cost more than the probe).
  const [business] = await db.$queryRaw<Array<{ id: string }>>`${PREPARED}
    SELECT b.id::text AS id FROM businesses b WHERE b.id = ${businessId}::uuid AND b.owner_id = ${ownerId}::uuid`;
  if (!business) throw AppError.notFound("business");
  return { kind: "business", businessId: business.id };
}

/** The owner's project as a scope, with its business; unknown or another owner's → 404 not_found. */
export async function resolveProjectScope(
  db: TDbOrTx,
  ownerId: string,
  projectId: string,
): Promise<TReadScope & { kind: "project" }> {
  const project = await db.project.findFirst({ where: { id: projectId, ownerId }, select: { id: true, businessId: true } });
  if (!project) throw AppError.notFound("project");
  return { kind: "project", projectId: project.id, businessId: project.businessId };
}

/**
 * A query's scope: at most one of business_id, project_id, personal (the caller's schema
 * refuses more); none = the whole owner. Ids are resolved for the owner (404).
 */
export async function resolveReadScope(
  db: TDbOrTx,
  ownerId: string,
  input: { business_id?: string; project_id?: string; personal?: boolean },
): Promise<TReadScope> {
  if (input.project_id !== undefined) return resolveProjectScope(db, ownerId, input.project_id);
  if (input.business_id !== undefined) return resolveBusinessScope(db, ownerId, input.business_id);
  if (input.personal === true) return PERSONAL_SCOPE;
  return OWNER_SCOPE;
}

/** The scope as answers show it: { business_id } | { project_id, business_id } | { personal: true } | { owner: true }. */
export function toScopeRef(scope: TReadScope) {
  switch (scope.kind) {
    case "business":
      return { business_id: scope.businessId };
    case "project":
      return { project_id: scope.projectId, business_id: scope.businessId };
    case "personal":
      return { personal: true as const };
    case "owner":
      return { owner: true as const };
  }
}
