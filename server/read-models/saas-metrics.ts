// SaaS metrics (pinned-wave2 §2.7) of a business over [from, to], from its counted
// subscription_change events (amount_minor = the MRR delta; payload customer_id,
// subscription_id, change, mrr_minor, plan, mrr_remainder_minor).
//
//   key        (integration_id, payload.subscription_id), else (integration_id, customer_id); and
//              the currency (decided: a subscription's MRR is a sum in one currency)
//   MRR_k(D)   mrr_minor of the key's latest event with occurred_on ≤ D (ties created_at, id),
//              else the running Σ of its deltas; MRR(D) = Σ positive MRR_k(D); S = from − 1, E = to
//   movements  by change (churn → churned; missing or unknown: delta ≥ 0 expansion, else
//              contraction); new, expansion, reactivation = Σ deltas; contraction, churned = |Σ|
//   customers  customer_id within its integration (a key without one is its own customer:
//              (integration_id, customer_ref, lone_ref) below);
//              active at D: one of its keys has MRR_k(D) > 0
//
// One statement computes every sum, from the payload's fields as stored generated columns of
// financial_events (migrations saas_change_columns, saas_key_order), read index-only and in the
// window's order (financial_events_saas_levels_idx: by key, then day; no sort of the history):
// a window over each key's events gives its level after each event and the day of its next
// one, so the level at a day D is the row with occurred_on ≤ D < next. The period's points (S
// and each month's end) a row covers are an index range [lo, hi) by width_bucket over the
// sorted points: MRR at each point is a running sum of each range's start less its end (no
// join of rows to points: at 1,000,000 events that filtered 256,000 pairs). The rows covering
// S or E give ARR, retention and customers; whether a customer was active at S is a window
// over them, not a join (the planner cannot estimate CTE rows, and a nested loop over two
// CTEs of thousands took seconds). The customer groupings compare by bytes (COLLATE "C": their
// order means nothing, a locale's comparison only costs).
// Sums are per currency, each converted once to the base at today's rate (K5, "SaaS: §2.7");
// `consistent` is judged on those base figures (pinned-wave3 §1.4), then the components go to
// the display currency once; net_new, ARPA and the rates are recomputed from the converted
// components, and display_rounding_minor says how far the converted movements miss net_new.
import { divideHalfEven } from "../fx/money";
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { addDays, zoneDayStart } from "../../lib/days";
import { actualCountedSql } from "./counted";
import { envelopeCoverage } from "./coverage";
import { currentAmounts, displayList, toBigInt, toDisplay, toMinor, type TCurrentItem } from "./display";
import { dayEndExclusive, daySql, type TOwnerDay } from "./period";
import { LOW_CONFIDENCE_BELOW, ratio, type TProvenanceSummary } from "./read-model.schema";
import { movementAmounts, monthsOf, netNew, NO_DELTAS, type TDeltaSums } from "./saas-metrics-math";
import {
  LATEST_MOVEMENTS,
  MOVEMENT_KINDS,
  SAAS_COVERAGE_DOMAINS,
  SAAS_SIGNAL_CODES,
  type TMovementKind,
  type TSaasMovement,
} from "./saas-metrics.schema";
import { eventScopeSql, type TReadScope } from "./scope";

type TBusinessScope = Extract<TReadScope, { kind: "business" }>;

/** A payload field as text (NULL when absent, JSON null or empty). */
function payloadTextSql(alias: string, field: string): Prisma.Sql {
  if (!/^[a-z]+$/.test(alias) || !/^[a-z_]+$/.test(field)) throw new Error(`Not a payload field: ${alias}.${field}`);
  // Literals: a bound key would leave `->>` ambiguous (text or int).
  return Prisma.raw(`NULLIF(${alias}.payload ->> '${field}', '')`);
}

/**
 * The counted subscription_change rows the index financial_events_saas_levels_idx holds (its
 * predicate: references of at most 1,000 bytes), and the others (migration saas_change_columns).
 */
const SHORT_REFS = Prisma.raw(
  "(e.saas_subscription_ref IS NULL OR octet_length(e.saas_subscription_ref) <= 1000) AND (e.saas_customer_ref IS NULL OR octet_length(e.saas_customer_ref) <= 1000)",
);
const LONG_REFS = Prisma.raw("(octet_length(e.saas_subscription_ref) > 1000 OR octet_length(e.saas_customer_ref) > 1000)");

/**
 * What the statement reads of a subscription_change row `e`: columns of financial_events_saas_levels_idx
 * only. The key's parts as stored (the window partitions by them in the index's order and
 * collation: it reads the rows presorted); currency and the references the later groupings
 * compare as bytes (COLLATE "C").
 */
