// K9 (pinned-wave2 §2.1): how fresh the data behind an answer is. Best to worst: accurate,
// mostly_covered, incomplete, missing. A source's age = now − its time (a future time: 0).
//
//   source (time)                                          < 24 h          < 72 h          ≤ 7 d       else
//   live: snapshot data_class real (as_of);                accurate        mostly_covered  incomplete  missing
//         active integration (last_sync_at)
//   periodic: bank import (confirmed_at);                  mostly_covered  incomplete      incomplete  missing
//             manual snapshot (as_of)
//   entries: manual or imported entries (newest            incomplete      incomplete      incomplete  missing
//            created_at)
//
// Domains (active integrations only):
//   cash     = snapshots, imports
//   revenue  = payments_a, billing_*, generic integrations that sent revenue, manual or imported revenue
//   ads      = social_ads, search_ads
//   billing  = billing_*
//   expenses = imports, generic integrations that sent out events, manual expenses
// A domain takes its BEST source; personal has cash, revenue and expenses. A scope's overall and
// the owner's: the worst domain with a source, else missing. The owner's domain: the worst scope
// with a source in it. Decided: snapshots count whatever their integration's state (the
// snapshot is data; its age says how fresh); an integration of no business counts at owner
// level only; an active integration never synced is a source with status missing.
import type { TDbOrTx } from "../db/client";
import { PREPARED } from "../db/prepared-statements";
import { Prisma } from "../db/generated/client";
import type { TOwnerDay } from "../shared/owner-today";
import { COVERAGE_DOMAINS, COVERAGE_STATUSES, type TCoverageDomain, type TCoverageStatus } from "./read-model.schema";
import { oncePerRequest } from "./request-memo";
import { cashScopeSql, type TReadScope } from "./scope";

export const HOUR_MS = 3_600_000;

/** How a source's age maps to a status. */
export type TSourceTier = "live" | "periodic" | "entries";

const STATUS_BY_TIER: Record<TSourceTier, readonly [TCoverageStatus, TCoverageStatus, TCoverageStatus]> = {
  live: ["accurate", "mostly_covered", "incomplete"],
  periodic: ["mostly_covered", "incomplete", "incomplete"],
  entries: ["incomplete", "incomplete", "incomplete"],
};

/** A source's status at `now`: < 24 h, < 72 h, ≤ 7 days, else missing (no time: missing). */
export function sourceStatus(tier: TSourceTier, at: Date | null, now: Date): TCoverageStatus {
  if (at === null) return "missing";
  const age = Math.max(0, now.getTime() - at.getTime());
  const [fresh, recent, week] = STATUS_BY_TIER[tier];
  if (age < 24 * HOUR_MS) return fresh;
  if (age < 72 * HOUR_MS) return recent;
  if (age <= 7 * 24 * HOUR_MS) return week;
  return "missing";
}

const rank = (status: TCoverageStatus) => COVERAGE_STATUSES.indexOf(status);

/** The best of some statuses (missing when none). */
export function bestStatus(statuses: readonly TCoverageStatus[]): TCoverageStatus {
  return statuses.reduce<TCoverageStatus>((best, s) => (rank(s) < rank(best) ? s : best), "missing");
}

/** The worst of some statuses, or missing when there are none. */
export function worstStatus(statuses: readonly TCoverageStatus[]): TCoverageStatus {
  if (statuses.length === 0) return "missing";
  return statuses.reduce<TCoverageStatus>((worst, s) => (rank(s) > rank(worst) ? s : worst), "accurate");
}

export type TCoverageSource = {
  kind: "snapshot" | "import" | "integration" | "manual";
  integration_id: string | null;
  provider: string | null;
  at: string | null;
  status: TCoverageStatus;
};

export type TDomainCoverage = { status: TCoverageStatus; last_data_at: string | null; sources: TCoverageSource[] };

