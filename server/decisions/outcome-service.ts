// A decision's outcome (pinned-wave2 §3.2): its metric over the window after it against the
// same number of days up to it, beside what it expected. The values are the financial
// summary's (read-models/summary-values.ts, §2.4) over the decision's scope, the coverage is
// K9's (read-models/coverage.ts); outcome-rules.ts holds the windows, status and verdict.
//
// Pending outcomes are computed on every read. The first read that finds the window closed
// stores the outcome (measured, or inconclusive without coverage) and every later read serves
// that row: one row per decision, written by INSERT … ON CONFLICT DO NOTHING and read back, so
// two first reads racing on PostgreSQL both answer the one row that won. Not audited (§1.5).
import { addDays, utcDayOf, utcMidnightOf } from "../../lib/days";
import { requireOwnRecord } from "../access/check-access";
import type { TCaller } from "../auth/caller";
import type { TDbOrTx } from "../db/client";
import type { AgentDecision, DecisionOutcome, Prisma } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { toJsonAmount } from "../fx/base-amounts";
import { scopeCoverageOf, type TScopeCoverage } from "../read-models/coverage";
import { currentAmounts } from "../read-models/display";
import { resolvePeriod, type TOwnerDay } from "../read-models/period";
import type { TCoverageStatus } from "../read-models/read-model.schema";
import type { TReadScope } from "../read-models/scope";
import { summaryValuesOver } from "../read-models/summary-values";
import { pageArgs, toPage } from "../shared/pagination";
import { toScopeDto } from "../shared/scope";
import type { TDecisionMetric, TDecisionOutcome, TFindDecisionOutcomesQuery, TOutcomeStatus, TVerdict } from "./decision.schema";
import {
  DEFAULT_METRIC,
  DEFAULT_WINDOW_DAYS,
  metricCoverage,
  metricValue,
  outcomeSpans,
  outcomeStatus,
  verdictOf,
} from "./outcome-rules";

type TDecisionRow = AgentDecision & { outcome: DecisionOutcome | null };

/** An outcome's figures, computed or stored (base minor units). */
type TFigures = {
  status: TOutcomeStatus;
  metric: TDecisionMetric;
  window: { from: string; to: string };
  baselineMinor: bigint;
  actualMinor: bigint;
  deltaMinor: bigint;
  expectedDeltaMinor: bigint | null;
  varianceMinor: bigint | null;
  verdict: TVerdict | null;
  coverage: TCoverageStatus;
  baseCurrency: string;
  measuredAt: Date | null;
};

/** Coverage per scope, computed once per answer (a list's decisions often share a scope). */
type TCoverageCache = Map<string, Promise<TScopeCoverage>>;

/** GET /v1/decisions/{id}/review: the owner's, or the authoring agent's (another agent: 403, audited). */
export async function getDecisionReview(
  db: TDbOrTx,
  caller: TCaller,
  day: TOwnerDay,
  id: string,
  operation: string,
): Promise<TDecisionOutcome> {
  const row = await db.agentDecision.findFirst({ where: { id, ownerId: caller.ownerId }, include: { outcome: true } });
  if (!row) throw AppError.notFound("decision");
  if (caller.actor.type === "agent") {
    await requireOwnRecord(caller.actor, row.agentId, `decision:${row.id}`, {
      operation,
      db: () => db,
      requestId: caller.requestId,
    });
  }
  return outcomeOf(db, day, row, new Map());
}

