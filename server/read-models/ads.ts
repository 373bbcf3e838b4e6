// Ads (pinned-wave2 §2.8): spend per ad account and campaign over a period, for the whole owner
// or one business. An account is (payload.platform, payload.account_id, business_id) of the
// counted actual ad_spend events; impressions and clicks come from payload.metrics.
//
//   one GROUPING SETS scan of the period's ad_spend: per account (spend, metrics), per account
//   and currency, per account and integration (the latest event's), per campaign, per account
//   and day, per source type (provenance); then, for the accounts found, their integrations' advertising signals of the
//   period (a bounded list: ≤ 20 per account plus each campaign's newest) and their budget
//   changes (ads-budget-changes.ts).
//
// display_currency: the total spend is converted once (toDisplay); each listed amount item by
// item at the same rate (breakdowns add up exactly in the base only); cpc from the converted
// spend, so it is in the display currency.
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { findAccountBudgetChanges, type TAdsAccountKey } from "./ads-budget-changes";
import { clickThroughRate, costPerClick, dailySeries } from "./ads-figures";
import { AD_SIGNAL_CODES, ADS_COVERAGE_DOMAINS, ADS_SIGNALS_LIMIT, UNNAMED_PLATFORM, type TAdsResponse } from "./ads.schema";
import { actualCountedSql } from "./counted";
import { envelopeCoverage } from "./coverage";
import { displayList, lateRateSql, snapshotConversionOf, staleSql, toBigInt, toDisplay, toMinor } from "./display";
import { dayEndExclusive, daySql, type TOwnerDay } from "./period";
import { LOW_CONFIDENCE_BELOW, type TProvenanceSummary } from "./read-model.schema";
import { eventScopeSql, type TReadScope } from "./scope";
import { zoneDayStart } from "../../lib/days";

type TAdsScope = Extract<TReadScope, { kind: "business" } | { kind: "owner" }>;
type TAdSignalCode = (typeof AD_SIGNAL_CODES)[number];

type TGroupRow = {
  set: "account" | "campaign" | "day" | "currency" | "integration" | "source" | "rate";
  platform: string | null;
  account_id: string | null;
  business_id: string | null;
  campaign_id: string | null;
  date: string | null;
  source_type: string | null;
  spend: unknown;
  impressions: unknown;
  clicks: unknown;
  count: unknown;
  currency: string | null;
  integration_id: string | null;
  last_on: string | null;
  last_at: Date | null;
  min_confidence: string | null;
  low_confidence: unknown;
  /** The rate set's: one frozen rate (currency, rate, day, source), as snapshotConversions answers it. */
  rate: string | null;
  rate_as_of: string | null;
  rate_source: string | null;
  rate_stale: boolean | null;
  rate_weight: unknown;
};

type TSignalRow = {
  id: string;
  integration_id: string;
  business_id: string | null;
  account_id: string | null;
  campaign_id: string | null;
  code: TAdSignalCode;
  severity: "info" | "warning" | "critical";
  occurred_at: Date;
  ref: unknown;
  message: string | null;
};

/**
 * A count from payload.metrics: a whole non-negative number (or its digits as a string), else
 * 0. Integrations send JSON numbers; a generic one may send anything, which must not fail the read.
 */
function metricSql(key: "impressions" | "clicks"): Prisma.Sql {
  const value = Prisma.raw(`e.payload->'metrics'->>'${key}'`);
  return Prisma.sql`CASE WHEN ${value} ~ '^[0-9]{1,15}$' THEN (${value})::bigint ELSE 0 END`;
}

const accountKey = (platform: string, accountId: string | null, businessId: string) =>
  JSON.stringify([platform, accountId, businessId]);