/** Where a fact belongs: a business, personal, or an integration of no business (owner level only). */
type TScopeKey = string;
const PERSONAL_KEY = "personal";
const UNASSIGNED_KEY = "unassigned";
const businessKey = (id: string) => `business:${id}`;

type TFact = {
  scope: TScopeKey;
  domain: TCoverageDomain;
  tier: TSourceTier;
  source: Omit<TCoverageSource, "status" | "at">;
  at: Date | null;
};

const PERSONAL_DOMAINS = ["cash", "revenue", "expenses"] as const satisfies readonly TCoverageDomain[];

/** Integration providers and the domains they cover. Generic: by what it sent. */
const PROVIDER_DOMAINS: Record<string, readonly TCoverageDomain[]> = {
  payments_a: ["revenue"],
  billing_a: ["revenue", "billing"],
  billing_b: ["revenue", "billing"],
  social_ads: ["ads"],
  search_ads: ["ads"],
};
const GENERIC = "generic";

const toDate = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string));

/** `business_id = B` for a business or project, `IS NULL`-free owner-wide otherwise, on `alias`. */
function businessFilter(alias: string, scope: TReadScope): Prisma.Sql {
  const a = Prisma.raw(alias);
  if (scope.kind === "business" || scope.kind === "project") return Prisma.sql`AND ${a}.business_id = ${scope.businessId}::uuid`;
  return Prisma.empty;
}

type TSnapshotSourceRow = {
  business_id: string | null;
  personal: boolean;
  integration_id: string | null;
  provider: string | null;
  data_class: string;
  at: Date;
};
type TImportRow = { business_id: string; at: Date };
type TIntegrationRow = {
  id: string;
  provider: string;
  business_id: string | null;
  at: Date | null;
  sent_revenue: boolean;
  sent_out: boolean;
};
type TEntriesRow = { business_id: string | null; personal: boolean; revenue_at: Date | null; expenses_at: Date | null };

/**
 * Every source fact of the owner within `scope` (a project: its business's). A few GROUP BYs,
 * issued together: they are independent, and every read model's envelope waits for them.
 * With `knownAt` (the daily brief's end of day), only what existed before it: snapshots as of,
 * imports confirmed, entries created, integrations connected before it. An integration keeps
 * only its latest sync: one that synced since counts as synced at `knownAt`.
 */