const EVENT_COLUMNS = Prisma.raw(`e.occurred_on, e.created_at, e.id, e.amount_minor AS delta, e.source_type, e.confidence,
             e.integration_id, e.currency AS key_currency, e.saas_subscription_ref AS key_subscription_ref,
             e.saas_key_customer_ref AS key_customer_ref, e.currency::text COLLATE "C" AS currency,
             e.saas_customer_ref COLLATE "C" AS customer_ref,
             (CASE WHEN e.saas_customer_ref IS NULL THEN e.saas_subscription_ref END) COLLATE "C" AS lone_ref,
             e.saas_mrr_minor AS mrr, e.saas_mrr_remainder_minor AS remainder, e.saas_change AS change`);

type TSumRow = {
  set:
    | "mrr_from"
    | "mrr_until"
    | "arr"
    | "retained"
    | "move"
    | "active_start"
    | "active_end"
    | "churned"
    | "new"
    | "source"
    | "long_refs";
  d: string | null;
  currency: string | null;
  change: string | null;
  amount: string | null;
  n: string | null;
  n2: string | null;
};

type TMovementRow = {
  id: string;
  occurred_on: string;
  customer_id: string | null;
  subscription_id: string | null;
  change: TMovementKind;
  amount_minor: unknown;
  mrr_minor: unknown;
  currency: string;
  plan: string | null;
};

