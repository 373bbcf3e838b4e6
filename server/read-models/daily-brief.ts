// The daily brief (pinned-wave2 §2.11): GET /v1/daily-brief?date, one owner's day at a glance.
// Computed on demand, never stored, as known at the END of `date` in the owner's timezone
// (`knownAt`, exclusive): events dated ≤ date and created before it, counting as they counted
// then (a later void or reconciliation still shows: counted.ts countedThenSql), snapshots with
// as_of before it, approvals pending then, K7 and K8 with today := date. Built from the kernel:
//   day, previous day, month to date, the 90-day burn window: one actualFlows scan (K3, K4);
//   cash at the end of date and of the day before (K6 endOf); runway (K8, R = date);
//   upcoming_7_days: K7 over [date, date + 6]; coverage (K9) as it stood then.
// `date` defaults to today; after today → 400; before the owner existed → an empty brief.
// Current rates stay today's (K1): what converts cash and commitments is today's knowledge.
import { addDays, dayParts, formatDay, todayIn, zoneDayStart } from "../../lib/days";
import { findRecentAlerts } from "../alerts/alert-service";
import type { TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";
import type { TClock } from "../shared/clock";
import type { TOwnerDay } from "../shared/owner-today";
import { burnOf, burnWindow, runwayOf } from "./burn";
import { actualRowsSql } from "./burn-sums";
import { cashPosition, toCashDto } from "./cash";
import { loadCommitments, toCommitmentItemDtos } from "./commitments";
import { countedThenSql, directionSql } from "./counted";
import { envelopeOf, scopeCoverageOf, type TScopeCoverage } from "./coverage";
import {
  BRIEF_ALERTS_LIMIT,
  BRIEF_LARGEST_LIMIT,
  BRIEF_UPCOMING_DAYS,
  type TDailyBrief,
  type TDailyBriefQuery,
  type TDailyBriefResponse,
} from "./daily-brief.schema";
import { briefHeadline } from "./daily-brief-words";
import { toBigInt, toDisplay, toMinor } from "./display";
import { actualFlows } from "./flows";
import { dayEndExclusive, daySql, readOwnerDay } from "./period";
import { COVERAGE_DOMAINS } from "./read-model.schema";
import { OWNER_SCOPE } from "./scope";

type TLargestRow = {
  id: string;
  type: string;
  amount_minor: string;
  currency: string;
  base_amount_minor: string;
  description: string | null;
  business_id: string | null;
  total: number;
};

/** The day's counted actuals with a direction as known at `knownAt`: how many, and the largest by |base|. */
async function dayEvents(db: TDbOrTx, day: TOwnerDay, knownAt: Date) {
  const span = [{ from: day.today, to: day.today }];
  const rows = await db.$queryRaw<TLargestRow[]>`
    SELECT d.id::text AS id, d.type, d.amount_minor::text AS amount_minor, d.currency::text AS currency,
           d.base_amount_minor::text AS base_amount_minor, d.description, d.business_id::text AS business_id,
           (COUNT(*) OVER ())::int AS total
      FROM (SELECT e.id, e.type, e.direction, e.amount_minor, e.currency, e.base_amount_minor, e.description, e.business_id
              FROM ${actualRowsSql(day.ownerId, OWNER_SCOPE, span, knownAt)}) d
     WHERE ${directionSql("d")} IS NOT NULL
     ORDER BY abs(d.base_amount_minor) DESC, d.id
     LIMIT ${BRIEF_LARGEST_LIMIT}`;
  return {
    events: rows[0]?.total ?? 0,
    largest: rows.map((row, i) => ({
      id: row.id,
      type: row.type,
      amount_minor: toMinor(toBigInt(row.amount_minor), `day.largest.${i}.amount_minor`),
      currency: row.currency,
      base_amount_minor: toMinor(toBigInt(row.base_amount_minor), `day.largest.${i}.base_amount_minor`),
      description: row.description,
      business_id: row.business_id,
    })),
  };
}

/** Approvals pending at `knownAt`: created before it, and still pending or decided at or after it. */
async function pendingApprovalsAt(db: TDbOrTx, ownerId: string, knownAt: Date) {
  const [row] = await db.$queryRaw<Array<{ count: number; oldest: Date | null }>>`
    SELECT COUNT(*)::int AS count, MIN(a.created_at) AS oldest
      FROM approvals a
     WHERE a.owner_id = ${ownerId}::uuid AND a.created_at < ${knownAt}
       AND (a.status = 'pending' OR (a.status <> 'auto_approved' AND a.decided_at >= ${knownAt}))`;
  return { count: row?.count ?? 0, oldest_created_at: row?.oldest ? new Date(row.oldest).toISOString() : null };
}

/**
 * What agents did during the day [start, knownAt): writes executed within their limits (approvals
 * auto_approved), writes held for approval (write approvals not auto-approved, whatever became of
 * them), and decisions dated that day (agent_action events, as known at its end).
 */
async function agentActivity(db: TDbOrTx, day: TOwnerDay, start: Date, knownAt: Date) {
  const [approvals, decisions] = await Promise.all([
    db.$queryRaw<Array<{ auto_approved: number; held: number }>>`
      SELECT (COUNT(*) FILTER (WHERE a.status = 'auto_approved'))::int AS auto_approved,
             (COUNT(*) FILTER (WHERE a.kind = 'write' AND a.status <> 'auto_approved'))::int AS held
        FROM approvals a
       WHERE a.owner_id = ${day.ownerId}::uuid AND a.created_at >= ${start} AND a.created_at < ${knownAt}`,
    db.$queryRaw<Array<{ count: number }>>`
      SELECT COUNT(*)::int AS count
        FROM financial_events e
       WHERE e.owner_id = ${day.ownerId}::uuid AND e.type = 'agent_action' AND e.occurred_on = ${daySql(day.today)}
         AND e.state = 'actual' AND ${countedThenSql("e", knownAt)}`,
  ]);
  return {
    auto_approved: approvals[0]?.auto_approved ?? 0,
    held: approvals[0]?.held ?? 0,
    decisions: decisions[0]?.count ?? 0,
  };
}

/** The domains with a source whose status is incomplete or missing, in the contract's domain order. */
function coverageWarnings(coverage: TScopeCoverage): TDailyBrief["coverage_warnings"] {
  const warnings: TDailyBrief["coverage_warnings"] = [];
  for (const domain of COVERAGE_DOMAINS) {
    const { status, sources } = coverage.domains[domain];
    if (sources.length > 0 && (status === "incomplete" || status === "missing")) warnings.push({ domain, status });
  }
  return warnings;
}

/** The owner's locale and the day they came into existence (their timezone). */
async function ownerFacts(db: TDbOrTx, day: TOwnerDay) {
  const owner = await db.owner.findUniqueOrThrow({ where: { id: day.ownerId }, select: { locale: true, createdAt: true } });
  return { locale: owner.locale, firstDay: todayIn(day.timezone, owner.createdAt) };
}

/** The brief's date: today by default; after today → 400 naming `date`. */
export function briefDate(requested: string | undefined, today: string, timezone: string): string {
  const date = requested ?? today;
  if (date > today) {
    throw AppError.invalidField("date", `is after today (${today} in ${timezone}); a brief is for a day that has begun`);
  }
  return date;
}

export async function getDailyBrief(
  db: TDbOrTx,
  input: { ownerId: string; clock: TClock; query: TDailyBriefQuery },
): Promise<TDailyBriefResponse> {
  const now = await readOwnerDay(db, input.ownerId, input.clock);
  const date = briefDate(input.query.date, now.today, now.timezone);
  const { locale, firstDay } = await ownerFacts(db, now);
  // K7 and K8 with today := date; current rates stay today's.
  const day: TOwnerDay = { ...now, today: date };
  const start = zoneDayStart(day.timezone, date);
  const knownAt = dayEndExclusive(day.timezone, date);
  const previous = addDays(date, -1);
  const [year, month] = dayParts(date);
  const monthStart = formatDay(year, month, 1);
  if (date < firstDay) return emptyBrief(db, day, locale, input.query.display_currency, monthStart);

  // Two flow scans: the month and the 90 days (their rates make the envelope's fx: they cover the
  // days), and the two days, a few rows. One scan with four sums has the planner expect a hash
  // table beyond work_mem, so it sorts the 90 days' rows on disk (bench read: 600 ms → 200 ms).
  const spans = [{ from: monthStart, to: date }, burnWindow(date)];
  const daySpans = [
    { from: date, to: date },
    { from: previous, to: previous },
  ];
  // Independent reads, issued together (the Overview's reasoning: on PostgreSQL's pool they run side by side).
  const [cash, previousCash, flows, dayFlows, events, commitments, alerts, pending, agents, coverage] = await Promise.all([
    cashPosition(db, day, OWNER_SCOPE, { endOf: date }),
    cashPosition(db, day, OWNER_SCOPE, { endOf: previous }),
    actualFlows(db, day, OWNER_SCOPE, spans, { knownAt }),
    actualFlows(db, day, OWNER_SCOPE, daySpans, { knownAt }),
    dayEvents(db, day, knownAt),
    loadCommitments(db, day, OWNER_SCOPE, addDays(date, BRIEF_UPCOMING_DAYS - 1), { knownAt }),
    findRecentAlerts(db, day.ownerId, { limit: BRIEF_ALERTS_LIMIT, createdFrom: start, createdBefore: knownAt }),
    pendingApprovalsAt(db, day.ownerId, knownAt),
    agentActivity(db, day, start, knownAt),
    scopeCoverageOf(db, day, OWNER_SCOPE, { knownAt }),
  ]);
  const [flowMonth, flow90] = [flows.flows[0]!, flows.flows[1]!];
  const [flowDay, flowPrevious] = [dayFlows.flows[0]!, dayFlows.flows[1]!];
  const runway = runwayOf(cash?.amountMinor ?? null, burnOf(flow90.inMinor, flow90.outMinor).netBurn90, date);

  const components: Record<string, bigint> = {
    day_in: flowDay.inMinor,
    day_out: flowDay.outMinor,
    previous_in: flowPrevious.inMinor,
    previous_out: flowPrevious.outMinor,
    month_in: flowMonth.inMinor,
    month_out: flowMonth.outMinor,
  };
  if (cash) components.cash = cash.amountMinor;
  if (previousCash) components.previous_cash = previousCash.amountMinor;
  const displayed = await toDisplay(db, day, {
    displayCurrency: input.query.display_currency,
    components,
    conversions: [
      ...(cash?.conversions ?? []),
      ...(previousCash?.conversions ?? []),
      ...flows.conversions,
      ...commitments.conversions,
    ],
  });
  const shown = displayed.amounts;
  const dayNet = shown.day_in! - shown.day_out!;
  const data: TDailyBrief = {
    currency: displayed.currency,
    base_currency: displayed.baseCurrency,
    date,
    timezone: day.timezone,
    generated_at: day.now.toISOString(),
    day: {
      in_minor: toMinor(shown.day_in!, "day.in_minor"),
      out_minor: toMinor(shown.day_out!, "day.out_minor"),
      net_minor: toMinor(dayNet, "day.net_minor"),
      events: events.events,
      largest: events.largest,
    },
    month_to_date: {
      from: monthStart,
      in_minor: toMinor(shown.month_in!, "month_to_date.in_minor"),
      out_minor: toMinor(shown.month_out!, "month_to_date.out_minor"),
      net_minor: toMinor(shown.month_in! - shown.month_out!, "month_to_date.net_minor"),
    },
    cash: toCashDto(cash, cash ? shown.cash : undefined, "cash"),
    runway,
    change_vs_previous_day: {
      net_minor: toMinor(dayNet - (shown.previous_in! - shown.previous_out!), "change_vs_previous_day.net_minor"),
      cash_minor: cash && previousCash ? toMinor(shown.cash! - shown.previous_cash!, "change_vs_previous_day.cash_minor") : null,
    },
    upcoming_7_days: toCommitmentItemDtos(commitments.items, "upcoming_7_days"),
    new_alerts: alerts,
    pending_approvals: pending,
    agent_activity: agents,
    coverage_warnings: coverageWarnings(coverage),
    headline: "",
  };
  data.headline = headlineOf(data, locale);
  return { data, fx: displayed.fx, coverage: envelopeOf(coverage, COVERAGE_DOMAINS) };
}

function headlineOf(data: TDailyBrief, locale: string): string {
  return briefHeadline({
    date: data.date,
    locale,
    currency: data.currency,
    inMinor: data.day.in_minor,
    outMinor: data.day.out_minor,
    netMinor: data.day.net_minor,
    cashMinor: data.cash?.amount_minor ?? null,
    runway: data.runway,
    pendingApprovals: data.pending_approvals.count,
  });
}

/** A day before the owner existed: nothing was known yet (every figure zero or null, every list empty). */
async function emptyBrief(
  db: TDbOrTx,
  day: TOwnerDay,
  locale: string,
  displayCurrency: string | undefined,
  monthStart: string,
): Promise<TDailyBriefResponse> {
  const displayed = await toDisplay(db, day, { displayCurrency, components: {}, conversions: [] });
  const data: TDailyBrief = {
    currency: displayed.currency,
    base_currency: displayed.baseCurrency,
    date: day.today,
    timezone: day.timezone,
    generated_at: day.now.toISOString(),
    day: { in_minor: 0, out_minor: 0, net_minor: 0, events: 0, largest: [] },
    month_to_date: { from: monthStart, in_minor: 0, out_minor: 0, net_minor: 0 },
    cash: null,
    runway: runwayOf(null, 0n, day.today),
    change_vs_previous_day: { net_minor: 0, cash_minor: null },
    upcoming_7_days: [],
    new_alerts: [],
    pending_approvals: { count: 0, oldest_created_at: null },
    agent_activity: { auto_approved: 0, held: 0, decisions: 0 },
    coverage_warnings: [],
    headline: "",
  };
  data.headline = headlineOf(data, locale);
  const coverage = {
    overall: "missing",
    cash: "missing",
    revenue: "missing",
    ads: "missing",
    billing: "missing",
    expenses: "missing",
  } as const;
  return { data, fx: displayed.fx, coverage };
}