async function loadFacts(db: TDbOrTx, ownerId: string, scope: TReadScope, knownAt?: Date): Promise<TFact[]> {
  const before = (column: Prisma.Sql) => (knownAt ? Prisma.sql`AND ${column} < ${knownAt}` : Prisma.empty);
  const wantsBusinesses = scope.kind !== "personal";
  const wantsPersonal = scope.kind === "personal" || scope.kind === "owner";

  // Snapshots: the newest as_of per scope, integration and data class, grouped first and then
  // named by provider (a join of the few groups, not of every snapshot).
  const snapshots = db.$queryRaw<TSnapshotSourceRow[]>`${PREPARED}
    SELECT s.business_id::text AS business_id, s.personal, s.integration_id::text AS integration_id, i.provider,
           s.data_class, s.at
      FROM (SELECT cs.business_id, cs.personal, cs.integration_id, cs.data_class, MAX(cs.as_of) AS at
              FROM cash_snapshots cs
             WHERE ${cashScopeSql("cs", ownerId, scope)} ${before(Prisma.sql`cs.as_of`)}
             GROUP BY cs.business_id, cs.personal, cs.integration_id, cs.data_class) s
      LEFT JOIN integrations i ON i.id = s.integration_id AND i.owner_id = ${ownerId}::uuid
     ORDER BY s.business_id, s.personal, s.integration_id, s.data_class`;

  // Bank imports: the newest confirmation per business.
  const imports = wantsBusinesses
    ? db.$queryRaw<TImportRow[]>`${PREPARED}
      SELECT im.business_id::text AS business_id, MAX(im.confirmed_at) AS at
        FROM imports im
       WHERE im.owner_id = ${ownerId}::uuid AND im.status = 'confirmed' AND im.confirmed_at IS NOT NULL ${businessFilter("im", scope)}
             ${before(Prisma.sql`im.confirmed_at`)}
       GROUP BY im.business_id`
    : Promise.resolve([]);

  // Active integrations of the providers that cover a domain; generic ones by what they sent.
  const providers = [...Object.keys(PROVIDER_DOMAINS), GENERIC];
  const integrations = wantsBusinesses
    ? db.$queryRaw<TIntegrationRow[]>`${PREPARED}
      SELECT i.id::text AS id, i.provider, i.business_id::text AS business_id,
             ${knownAt ? Prisma.sql`CASE WHEN i.last_sync_at < ${knownAt} THEN i.last_sync_at WHEN i.last_sync_at IS NOT NULL THEN ${knownAt}::timestamptz END` : Prisma.sql`i.last_sync_at`} AS at,
             (i.provider = ${GENERIC} AND EXISTS (SELECT 1 FROM financial_events e
                WHERE e.integration_id = i.id AND e.owner_id = i.owner_id AND e.type = 'revenue')) AS sent_revenue,
             (i.provider = ${GENERIC} AND EXISTS (SELECT 1 FROM financial_events e
                WHERE e.integration_id = i.id AND e.owner_id = i.owner_id
                  AND (e.type IN ('expense', 'recurring_expense', 'ad_spend', 'planned_expense')
                       OR (e.type = 'refund' AND e.direction = 'out')))) AS sent_out
        FROM integrations i
       WHERE i.owner_id = ${ownerId}::uuid AND i.status = 'active' AND i.provider = ANY(${providers}::text[])
             ${businessFilter("i", scope)} ${before(Prisma.sql`i.created_at`)}`
    : Promise.resolve([]);

  // Manual (and imported) entries: the newest created_at per scope and kind, each a MAX the
  // planner answers with one backward step of financial_events_business_entries_idx or
  // _personal_entries_idx (one MAX with FILTERs over the scope read every event of the scope:
  // about a second at 1,000,000 events, scripts/bench/read.ts). The kinds are literals so that
  // the partial indexes' predicates are provably implied.
  const newest = (where: Prisma.Sql, type: string, source: string) =>
    Prisma.sql`(SELECT MAX(e.created_at) FROM financial_events e
       WHERE e.owner_id = ${ownerId}::uuid AND ${where} AND e.status = 'confirmed'
         AND e.type = ${Prisma.raw(`'${type}'`)} AND e.source_type = ${Prisma.raw(`'${source}'`)} ${before(Prisma.sql`e.created_at`)})`;
  const kinds = (where: Prisma.Sql) =>
    Prisma.sql`GREATEST(${newest(where, "revenue", "MANUAL")}, ${newest(where, "revenue", "IMPORT")}) AS revenue_at,
       GREATEST(${newest(where, "expense", "MANUAL")}, ${newest(where, "recurring_expense", "MANUAL")}) AS expenses_at`;
  const arms: Prisma.Sql[] = [];
  if (wantsBusinesses) {
    const only =
      scope.kind === "business" || scope.kind === "project" ? Prisma.sql`AND b.id = ${scope.businessId}::uuid` : Prisma.empty;
    arms.push(Prisma.sql`SELECT b.id::text AS business_id, false AS personal, ${kinds(Prisma.sql`e.business_id = b.id`)}
      FROM businesses b WHERE b.owner_id = ${ownerId}::uuid ${only}`);
  }
  if (wantsPersonal) {
    arms.push(Prisma.sql`SELECT NULL::text AS business_id, true AS personal, ${kinds(Prisma.sql`e.personal = true`)}`);
  }
  const entries = db.$queryRaw<TEntriesRow[]>`${PREPARED}${Prisma.join(arms, " UNION ALL ")}`;

  const facts: TFact[] = [];
  const [snapshotRows, importRows, integrationRows, entryRows] = await Promise.all([snapshots, imports, integrations, entries]);
  for (const row of snapshotRows) {
    const key = row.personal ? PERSONAL_KEY : row.business_id ? businessKey(row.business_id) : null;
    if (!key) continue;
    const real = row.data_class === "real";
    facts.push({
      scope: key,
      domain: "cash",
      tier: real ? "live" : "periodic",
      source: { kind: "snapshot", integration_id: real ? row.integration_id : null, provider: real ? row.provider : null },
      at: toDate(row.at),
    });
  }
  for (const row of importRows) {
    for (const domain of ["cash", "expenses"] as const) {
      facts.push({
        scope: businessKey(row.business_id),
        domain,
        tier: "periodic",
        source: { kind: "import", integration_id: null, provider: null },
        at: toDate(row.at),
      });
    }
  }
  for (const row of integrationRows) {
    const domains =
      row.provider === GENERIC
        ? ([...(row.sent_revenue ? ["revenue"] : []), ...(row.sent_out ? ["expenses"] : [])] as TCoverageDomain[])
        : PROVIDER_DOMAINS[row.provider]!;
    for (const domain of domains) {
      facts.push({
        scope: row.business_id ? businessKey(row.business_id) : UNASSIGNED_KEY,
        domain,
        tier: "live",
        source: { kind: "integration", integration_id: row.id, provider: row.provider },
        at: toDate(row.at),
      });
    }
  }
  for (const row of entryRows) {
    const key = row.personal ? PERSONAL_KEY : businessKey(row.business_id!);
    for (const [domain, at] of [
      ["revenue", row.revenue_at],
      ["expenses", row.expenses_at],
    ] as const) {
      if (at === null) continue;
      facts.push({
        scope: key,
        domain,
        tier: "entries",
        source: { kind: "manual", integration_id: null, provider: null },
        at: toDate(at),
      });
    }
  }
  return facts.filter((fact) => wantsPersonal || fact.scope !== PERSONAL_KEY);
}