export async function getSaasMetrics(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TBusinessScope,
  query: { from: string; to: string; displayCurrency?: string },
) {
  const { from, to } = query;
  const start = addDays(from, -1);
  const months = monthsOf(from, to);
  // S, then each month's last day; the last is E = to.
  const points = [start, ...months.map((m) => m.to)];
  const changes = Prisma.sql`${eventScopeSql("e", day.ownerId, scope)} AND e.type = 'subscription_change' AND ${actualCountedSql("e")}`;

  // The points as a sorted array: width_bucket(x, P) = how many points are ≤ x.
  const pointsSql = Prisma.sql`ARRAY[${Prisma.join(points.map((p) => daySql(p)))}]::date[]`;
  const lastPoint = points.length;

  const upTo = Prisma.sql`${changes} AND e.occurred_on <= ${daySql(to)}`;
  const shortRows = Prisma.sql`SELECT ${EVENT_COLUMNS} FROM financial_events e WHERE ${upTo} AND ${SHORT_REFS}`;
  const longRows = Prisma.sql`SELECT ${EVENT_COLUMNS} FROM financial_events e WHERE ${upTo} AND ${LONG_REFS}`;
  const sumsOver = (events: Prisma.Sql) => db.$queryRaw<TSumRow[]>`
    WITH ev AS (${events}),
    lv AS MATERIALIZED (
      SELECT occurred_on, currency, delta, source_type, confidence, remainder, change,
             integration_id, customer_ref, lone_ref,
             COALESCE(mrr, SUM(delta) OVER w) AS level,
             width_bucket(occurred_on - 1, ${pointsSql}) AS lo,
             COALESCE(width_bucket(LEAD(occurred_on) OVER w - 1, ${pointsSql}), ${lastPoint}::int) AS hi
        FROM ev
      WINDOW w AS (PARTITION BY integration_id, key_currency, key_subscription_ref, key_customer_ref
                   ORDER BY occurred_on, created_at, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
    ),
    ends AS MATERIALIZED (
      SELECT currency, level, remainder, at_start, at_end, integration_id, customer_ref, lone_ref,
             bool_or(level > 0 AND at_start) OVER (PARTITION BY integration_id, customer_ref, lone_ref) AS customer_at_start
        FROM (SELECT currency, level, remainder, integration_id, customer_ref, lone_ref,
                     lo = 0 AND hi > 0 AS at_start, hi = ${lastPoint}::int AS at_end
                FROM lv) x
       WHERE at_start OR at_end
    ),
    cust AS MATERIALIZED (
      SELECT bool_or(level > 0 AND at_start) AS at_start, bool_or(level > 0 AND at_end) AS at_end
        FROM ends GROUP BY integration_id, customer_ref, lone_ref
    )
    SELECT 'mrr_from' AS set, lo::text AS d, currency, NULL AS change, SUM(level)::text AS amount, NULL AS n, NULL AS n2
      FROM lv WHERE hi > lo AND level > 0 GROUP BY lo, currency
    UNION ALL
    SELECT 'mrr_until', hi::text, currency, NULL, SUM(level)::text, NULL, NULL
      FROM lv WHERE hi > lo AND level > 0 AND hi < ${lastPoint}::int GROUP BY hi, currency
    UNION ALL
    SELECT 'arr', NULL, currency, NULL, (12 * SUM(level) + COALESCE(SUM(remainder), 0))::text, NULL, NULL
      FROM ends WHERE at_end AND level > 0 GROUP BY currency
    UNION ALL
    SELECT 'retained', NULL, currency, NULL, SUM(level)::text, NULL, NULL
      FROM ends WHERE at_end AND level > 0 AND customer_at_start GROUP BY currency
    UNION ALL
    SELECT 'move', to_char(occurred_on, 'YYYY-MM'), currency, change, SUM(delta)::text, COUNT(*)::text, NULL
      FROM lv WHERE occurred_on >= ${daySql(from)} GROUP BY 2, currency, change
    UNION ALL
    SELECT 'active_start', NULL, NULL, NULL, NULL, COUNT(*) FILTER (WHERE at_start)::text, NULL FROM cust
    UNION ALL
    SELECT 'active_end', NULL, NULL, NULL, NULL, COUNT(*) FILTER (WHERE at_end)::text, NULL FROM cust
    UNION ALL
    SELECT 'churned', NULL, NULL, NULL, NULL, COUNT(*) FILTER (WHERE at_start AND NOT at_end)::text, NULL FROM cust
    UNION ALL
    SELECT 'new', NULL, NULL, NULL, NULL, COUNT(*)::text, NULL
      FROM (SELECT 1 FROM lv WHERE change = 'new' GROUP BY integration_id, customer_ref, lone_ref
             HAVING MIN(occurred_on) >= ${daySql(from)}) first_new
    UNION ALL
    SELECT 'source', NULL, source_type, NULL, MIN(confidence)::text, COUNT(*)::text,
           COUNT(*) FILTER (WHERE confidence < ${LOW_CONFIDENCE_BELOW})::text
      FROM lv WHERE occurred_on >= ${daySql(from)} GROUP BY source_type
    UNION ALL
    SELECT 'long_refs', NULL, NULL, NULL, NULL, NULL, NULL
     WHERE EXISTS (SELECT 1 FROM financial_events e WHERE ${upTo} AND ${LONG_REFS})`;
  // As a rule no reference is over 1,000 bytes: the statement reads the index alone, in its
  // window's order (no sort). When the business has such an event (the 'long_refs' row) it runs
  // again over both sets: a key's events may lie in both, and the union of two scans must be
  // sorted (PostgreSQL 15 does not merge a UNION ALL in order).
  const sums = sumsOver(shortRows).then((rows) =>
    rows.some((r) => r.set === "long_refs") ? sumsOver(Prisma.sql`${shortRows} UNION ALL ${longRows}`) : rows,
  );

  const latest = db.$queryRaw<TMovementRow[]>`
    SELECT e.id::text AS id, to_char(e.occurred_on, 'YYYY-MM-DD') AS occurred_on,
           e.saas_customer_ref AS customer_id, e.saas_subscription_ref AS subscription_id,
           e.saas_change AS change, e.amount_minor::text AS amount_minor,
           e.saas_mrr_minor::text AS mrr_minor, e.currency::text AS currency,
           ${payloadTextSql("e", "plan")} AS plan
      FROM financial_events e
     WHERE ${changes} AND e.occurred_on BETWEEN ${daySql(from)} AND ${daySql(to)}
     ORDER BY e.occurred_on DESC, e.created_at DESC, e.id DESC
     LIMIT ${LATEST_MOVEMENTS}`;

  // Signals by the owner-timezone day of occurred_at.
  const signals = db.$queryRaw<Array<{ code: string; n: string }>>`
    SELECT s.code, COUNT(*)::text AS n
      FROM integration_signals s
     WHERE s.owner_id = ${day.ownerId}::uuid AND s.business_id = ${scope.businessId}::uuid
       AND s.code IN (${Prisma.join([...SAAS_SIGNAL_CODES])})
       AND s.occurred_at >= ${zoneDayStart(day.timezone, from)} AND s.occurred_at < ${dayEndExclusive(day.timezone, to)}
     GROUP BY s.code`;

  const [rows, movementRows, signalRows, coverage] = await Promise.all([
    sums,
    latest,
    signals,
    envelopeCoverage(db, day, scope, SAAS_COVERAGE_DOMAINS),
  ]);

  // --- Per-currency sums, in their own currency ---------------------------------------------
  const currencies = [...new Set(rows.flatMap((r) => (r.currency !== null && r.set !== "source" ? [r.currency] : [])))].sort();
  const count = (set: TSumRow["set"]) => Number(rows.find((r) => r.set === set)?.n ?? 0);
  const amountOf = (set: TSumRow["set"], currency: string, d: string | null = null) =>
    rows
      .filter((r) => r.set === set && r.currency === currency && (d === null || r.d === d))
      .reduce((sum, r) => sum + toBigInt(r.amount), 0n);
  const deltasOf = (currency: string, month: string | null): TDeltaSums => {
    const sums = { ...NO_DELTAS };
    for (const r of rows) {
      if (r.set !== "move" || r.currency !== currency || (month !== null && r.d !== month)) continue;
      sums[r.change as TMovementKind] += toBigInt(r.amount);
    }
    return sums;
  };

  const perCurrency = currencies.map((currency) => {
    // A key's level counts at the points [lo, hi) (by index): MRR at point j = Σ levels from a
    // point ≤ j less Σ levels until a point ≤ j.
    const levelsBy = (set: "mrr_from" | "mrr_until", j: number) =>
      rows
        .filter((r) => r.set === set && r.currency === currency && Number(r.d) <= j)
        .reduce((sum, r) => sum + toBigInt(r.amount), 0n);
    const mrrAt = points.map((_, j) => levelsBy("mrr_from", j) - levelsBy("mrr_until", j));
    const moves = movementAmounts(deltasOf(currency, null));
    return {
      currency,
      mrrStart: mrrAt[0]!,
      mrrEnd: mrrAt.at(-1)!,
      arr: amountOf("arr", currency),
      retained: amountOf("retained", currency),
      moves,
      months: months.map((m, i) => ({ moves: movementAmounts(deltasOf(currency, m.month)), mrrEnd: mrrAt[i + 1]! })),
    };
  });
  // --- Each per-currency sum converted once to the base (today's rate) -----------------------
  const headline = ["mrrStart", "mrrEnd", "arr", "retained", ...MOVEMENT_KINDS] as const;
  type THeadline = (typeof headline)[number];
  const headlineOf = (c: (typeof perCurrency)[number], key: THeadline) =>
    key === "mrrStart" || key === "mrrEnd" || key === "arr" || key === "retained" ? c[key] : c.moves[key];
  const items: TCurrentItem[] = perCurrency.flatMap((c) =>
    headline.map((key) => ({ amountMinor: headlineOf(c, key), currency: c.currency })),
  );
  const monthItems: TCurrentItem[] = perCurrency.flatMap((c) =>
    c.months.flatMap((m) => [
      ...MOVEMENT_KINDS.map((kind) => ({ amountMinor: m.moves[kind], currency: c.currency })),
      { amountMinor: m.mrrEnd, currency: c.currency },
    ]),
  );
  const converted = await currentAmounts(db, day, [...items, ...monthItems]);
  let at = 0;
  const base = Object.fromEntries(headline.map((key) => [key, 0n])) as Record<THeadline, bigint>;
  for (let c = 0; c < perCurrency.length; c++) for (const key of headline) base[key] += converted.amounts[at++]!;
  const baseMonths = months.map(() => ({ moves: { ...NO_DELTAS }, mrrEnd: 0n }));
  for (let c = 0; c < perCurrency.length; c++) {
    for (const month of baseMonths) {
      for (const kind of MOVEMENT_KINDS) month.moves[kind] += converted.amounts[at++]!;
      month.mrrEnd += converted.amounts[at++]!;
    }
  }

  // consistent is judged here, on the figures in the base, before any display conversion
  // (pinned-wave3 §1.4): exactly the figures an answer without display_currency shows, so it is
  // never true while they differ. gap = net_new − (MRR(E) − MRR(S)): 0 when consistent.
  const gap = netNew(movementsOf(base)) - (base.mrrEnd - base.mrrStart);
  const consistent = gap === 0n;

  // --- The components in the display currency, derived figures recomputed --------------------
  const shown = await toDisplay(db, day, {
    displayCurrency: query.displayCurrency,
    components: { ...base, gap },
    // The envelope's fx from the headline conversions (the months re-convert the same sums).
    conversions: converted.conversions.slice(0, items.length),
  });
  const d = shown.amounts;
  const moves = movementsOf(d);
  // net_new shown: MRR(E) − MRR(S) shown, plus the gap shown (so it is exactly MRR(E) − MRR(S)
  // whenever consistent); the movements, each converted on its own, may miss it by rounding:
  // display_rounding_minor says by how much (0 in the base).
  const netNewShown = d.mrrEnd - d.mrrStart + d.gap;
  const activeStart = count("active_start");
  const activeEnd = count("active_end");
  const churnedCustomers = count("churned");

  const monthShown = await displayList(
    db,
    day,
    query.displayCurrency,
    baseMonths.flatMap((m) => [...MOVEMENT_KINDS.map((kind) => m.moves[kind]), m.mrrEnd]),
  );
  let mat = 0;
  const byMonth = months.map((m, byMonthIndex) => {
    const shownMoves = { ...NO_DELTAS };
    for (const kind of MOVEMENT_KINDS) shownMoves[kind] = monthShown[mat++]!;
    const mrrEnd = monthShown[mat++]!;
    const path = `by_month.${byMonthIndex}`;
    return {
      month: m.month,
      from: m.from,
      to: m.to,
      ...movementDto(shownMoves, path, netNew(shownMoves)),
      mrr_end_minor: toMinor(mrrEnd, `${path}.mrr_end_minor`),
    };
  });

  const sourceRows = rows.filter((r) => r.set === "source");
  const confidences = sourceRows.flatMap((r) => (r.amount === null ? [] : [Number(r.amount)]));
  const provenance: TProvenanceSummary = {
    events: sourceRows.reduce((sum, r) => sum + Number(r.n), 0),
    by_source_type: Object.fromEntries(sourceRows.map((r) => [r.currency!, Number(r.n)])),
    min_confidence: confidences.length > 0 ? Math.min(...confidences) : null,
    low_confidence_events: sourceRows.reduce((sum, r) => sum + Number(r.n2), 0),
  };
  const signalCount = (code: string) => Number(signalRows.find((r) => r.code === code)?.n ?? 0);

  return {
    data: {
      currency: shown.currency,
      base_currency: shown.baseCurrency,
      business_id: scope.businessId,
      from,
      to,
      mrr_start_minor: toMinor(d.mrrStart, "mrr_start_minor"),
      mrr_end_minor: toMinor(d.mrrEnd, "mrr_end_minor"),
      arr_minor: toMinor(d.arr, "arr_minor"),
      arpa_minor: activeEnd === 0 ? null : toMinor(divideHalfEven(d.mrrEnd, BigInt(activeEnd)), "arpa_minor"),
      movements_summary: {
        ...movementDto(moves, "movements_summary", netNewShown),
        consistent,
        display_rounding_minor: toMinor(netNewShown - netNew(moves), "movements_summary.display_rounding_minor"),
      },
      customers: { active_start: activeStart, active_end: activeEnd, new: count("new"), churned: churnedCustomers },
      rates: {
        customer_churn_rate: ratio(BigInt(churnedCustomers), BigInt(activeStart)),
        gross_mrr_churn_rate: ratio(d.churned + d.contraction, d.mrrStart),
        net_mrr_retention: ratio(d.retained, d.mrrStart),
      },
      signals: Object.fromEntries(SAAS_SIGNAL_CODES.map((code) => [code, signalCount(code)])) as Record<
        (typeof SAAS_SIGNAL_CODES)[number],
        number
      >,
      movements: movementRows.map(toMovementDto),
      movements_total: rows.filter((r) => r.set === "move").reduce((sum, r) => sum + Number(r.n), 0),
      by_month: byMonth,
      fx_used: shown.fxUsed,
    },
    fx: shown.fx,
    coverage,
    provenance_summary: provenance,
  };
}

