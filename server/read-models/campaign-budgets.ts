// What agents (and the owner) commit through ad budget changes (pinned-wave3 §1.3): the reads
// behind K7's ad budget commitments. A campaign has a known daily budget from the effective_on
// of its planned or applied changes on (a failed one never counts); which change holds on each
// day is commitments-calendar.ts's campaignBudgetDays. The campaigns' own ad_spend then leaves
// the run rate's T_out, so their spend does not count twice.
//
// Ad budget changes belong to a business: a business scope reads its own, the owner all of
// them; personal and project scopes have none.
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { PREPARED } from "../db/prepared-statements";
import type { TOwnerDay } from "../shared/owner-today";
import { actualCountedSql } from "./counted";
import { toBigInt } from "./display";
import type { TSpan } from "./flows";
import { daySql } from "./period";
import { eventScopeSql, type TReadScope } from "./scope";

export type TCampaignBudgetChange = {
  id: string;
  integrationId: string;
  campaignId: string;
  dailyBudgetMinor: bigint;
  currency: string;
  effectiveOn: string;
  createdAt: Date;
};

type TChangeRow = {
  id: string;
  integration_id: string;
  campaign_id: string;
  amount: string;
  currency: string;
  effective_on: string;
  created_at: Date;
};

/** ad_budget_changes row `c` in the scope, or null when the scope holds none. */
function changeScopeSql(ownerId: string, scope: TReadScope): Prisma.Sql | null {
  if (scope.kind === "owner") return Prisma.sql`c.owner_id = ${ownerId}::uuid`;
  if (scope.kind === "business") return Prisma.sql`c.owner_id = ${ownerId}::uuid AND c.business_id = ${scope.businessId}::uuid`;
  return null;
}

/**
 * The planned and applied changes that can hold on a day of [today, end], in one statement: of
 * those effective by today only each campaign's newest (it holds over every older one from
 * today on), and every one effective after today up to `end`. With `knownAt`, the changes
 * written before it (the daily brief; their status is the current one, as a subscription's is).
 */
export async function campaignBudgetChanges(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  end: string,
  knownAt?: Date,
): Promise<TCampaignBudgetChange[]> {
  const inScope = changeScopeSql(day.ownerId, scope);
  if (inScope === null || end < day.today) return [];
  const where = Prisma.sql`${inScope} AND c.status IN ('planned', 'applied')
    ${knownAt ? Prisma.sql`AND c.created_at < ${knownAt}` : Prisma.empty}`;
  const columns = Prisma.sql`c.id::text AS id, c.integration_id::text AS integration_id, c.campaign_id,
    c.new_daily_budget_minor::text AS amount, c.currency::text AS currency,
    to_char(c.effective_on, 'YYYY-MM-DD') AS effective_on, c.created_at`;
  const rows = await db.$queryRaw<TChangeRow[]>`${PREPARED}
    SELECT * FROM (
      (SELECT DISTINCT ON (c.integration_id, c.campaign_id) ${columns}
         FROM ad_budget_changes c
        WHERE ${where} AND c.effective_on <= ${daySql(day.today)}
        ORDER BY c.integration_id, c.campaign_id, c.created_at DESC, c.id DESC)
      UNION ALL
      (SELECT ${columns}
         FROM ad_budget_changes c
        WHERE ${where} AND c.effective_on > ${daySql(day.today)} AND c.effective_on <= ${daySql(end)})
    ) changes`;
  return rows.map((row) => ({
    id: row.id,
    integrationId: row.integration_id,
    campaignId: row.campaign_id,
    dailyBudgetMinor: toBigInt(row.amount),
    currency: row.currency,
    effectiveOn: row.effective_on,
    createdAt: row.created_at,
  }));
}

/**
 * Σ base of the scope's counted ad_spend over `span` of the campaigns with a known daily budget
 * on some day up to `end` (a planned or applied change effective by then: they are commitments),
 * matched by integration and payload.campaign_id: what the run rate's T_out leaves out. One
 * statement, independent of the commitments' read so it runs beside it; with no such campaign
 * its one-time filter skips the scan of the events altogether.
 */
export async function campaignAdSpend(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, span: TSpan, end: string): Promise<bigint> {
  const inScope = changeScopeSql(day.ownerId, scope);
  if (inScope === null || end < day.today) return 0n;
  // Prepared: planned for financial_events' many indexes once per connection, not per request.
  const [row] = await db.$queryRaw<Array<{ spend: string | null }>>`${PREPARED}
    WITH budgeted AS (
      SELECT DISTINCT c.integration_id, c.campaign_id
        FROM ad_budget_changes c
       WHERE ${inScope} AND c.status IN ('planned', 'applied') AND c.effective_on <= ${daySql(end)})
    SELECT SUM(e.base_amount_minor)::text AS spend
      FROM financial_events e
     WHERE EXISTS (SELECT 1 FROM budgeted)
       AND ${eventScopeSql("e", day.ownerId, scope)} AND ${actualCountedSql("e")} AND e.type = 'ad_spend'
       AND e.occurred_on BETWEEN ${daySql(span.from)} AND ${daySql(span.to)}
       AND (e.integration_id, e.payload->>'campaign_id') IN (SELECT integration_id, campaign_id FROM budgeted)`;
  return toBigInt(row?.spend ?? 0);
}