export async function getAds(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TAdsScope,
  query: { from: string; to: string; displayCurrency?: string },
): Promise<TAdsResponse> {
  const { from, to } = query;
  const inScope = Prisma.sql`${eventScopeSql("e", day.ownerId, scope)} AND e.type = 'ad_spend' AND ${actualCountedSql("e")}
    AND e.occurred_on BETWEEN ${daySql(from)} AND ${daySql(to)}`;
  // Plain sums and maxima only (no DISTINCT or ordered aggregate), so PostgreSQL can hash every
  // set in one pass over the rows (bench read: sorting four times cost most of the query). The
  // frozen rates behind the spend (the envelope's fx: snapshotConversions' groups) are one more
  // set of the same pass, not a second scan of the period's ad_spend.
  const groups = db.$queryRaw<TGroupRow[]>`
    SELECT CASE WHEN GROUPING(r.fx_rate) = 0 THEN 'rate'
                WHEN GROUPING(r.source_type) = 0 THEN 'source'
                WHEN GROUPING(r.campaign_id) = 0 THEN 'campaign'
                WHEN GROUPING(r.occurred_on) = 0 THEN 'day'
                WHEN GROUPING(r.currency) = 0 THEN 'currency'
                WHEN GROUPING(r.integration_id) = 0 THEN 'integration'
                ELSE 'account' END AS set,
           r.platform, r.account_id, r.business_id::text AS business_id, r.campaign_id,
           to_char(r.occurred_on, 'YYYY-MM-DD') AS date, r.source_type, r.currency, r.integration_id::text AS integration_id,
           SUM(r.base_amount_minor)::text AS spend, SUM(r.impressions)::text AS impressions, SUM(r.clicks)::text AS clicks,
           COUNT(*)::text AS count,
           to_char(MAX(r.occurred_on), 'YYYY-MM-DD') AS last_on, MAX(r.created_at) AS last_at,
           MIN(r.confidence)::text AS min_confidence,
           COUNT(*) FILTER (WHERE r.confidence < ${LOW_CONFIDENCE_BELOW})::text AS low_confidence,
           r.fx_rate::text AS rate, to_char(r.fx_as_of, 'YYYY-MM-DD') AS rate_as_of, r.fx_source AS rate_source,
           ${staleSql(lateRateSql("r"), Prisma.sql`r.fx_as_of`)} AS rate_stale, SUM(abs(r.base_amount_minor))::text AS rate_weight
      FROM (SELECT COALESCE(e.payload->>'platform', ${UNNAMED_PLATFORM}) AS platform, e.payload->>'account_id' AS account_id,
                   e.business_id, e.payload->>'campaign_id' AS campaign_id, e.occurred_on, e.source_type,
                   e.currency::text AS currency, e.integration_id, e.created_at, e.base_amount_minor, e.confidence,
                   e.fx_rate, e.fx_as_of, e.fx_source,
                   ${metricSql("impressions")} AS impressions, ${metricSql("clicks")} AS clicks
              FROM financial_events e
             WHERE ${inScope}) r
     GROUP BY GROUPING SETS ((r.platform, r.account_id, r.business_id),
                             (r.platform, r.account_id, r.business_id, r.campaign_id),
                             (r.platform, r.account_id, r.business_id, r.occurred_on),
                             (r.platform, r.account_id, r.business_id, r.currency),
                             (r.platform, r.account_id, r.business_id, r.integration_id),
                             (r.source_type),
                             (r.currency, r.fx_rate, r.fx_as_of, r.fx_source))`;
  const [rows, coverage] = await Promise.all([groups, envelopeCoverage(db, day, scope, ADS_COVERAGE_DOMAINS)]);
  // Rows without a frozen rate count in the sums and have no conversion.
  const snapshots = rows
    .filter((r) => r.set === "rate" && r.rate !== null)
    .map((r) =>
      snapshotConversionOf({
        currency: r.currency!,
        rate: r.rate!,
        as_of: r.rate_as_of!,
        source: r.rate_source!,
        stale: r.rate_stale === true,
        weight: r.rate_weight,
      }),
    );

  const keyOf = (r: TGroupRow) => accountKey(r.platform!, r.account_id, r.business_id!);
  const accountRows = rows
    .filter((r) => r.set === "account")
    .sort(
      (a, b) =>
        compareBigDesc(toBigInt(a.spend), toBigInt(b.spend)) ||
        a.platform!.localeCompare(b.platform!) ||
        compareNullsLast(a.account_id, b.account_id) ||
        a.business_id!.localeCompare(b.business_id!),
    );
  const campaignsOf = groupBy(
    rows.filter((r) => r.set === "campaign" && r.campaign_id !== null),
    keyOf,
  );
  const daysOf = groupBy(
    rows.filter((r) => r.set === "day"),
    keyOf,
  );
  const currenciesOf = groupBy(
    rows.filter((r) => r.set === "currency"),
    keyOf,
  );
  // The integration of the account's latest event: the latest day, then the latest recorded.
  const integrationOf = new Map(
    [
      ...groupBy(
        rows.filter((r) => r.set === "integration" && r.integration_id !== null),
        keyOf,
      ),
    ].map(([key, list]) => [
      key,
      list.reduce((best, r) =>
        r.last_on! > best.last_on! ||
        (r.last_on === best.last_on && new Date(r.last_at!).getTime() > new Date(best.last_at!).getTime())
          ? r
          : best,
      ).integration_id,
    ]),
  );
  const accounts: TAdsAccountKey[] = accountRows.map((r) => ({
    key: keyOf(r),
    platform: r.platform!,
    accountId: r.account_id,
    businessId: r.business_id!,
    integrationId: integrationOf.get(keyOf(r)) ?? null,
  }));

  const integrationIds = [...new Set(accounts.flatMap((a) => (a.integrationId ? [a.integrationId] : [])))];
  const [signals, integrations, budgetChanges] = await Promise.all([
    loadSignals(db, day, integrationIds, from, to),
    integrationIds.length
      ? db.integration.findMany({
          where: { ownerId: day.ownerId, id: { in: integrationIds } },
          select: { id: true, status: true },
        })
      : Promise.resolve([]),
    findAccountBudgetChanges(db, day.ownerId, accounts),
  ]);
  const statusOf = new Map(integrations.map((i) => [i.id, i.status]));

  // Amounts: the total once, the listed ones item by item (account, its campaigns, its days).
  const totalBase = accountRows.reduce((sum, r) => sum + toBigInt(r.spend), 0n);
  const shown = await toDisplay(db, day, {
    displayCurrency: query.displayCurrency,
    components: { spend: totalBase },
    conversions: snapshots,
  });
  const perAccount = accountRows.map((r) => {
    const campaigns = (campaignsOf.get(keyOf(r)) ?? []).sort(
      (a, b) => compareBigDesc(toBigInt(a.spend), toBigInt(b.spend)) || a.campaign_id!.localeCompare(b.campaign_id!),
    );
    const days = dailySeries(from, to, new Map((daysOf.get(keyOf(r)) ?? []).map((d) => [d.date!, toBigInt(d.spend)])), 0n);
    return { row: r, campaigns, days };
  });
  const listed = await displayList(
    db,
    day,
    query.displayCurrency,
    perAccount.flatMap(({ row, campaigns, days }) => [
      toBigInt(row.spend),
      ...campaigns.map((c) => toBigInt(c.spend)),
      ...days.map((d) => d.value),
    ]),
  );
  let cursor = 0;
  const next = () => listed[cursor++]!;

  let impressionsTotal = 0n;
  let clicksTotal = 0n;
  const accountList = perAccount.map(({ row, campaigns, days }, index) => {
    const account = accounts[index]!;
    const spend = next();
    const impressions = toBigInt(row.impressions);
    const clicks = toBigInt(row.clicks);
    impressionsTotal += impressions;
    clicksTotal += clicks;
    const own = signals.filter(
      (s) =>
        s.integration_id === account.integrationId &&
        (s.business_id === null || s.business_id === account.businessId) &&
        (s.account_id === null || s.account_id === account.accountId),
    );
    const cpc = costPerClick(spend, clicks);
    // In the order they were listed: the campaigns, then the days.
    const at = `accounts.${index}`;
    const campaignList = campaigns.map((c, i) => {
      const last = own.find((s) => s.campaign_id === c.campaign_id);
      return {
        campaign_id: c.campaign_id!,
        spend_minor: toMinor(next(), `${at}.campaigns.${i}.spend_minor`),
        impressions: toMinor(toBigInt(c.impressions), `${at}.campaigns.${i}.impressions`),
        clicks: toMinor(toBigInt(c.clicks), `${at}.campaigns.${i}.clicks`),
        last_signal: last ? { code: last.code, occurred_at: last.occurred_at.toISOString() } : null,
      };
    });
    const daily = days.map((d, i) => ({ date: d.date, spend_minor: toMinor(next(), `${at}.daily.${i}.spend_minor`) }));
    return {
      platform: account.platform,
      account_id: account.accountId,
      business_id: account.businessId,
      integration_id: account.integrationId,
      integration_status: account.integrationId ? integrationStatus(statusOf.get(account.integrationId)) : null,
      spend_minor: toMinor(spend, `${at}.spend_minor`),
      currencies: (currenciesOf.get(account.key) ?? []).map((c) => c.currency!).sort(),
      impressions: toMinor(impressions, `${at}.impressions`),
      clicks: toMinor(clicks, `${at}.clicks`),
      ctr: clickThroughRate(clicks, impressions),
      cpc_minor: cpc === null ? null : toMinor(cpc, `${at}.cpc_minor`),
      daily,
      campaigns: campaignList,
      signals: own.slice(0, ADS_SIGNALS_LIMIT).map((s) => ({
        code: s.code,
        severity: s.severity,
        occurred_at: s.occurred_at.toISOString(),
        ref: refOf(s.ref),
        message: s.message,
      })),
      budget_changes: budgetChanges.get(account.key) ?? [],
    };
  });

  const sourceRows = rows.filter((r) => r.set === "source");
  const eventsCounted = sourceRows.reduce((sum, r) => sum + Number(r.count), 0);
  const confidences = sourceRows.flatMap((r) => (r.min_confidence === null ? [] : [Number(r.min_confidence)]));
  const provenance: TProvenanceSummary = {
    events: eventsCounted,
    by_source_type: Object.fromEntries(sourceRows.map((r) => [r.source_type!, Number(r.count)])),
    min_confidence: confidences.length > 0 ? Math.min(...confidences) : null,
    low_confidence_events: sourceRows.reduce((sum, r) => sum + Number(r.low_confidence), 0),
  };

  const totalSpend = shown.amounts.spend;
  const totalCpc = costPerClick(totalSpend, clicksTotal);
  return {
    data: {
      currency: shown.currency,
      base_currency: shown.baseCurrency,
      from,
      to,
      totals: {
        spend_minor: toMinor(totalSpend, "totals.spend_minor"),
        impressions: toMinor(impressionsTotal, "totals.impressions"),
        clicks: toMinor(clicksTotal, "totals.clicks"),
        ctr: clickThroughRate(clicksTotal, impressionsTotal),
        cpc_minor: totalCpc === null ? null : toMinor(totalCpc, "totals.cpc_minor"),
      },
      accounts: accountList,
    },
    fx: shown.fx,
    coverage,
    provenance_summary: provenance,
  };
}