/** The movement kinds of some figures (the base or shown components, which hold more). */
function movementsOf(figures: TDeltaSums): TDeltaSums {
  return {
    new: figures.new,
    expansion: figures.expansion,
    reactivation: figures.reactivation,
    contraction: figures.contraction,
    churned: figures.churned,
  };
}

function movementDto(moves: TDeltaSums, at: string, netNewMinor: bigint) {
  return {
    new_minor: toMinor(moves.new, `${at}.new_minor`),
    expansion_minor: toMinor(moves.expansion, `${at}.expansion_minor`),
    reactivation_minor: toMinor(moves.reactivation, `${at}.reactivation_minor`),
    contraction_minor: toMinor(moves.contraction, `${at}.contraction_minor`),
    churned_minor: toMinor(moves.churned, `${at}.churned_minor`),
    net_new_minor: toMinor(netNewMinor, `${at}.net_new_minor`),
  };
}

function toMovementDto(row: TMovementRow, i: number): TSaasMovement {
  return {
    event_id: row.id,
    occurred_on: row.occurred_on,
    customer_id: row.customer_id,
    subscription_id: row.subscription_id,
    change: row.change,
    mrr_delta_minor: toMinor(toBigInt(row.amount_minor), `movements.${i}.mrr_delta_minor`),
    mrr_minor: row.mrr_minor === null ? null : toMinor(toBigInt(row.mrr_minor), `movements.${i}.mrr_minor`),
    currency: row.currency,
    plan: row.plan,
  };
}
