// K8's SQL half: the direction sums (in, out) of counted actuals over day windows of a scope,
// e.g. [R − 89, R] (burn.ts's burnWindow) for burn and runway. One query for several windows.
// Each window also sums the forecast's run-rate out (§2.5: ad_spend, expense and refund out;
// recurring and planned costs are K7 commitments already).
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { actualCountedSql, directionSql } from "./counted";
import { toBigInt } from "./display";
import { daySql } from "./period";
import { eventScopeSql, type TReadScope } from "./scope";

/** The forecast's run-rate out (§2.5) over the row (or group) `alias` with type and direction: ad_spend, expense, refund out. */
export function runRateOutSql(alias: string): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`(${a}.type IN ('ad_spend', 'expense') OR (${a}.type = 'refund' AND ${a}.direction = 'out'))`;
}

/** Where a window's rows are: the scope's counted actuals with occurred_on in [first from, last to]. */
export function windowsWhereSql(ownerId: string, scope: TReadScope, windows: ReadonlyArray<{ from: string; to: string }>) {
  const first = windows.reduce((min, w) => (w.from < min ? w.from : min), windows[0]!.from);
  const last = windows.reduce((max, w) => (w.to > max ? w.to : max), windows[0]!.to);
  return Prisma.sql`${eventScopeSql("e", ownerId, scope)} AND ${actualCountedSql("e")}
       AND e.occurred_on BETWEEN ${daySql(first)} AND ${daySql(last)}`;
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