/**
 * The advertising signals of `integrationIds` that occurred in [from, to] (owner-timezone days),
 * newest first: per (integration, business, ref.account_id) the newest ADS_SIGNALS_LIMIT, plus
 * the newest of each campaign, so every account's list and every campaign's last signal is
 * complete while the rows stay bounded.
 */
async function loadSignals(
  db: TDbOrTx,
  day: TOwnerDay,
  integrationIds: readonly string[],
  from: string,
  to: string,
): Promise<TSignalRow[]> {
  if (integrationIds.length === 0) return [];
  const start = zoneDayStart(day.timezone, from);
  const end = dayEndExclusive(day.timezone, to);
  return db.$queryRaw<TSignalRow[]>`
    SELECT x.id, x.integration_id, x.business_id, x.account_id, x.campaign_id, x.code, x.severity, x.occurred_at, x.ref, x.message
      FROM (SELECT s.id::text AS id, s.integration_id::text AS integration_id, s.business_id::text AS business_id,
                   s.ref->>'account_id' AS account_id, s.ref->>'campaign_id' AS campaign_id, s.code, s.severity,
                   s.occurred_at, s.ref, s.message,
                   row_number() OVER (PARTITION BY s.integration_id, s.business_id, s.ref->>'account_id'
                                      ORDER BY s.occurred_at DESC, s.id DESC) AS n_account,
                   row_number() OVER (PARTITION BY s.integration_id, s.business_id, s.ref->>'account_id', s.ref->>'campaign_id'
                                      ORDER BY s.occurred_at DESC, s.id DESC) AS n_campaign
              FROM integration_signals s
             WHERE s.owner_id = ${day.ownerId}::uuid
               AND s.integration_id IN (${Prisma.join(integrationIds.map((id) => Prisma.sql`${id}::uuid`))})
               AND s.code IN (${Prisma.join([...AD_SIGNAL_CODES])})
               AND s.occurred_at >= ${start} AND s.occurred_at < ${end}) x
     WHERE x.n_account <= ${ADS_SIGNALS_LIMIT} OR (x.campaign_id IS NOT NULL AND x.n_campaign = 1)
     ORDER BY x.occurred_at DESC, x.id DESC`;
}

const INTEGRATION_STATUSES = ["pending", "active", "disconnected"] as const;

/** An integration's status as the answer names it (a value it does not know: null). */
function integrationStatus(status: string | undefined): (typeof INTEGRATION_STATUSES)[number] | null {
  return INTEGRATION_STATUSES.find((s) => s === status) ?? null;
}

/** A signal's stored ref as the map of strings it was sent as ({} when none). */
function refOf(value: unknown): Record<string, string> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

function compareBigDesc(a: bigint, b: bigint): number {
  return a === b ? 0 : a > b ? -1 : 1;
}

function compareNullsLast(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a.localeCompare(b);
}