function toSource(fact: TFact, now: Date): TCoverageSource {
  return { ...fact.source, at: fact.at?.toISOString() ?? null, status: sourceStatus(fact.tier, fact.at, now) };
}

function newest(sources: readonly TCoverageSource[]): string | null {
  return sources.reduce<string | null>(
    (latest, s) => (s.at !== null && (latest === null || s.at > latest) ? s.at : latest),
    null,
  );
}

/** One domain of one scope: its best source. */
function domainOf(facts: readonly TFact[], now: Date): TDomainCoverage {
  const sources = facts.map((fact) => toSource(fact, now));
  return { status: bestStatus(sources.map((s) => s.status)), last_data_at: newest(sources), sources };
}

/** The worst domain with a source, else missing. */
function overallOf(domains: Partial<Record<TCoverageDomain, TDomainCoverage>>): TCoverageStatus {
  return worstStatus(
    Object.values(domains)
      .filter((d) => d.sources.length > 0)
      .map((d) => d.status),
  );
}

export type TScopeCoverage<D extends TCoverageDomain = TCoverageDomain> = {
  overall: TCoverageStatus;
  domains: Record<D, TDomainCoverage>;
};

function scopeCoverage<D extends TCoverageDomain>(
  facts: readonly TFact[],
  key: TScopeKey,
  domains: readonly D[],
  now: Date,
): TScopeCoverage<D> {
  const result = Object.fromEntries(
    domains.map((domain) => [
      domain,
      domainOf(
        facts.filter((f) => f.scope === key && f.domain === domain),
        now,
      ),
    ]),
  ) as Record<D, TDomainCoverage>;
  return { overall: overallOf(result), domains: result };
}