/** GET /v1/decision-outcomes: newest decision first, decisions whose occurred_on is in the period (K1). */
export async function findDecisionOutcomes(db: TDbOrTx, day: TOwnerDay, query: TFindDecisionOutcomesQuery) {
  const period = resolvePeriod(query, day.today);
  const args = pageArgs(query);
  const rows = await db.agentDecision.findMany({
    ...args,
    where: {
      ownerId: day.ownerId,
      businessId: query.business_id,
      projectId: query.project_id,
      personal: query.personal,
      agentId: query.agent_id,
      occurredOn: { gte: utcMidnightOf(period.from), lte: utcMidnightOf(period.to) },
      ...args.where,
    },
    include: { outcome: true },
  });
  const { rows: kept, page } = toPage(rows, query.limit);
  const coverages: TCoverageCache = new Map();
  const data: TDecisionOutcome[] = [];
  // One after another: each may read several sums, and a list must not open a connection per row.
  for (const row of kept) data.push(await outcomeOf(db, day, row, coverages));
  return { data, page };
}

/**
 * Measures and stores the outcome of every decision matching `where` whose window has closed
 * but that no read has stored yet, so that aggregates (agent economics, §3.3) can count the
 * stored outcomes in SQL; pending decisions are left alone.
 */
export async function storeClosedOutcomes(db: TDbOrTx, day: TOwnerDay, where: Prisma.AgentDecisionWhereInput): Promise<void> {
  // The shortest window is 7 days: a decision of the last 7 days is pending whatever its window.
  const rows = await db.agentDecision.findMany({
    where: { AND: [where, { ownerId: day.ownerId, outcome: null, occurredOn: { lt: utcMidnightOf(addDays(day.today, -7)) } }] },
    include: { outcome: true },
    orderBy: [{ occurredOn: "asc" }, { id: "asc" }],
  });
  const coverages: TCoverageCache = new Map();
  for (const row of rows) {
    const { window } = outcomeSpans(utcDayOf(row.occurredOn), row.expectedWindowDays ?? DEFAULT_WINDOW_DAYS);
    // One after another, as the list does: each reads several sums.
    if (window.to < day.today) await outcomeOf(db, day, row, coverages);
  }
}

async function outcomeOf(db: TDbOrTx, day: TOwnerDay, row: TDecisionRow, coverages: TCoverageCache): Promise<TDecisionOutcome> {
  if (row.outcome) return toOutcomeDto(row, storedFigures(row.outcome));
  const figures = await measure(db, day, row, coverages);
  if (figures.status === "pending") return toOutcomeDto(row, figures);
  return toOutcomeDto(row, storedFigures(await storeOnce(db, day, row, figures)));
}

/** Inserts the outcome unless a concurrent first read did; answers the row that is stored. */
async function storeOnce(db: TDbOrTx, day: TOwnerDay, row: TDecisionRow, figures: TFigures): Promise<DecisionOutcome> {
  await db.decisionOutcome.createMany({
    data: [
      {
        decisionId: row.id,
        ownerId: row.ownerId,
        status: figures.status,
        metric: figures.metric,
        windowFrom: utcMidnightOf(figures.window.from),
        windowTo: utcMidnightOf(figures.window.to),
        baselineMinor: figures.baselineMinor,
        actualMinor: figures.actualMinor,
        deltaMinor: figures.deltaMinor,
        expectedDeltaMinor: figures.expectedDeltaMinor,
        varianceMinor: figures.varianceMinor,
        verdict: figures.verdict,
        coverage: figures.coverage,
        baseCurrency: figures.baseCurrency,
        measuredAt: day.now,
      },
    ],
    skipDuplicates: true, // ON CONFLICT DO NOTHING: the first stored outcome stays
  });
  return db.decisionOutcome.findUniqueOrThrow({ where: { decisionId: row.id } });
}

