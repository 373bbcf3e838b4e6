// K8's SQL half: the direction sums (in, out) of counted actuals over day windows of a scope,
// e.g. [R − 89, R] (burn.ts's burnWindow) for burn and runway. One query for several windows.
// Each window also sums the forecast's run-rate out (§2.5: ad_spend, expense and refund out;
// recurring and planned costs are K7 commitments already).
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { actualMoneySql, actualUncountedSinceSql, directionSql, movesMoneySql } from "./counted";
import { toBigInt } from "./display";
import { daySql } from "./period";
import { eventScopeSql, type TReadScope } from "./scope";

/** The forecast's run-rate out (§2.5) over the row (or group) `alias` with type and direction: ad_spend, expense, refund out. */
export function runRateOutSql(alias: string): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`(${a}.type IN ('ad_spend', 'expense') OR (${a}.type = 'refund' AND ${a}.direction = 'out'))`;
}

/** Where a window's rows are: the scope's counted actuals that move money (K3, K4) with occurred_on in [first from, last to]. */
export function windowsWhereSql(ownerId: string, scope: TReadScope, windows: ReadonlyArray<{ from: string; to: string }>) {
  const first = windows.reduce((min, w) => (w.from < min ? w.from : min), windows[0]!.from);
  const last = windows.reduce((max, w) => (w.to > max ? w.to : max), windows[0]!.to);
  return Prisma.sql`${eventScopeSql("e", ownerId, scope)} AND ${actualMoneySql("e")}
       AND e.occurred_on BETWEEN ${daySql(first)} AND ${daySql(last)}`;
}

/**
 * The parts of a scan over the windows' counted actuals (rows `e` of financial_events), each a
 * WHERE: now, one part; as known at `knownAt` (the daily brief), two: the rows counted now that
 * existed then (still index-only on financial_events_owner_day_idx) and the few that counted
 * then and stopped since (financial_events_uncounted_idx). A sum runs over each part on its own
 * and adds them: grouped over a UNION of both, PostgreSQL cannot estimate the groups and sorts
 * 118,000 rows on disk instead of hashing them (bench read, 1,000,000 events).
 */
export function actualPartsSql(
  ownerId: string,
  scope: TReadScope,
  windows: ReadonlyArray<{ from: string; to: string }>,
  knownAt?: Date,
): Prisma.Sql[] {
  const where = windowsWhereSql(ownerId, scope, windows);
  if (!knownAt) return [where];
  const first = windows.reduce((min, w) => (w.from < min ? w.from : min), windows[0]!.from);
  const last = windows.reduce((max, w) => (w.to > max ? w.to : max), windows[0]!.to);
  return [
    Prisma.sql`${where} AND e.created_at < ${knownAt}`,
    Prisma.sql`${eventScopeSql("e", ownerId, scope)} AND ${actualUncountedSinceSql("e", knownAt)} AND ${movesMoneySql("e")}
         AND e.occurred_on BETWEEN ${daySql(first)} AND ${daySql(last)}`,
  ];
}

/** The columns of financial_events a FROM of actualRowsSql offers when it is known at an instant. */
const KNOWN_AT_COLUMNS = Prisma.raw(
  ["id", "business_id", "type", "direction", "amount_minor", "currency", "base_amount_minor", "fx_rate", "fx_as_of", "fx_source"]
    .concat(["occurred_on", "created_at", "description"])
    .map((column) => `e.${column}`)
    .join(", "),
);

/**
 * The FROM of a bounded list over the windows' counted actuals (the brief's largest of a day),
 * rows aliased `e`: `financial_events e WHERE …`, or as known at `knownAt` the UNION of
 * actualPartsSql's parts (with the columns of KNOWN_AT_COLUMNS only).
 */
export function actualRowsSql(
  ownerId: string,
  scope: TReadScope,
  windows: ReadonlyArray<{ from: string; to: string }>,
  knownAt?: Date,
): Prisma.Sql {
  const parts = actualPartsSql(ownerId, scope, windows, knownAt);
  if (parts.length === 1) return Prisma.sql`financial_events e WHERE ${parts[0]!}`;
  const selects = parts.map((where) => Prisma.sql`SELECT ${KNOWN_AT_COLUMNS} FROM financial_events e WHERE ${where}`);
  return Prisma.sql`(${Prisma.join(selects, " UNION ALL ")}) e`;
}

/**
 * Σ in (in90), Σ out (out90) and Σ run-rate out (runRateOut) of counted actuals for each window
 * [from, to] of the scope, base minor units.
 */
export async function windowSums(
  db: TDbOrTx,
  ownerId: string,
  scope: TReadScope,
  windows: ReadonlyArray<{ from: string; to: string }>,
) {
  const sum = (filter: Prisma.Sql, name: string) =>
    Prisma.sql`COALESCE(SUM(e.base_amount_minor) FILTER (WHERE ${filter}), 0)::text AS ${Prisma.raw(name)}`;
  const columns = windows.flatMap((w, i) => {
    const inWindow = Prisma.sql`e.occurred_on BETWEEN ${daySql(w.from)} AND ${daySql(w.to)}`;
    return [
      sum(Prisma.sql`${directionSql("e")} = 'in' AND ${inWindow}`, `in_${i}`),
      sum(Prisma.sql`${directionSql("e")} = 'out' AND ${inWindow}`, `out_${i}`),
      sum(Prisma.sql`${runRateOutSql("e")} AND ${inWindow}`, `rate_out_${i}`),
    ];
  });
  const [row] = await db.$queryRaw<Array<Record<string, unknown>>>`
    SELECT ${Prisma.join(columns, ", ")}
      FROM financial_events e
     WHERE ${windowsWhereSql(ownerId, scope, windows)}`;
  return windows.map((_, i) => ({
    in90: toBigInt(row?.[`in_${i}`]),
    out90: toBigInt(row?.[`out_${i}`]),
    runRateOut: toBigInt(row?.[`rate_out_${i}`]),
  }));
}