/** The owner's domain: the worst scope with a source in it; its sources are all of theirs. */
function ownerCoverage(facts: readonly TFact[], now: Date): TScopeCoverage {
  const scopes = [...new Set(facts.map((f) => f.scope))];
  const domains = Object.fromEntries(
    COVERAGE_DOMAINS.map((domain) => {
      const ofDomain = facts.filter((f) => f.domain === domain);
      const perScope = scopes
        .map((key) => ofDomain.filter((f) => f.scope === key))
        .filter((list) => list.length > 0)
        .map((list) => domainOf(list, now).status);
      const sources = ofDomain.map((fact) => toSource(fact, now));
      return [domain, { status: worstStatus(perScope), last_data_at: newest(sources), sources }];
    }),
  ) as Record<TCoverageDomain, TDomainCoverage>;
  return { overall: overallOf(domains), domains };
}

/** GET /v1/coverage's data. */
export async function getCoverageReport(db: TDbOrTx, day: TOwnerDay) {
  const facts = await loadFacts(db, day.ownerId, { kind: "owner" });
  const businesses = await db.business.findMany({
    where: { ownerId: day.ownerId },
    select: { id: true, name: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const owner = ownerCoverage(facts, day.now);
  return {
    as_of: day.now.toISOString(),
    overall: owner.overall,
    domains: owner.domains,
    businesses: businesses.map((b) => ({
      business_id: b.id,
      name: b.name,
      ...scopeCoverage(facts, businessKey(b.id), COVERAGE_DOMAINS, day.now),
    })),
    personal: scopeCoverage(facts, PERSONAL_KEY, PERSONAL_DOMAINS, day.now),
  };
}

/**
 * The coverage of one scope (a project: its business's), every domain it has; computed once per
 * request, scope and `knownAt` (request-memo.ts). With `knownAt`, as it stood then (loadFacts;
 * ages measured at `knownAt` when that is before now).
 */
export function scopeCoverageOf(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  options: { knownAt?: Date } = {},
): Promise<TScopeCoverage> {
  const scopeKey = scope.kind === "business" || scope.kind === "project" ? businessKey(scope.businessId) : scope.kind;
  const key = `coverage:${scopeKey}@${options.knownAt?.toISOString() ?? "now"}`;
  return oncePerRequest(db, day, key, () => computeScopeCoverage(db, day, scope, options.knownAt));
}

async function computeScopeCoverage(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, knownAt?: Date): Promise<TScopeCoverage> {
  const facts = await loadFacts(db, day.ownerId, scope, knownAt);
  const now = knownAt && knownAt < day.now ? knownAt : day.now;
  switch (scope.kind) {
    case "business":
    case "project":
      return scopeCoverage(facts, businessKey(scope.businessId), COVERAGE_DOMAINS, now);
    case "personal": {
      const personal = scopeCoverage(facts, PERSONAL_KEY, PERSONAL_DOMAINS, now);
      const none = (): TDomainCoverage => ({ status: "missing", last_data_at: null, sources: [] });
      return { overall: personal.overall, domains: { ...personal.domains, ads: none(), billing: none() } };
    }
    case "owner":
      return ownerCoverage(facts, now);
  }
}

/**
 * The envelope's `coverage` of a read model: `{ overall, <domain>: status }` for its domains
 * (its "Coverage:" list), overall = the worst of THOSE domains with a source, else missing.
 */
export async function envelopeCoverage<D extends TCoverageDomain>(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  domains: readonly D[],
): Promise<{ overall: TCoverageStatus } & Record<D, TCoverageStatus>> {
  const coverage = await scopeCoverageOf(db, day, scope);
  return envelopeOf(coverage, domains);
}

/** The envelope's coverage from a scope's coverage already computed (several read models in one answer). */
export function envelopeOf<D extends TCoverageDomain>(
  coverage: TScopeCoverage,
  domains: readonly D[],
): { overall: TCoverageStatus } & Record<D, TCoverageStatus> {
  const picked = domains.map((d) => coverage.domains[d]);
  const statuses = Object.fromEntries(domains.map((d) => [d, coverage.domains[d].status])) as Record<D, TCoverageStatus>;
  return { overall: worstStatus(picked.filter((d) => d.sources.length > 0).map((d) => d.status)), ...statuses };
}
