// The pure half of a decision's outcome (pinned-wave2 §3.2): its windows, which summary value
// and which coverage its metric reads, its status and its verdict. outcome-service.ts feeds
// these with the read-model kernel's sums and coverage.
import { addDays } from "../../lib/days";
import { worstStatus } from "../read-models/coverage";
import type { TScopeCoverage } from "../read-models/coverage";
import type { TCoverageStatus } from "../read-models/read-model.schema";
import type { TSummaryValues } from "../read-models/summary-values";
import type { TDecisionMetric, TOutcomeStatus, TVerdict } from "./decision.schema";

/** Without an expectation a decision is measured on net over 30 days. */
export const DEFAULT_METRIC: TDecisionMetric = "net";
export const DEFAULT_WINDOW_DAYS = 30;

export type TSpan = { from: string; to: string };

/** The window [D + 1, D + w] and the baseline [D − w + 1, D] of a decision on day D. */
export function outcomeSpans(occurredOn: string, windowDays: number): { baseline: TSpan; window: TSpan } {
  return {
    baseline: { from: addDays(occurredOn, -windowDays + 1), to: occurredOn },
    window: { from: addDays(occurredOn, 1), to: addDays(occurredOn, windowDays) },
  };
}

/** The metric's value among a summary's values (§2.4; revenue is net revenue). */
export function metricValue(metric: TDecisionMetric, values: TSummaryValues): bigint {
  switch (metric) {
    case "revenue":
      return values.netRevenue;
    case "outflow":
      return values.outflow;
    case "net":
      return values.net;
    case "ad_spend":
      return values.ad_spend;
  }
}

/** The metric's coverage: revenue; expenses for outflow; ads for ad_spend; net the worse of revenue and expenses. */
export function metricCoverage(metric: TDecisionMetric, coverage: TScopeCoverage): TCoverageStatus {
  const { domains } = coverage;
  switch (metric) {
    case "revenue":
      return domains.revenue.status;
    case "outflow":
      return domains.expenses.status;
    case "ad_spend":
      return domains.ads.status;
    case "net":
      return worstStatus([domains.revenue.status, domains.expenses.status]);
  }
}

/** pending while the window has not ended before today; then inconclusive without coverage, else measured. */
export function outcomeStatus(windowTo: string, today: string, coverage: TCoverageStatus): TOutcomeStatus {
  if (windowTo >= today) return "pending";
  return coverage === "missing" ? "inconclusive" : "measured";
}

const abs = (value: bigint) => (value < 0n ? -value : value);

/**
 * as_expected when |variance| × 10 ≤ |expected_delta| (so an expected 0 needs variance 0); else
 * better when the variance goes the good way for the metric (up for revenue and net, down for
 * outflow and ad_spend), otherwise worse.
 */
export function verdictOf(metric: TDecisionMetric, varianceMinor: bigint, expectedDeltaMinor: bigint): TVerdict {
  if (abs(varianceMinor) * 10n <= abs(expectedDeltaMinor)) return "as_expected";
  const upIsGood = metric === "revenue" || metric === "net";
  return (upIsGood ? varianceMinor > 0n : varianceMinor < 0n) ? "better" : "worse";
}
