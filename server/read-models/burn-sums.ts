// K8's SQL half: the direction sums (in, out) of counted actuals over day windows of a scope,
// e.g. [R − 89, R] (burn.ts's burnWindow) for burn and runway. One query for several windows.
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { actualCountedSql, directionSql } from "./counted";
import { toBigInt } from "./display";
import { daySql } from "./period";
import { eventScopeSql, type TReadScope } from "./scope";

/** Σ in (in90) and Σ out (out90) of counted actuals for each window [from, to] of the scope, base minor units. */
export async function windowSums(db: TDbOrTx, ownerId: string, scope: TReadScope, windows: Array<{ from: string; to: string }>) {
  const first = windows.reduce((min, w) => (w.from < min ? w.from : min), windows[0]!.from);
  const last = windows.reduce((max, w) => (w.to > max ? w.to : max), windows[0]!.to);
  const columns = windows.map(
    (w, i) => Prisma.sql`
      COALESCE(SUM(e.base_amount_minor) FILTER (WHERE ${directionSql("e")} = 'in' AND e.occurred_on BETWEEN ${daySql(w.from)} AND ${daySql(w.to)}), 0)::text AS ${Prisma.raw(`in_${i}`)},
      COALESCE(SUM(e.base_amount_minor) FILTER (WHERE ${directionSql("e")} = 'out' AND e.occurred_on BETWEEN ${daySql(w.from)} AND ${daySql(w.to)}), 0)::text AS ${Prisma.raw(`out_${i}`)}`,
  );
  const [row] = await db.$queryRaw<Array<Record<string, unknown>>>`
    SELECT ${Prisma.join(columns, ", ")}
      FROM financial_events e
     WHERE ${eventScopeSql("e", ownerId, scope)} AND ${actualCountedSql("e")}
       AND e.occurred_on BETWEEN ${daySql(first)} AND ${daySql(last)}`;
  return windows.map((_, i) => ({ in90: toBigInt(row?.[`in_${i}`]), out90: toBigInt(row?.[`out_${i}`]) }));
}