/** The outcome as of `day`: the kernel's values over both spans, the metric's coverage, the rules. */
async function measure(db: TDbOrTx, day: TOwnerDay, row: TDecisionRow, coverages: TCoverageCache): Promise<TFigures> {
  const metric = (row.expectedMetric as TDecisionMetric | null) ?? DEFAULT_METRIC;
  const { baseline, window } = outcomeSpans(utcDayOf(row.occurredOn), row.expectedWindowDays ?? DEFAULT_WINDOW_DAYS);
  const scope = readScopeOf(row);
  const [[before, after], expected, coverage] = await Promise.all([
    summaryValuesOver(db, row.ownerId, scope, [baseline, window]),
    expectedInBase(db, day, row),
    coverageOf(db, day, scope, coverages),
  ]);
  const baselineMinor = metricValue(metric, before!);
  const actualMinor = metricValue(metric, after!);
  const deltaMinor = actualMinor - baselineMinor;
  const varianceMinor = expected === null ? null : deltaMinor - expected;
  const metricStatus = metricCoverage(metric, coverage);
  const status = outcomeStatus(window.to, day.today, metricStatus);
  return {
    status,
    metric,
    window,
    baselineMinor,
    actualMinor,
    deltaMinor,
    expectedDeltaMinor: expected,
    varianceMinor,
    verdict: status === "measured" && expected !== null ? verdictOf(metric, varianceMinor!, expected) : null,
    coverage: metricStatus,
    baseCurrency: day.baseCurrency,
    measuredAt: null,
  };
}

/** expected.delta_minor in the base currency at the current rate (K5; 422 without a rate), or null. */
async function expectedInBase(db: TDbOrTx, day: TOwnerDay, row: TDecisionRow): Promise<bigint | null> {
  if (row.expectedDeltaMinor === null || row.expectedCurrency === null) return null;
  const { amounts } = await currentAmounts(db, day, [{ amountMinor: row.expectedDeltaMinor, currency: row.expectedCurrency }]);
  return amounts[0]!;
}

function coverageOf(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, cache: TCoverageCache): Promise<TScopeCoverage> {
  // A project's coverage is its business's (K9).
  const key = scope.kind === "business" || scope.kind === "project" ? `business:${scope.businessId}` : scope.kind;
  let coverage = cache.get(key);
  if (!coverage) {
    coverage = scopeCoverageOf(db, day, scope);
    cache.set(key, coverage);
  }
  return coverage;
}

function readScopeOf(row: AgentDecision): TReadScope {
  if (row.projectId) return { kind: "project", projectId: row.projectId, businessId: row.businessId! };
  if (row.businessId) return { kind: "business", businessId: row.businessId };
  return { kind: "personal" };
}

function storedFigures(stored: DecisionOutcome): TFigures {
  return {
    status: stored.status as TOutcomeStatus,
    metric: stored.metric as TDecisionMetric,
    window: { from: utcDayOf(stored.windowFrom), to: utcDayOf(stored.windowTo) },
    baselineMinor: stored.baselineMinor,
    actualMinor: stored.actualMinor,
    deltaMinor: stored.deltaMinor,
    expectedDeltaMinor: stored.expectedDeltaMinor,
    varianceMinor: stored.varianceMinor,
    verdict: stored.verdict as TVerdict | null,
    coverage: stored.coverage as TCoverageStatus,
    baseCurrency: stored.baseCurrency,
    measuredAt: stored.measuredAt,
  };
}

function toOutcomeDto(row: AgentDecision, figures: TFigures): TDecisionOutcome {
  const amount = (value: bigint | null, field: string) => (value === null ? null : toJsonAmount(value, field));
  return {
    decision_id: row.id,
    agent_id: row.agentId,
    ...toScopeDto(row),
    title: row.title,
    occurred_on: utcDayOf(row.occurredOn),
    status: figures.status,
    metric: figures.metric,
    window: figures.window,
    baseline_minor: toJsonAmount(figures.baselineMinor, "baseline_minor"),
    actual_minor: toJsonAmount(figures.actualMinor, "actual_minor"),
    delta_minor: toJsonAmount(figures.deltaMinor, "delta_minor"),
    expected_delta_minor: amount(figures.expectedDeltaMinor, "expected_delta_minor"),
    variance_minor: amount(figures.varianceMinor, "variance_minor"),
    verdict: figures.verdict,
    coverage: figures.coverage,
    measured_at: figures.measuredAt?.toISOString() ?? null,
    base_currency: figures.baseCurrency,
  };
}
