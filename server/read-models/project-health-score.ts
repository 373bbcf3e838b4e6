// Project health (pinned-wave2 §2.9), the pure part: a project's share of the business-level
// costs of allocated subscriptions, its capacity items, and the score, status and reasons.
// Every comparison is exact (integers; no rounded ratio decides a penalty). The SQL and the
// currency conversion live in project-health.ts.
//
//   penalty (from 100, clamp 0–100)   code                 condition
//   −40                               negative_margin      margin < 0
//   −20                               margin_drop          previous > 0 and margin × 10 < previous × 8
//   −10                               capacity_near_full   an item's used / total ≥ 0.9 (used × 10 ≥ total × 9)
//   −10                               capacity_underused   an item's used / total < 0.2 (used × 5 < total)
//   −20                               coverage_gap         business revenue or expenses coverage incomplete or missing
//
// Each code counts once, however many items meet it. Status: healthy ≥ 70, watch 40–69,
// at_risk < 40; insufficient_data (score null) when the project had no counted event in either
// period (its own, or a business-level one it carries a share of).
import { minorToMajor } from "../../lib/money";
import { distributeByBps, sortAllocations, type TAllocationShare } from "../subscriptions/allocation-math";
import { ratio, type TCoverageStatus } from "./read-model.schema";

export const HEALTH_PENALTIES = {
  negative_margin: 40,
  margin_drop: 20,
  capacity_near_full: 10,
  capacity_underused: 10,
  coverage_gap: 20,
} as const;
export type TPenaltyCode = keyof typeof HEALTH_PENALTIES;
export const REASON_CODES = [
  "negative_margin",
  "margin_drop",
  "capacity_near_full",
  "capacity_underused",
  "coverage_gap",
  "insufficient_data",
] as const satisfies ReadonlyArray<TPenaltyCode | "insufficient_data">;
export type TReasonCode = (typeof REASON_CODES)[number];

export const HEALTHY_FROM = 70;
export const WATCH_FROM = 40;

export const HEALTH_STATUSES = ["healthy", "watch", "at_risk", "insufficient_data"] as const;
export type THealthStatus = (typeof HEALTH_STATUSES)[number];

export type THealthReason = { code: TReasonCode; detail: string };

/** Minor units per project id (bigint, base currency). */
export type TByProject = Map<string, bigint>;

/**
 * Each project's share of the business-level costs of allocated subscriptions: per
 * subscription, its period's cost split over its allocations by largest remainder (in the
 * order a subscription's DTO lists them), so the parts add up to the cost exactly.
 */
export function allocateCosts(
  costBySubscription: ReadonlyMap<string, bigint>,
  allocationsBySubscription: ReadonlyMap<string, readonly TAllocationShare[]>,
): TByProject {
  const byProject: TByProject = new Map();
  for (const [subscriptionId, cost] of costBySubscription) {
    const allocations = sortAllocations(allocationsBySubscription.get(subscriptionId) ?? []);
    if (allocations.length === 0) continue;
    const parts = distributeByBps(
      cost,
      allocations.map((a) => a.shareBps),
    );
    allocations.forEach((allocation, i) => {
      byProject.set(allocation.projectId, (byProject.get(allocation.projectId) ?? 0n) + parts[i]!);
    });
  }
  return byProject;
}

export type TCapacityFact = { subscriptionId: string; name: string; unit: string; total: number; used: number };

/** A capacity item as the answer shows it: utilization = used / total (4 decimals; null when total is 0). */
export function capacityItem(fact: TCapacityFact) {
  return {
    subscription_id: fact.subscriptionId,
    name: fact.name,
    unit: fact.unit,
    total: fact.total,
    used: fact.used,
    utilization: ratio(BigInt(fact.used), BigInt(fact.total)),
  };
}

/** The capacity block of a row: its items (by name) and the highest utilization (null without any). */
export function capacityOf(facts: readonly TCapacityFact[]) {
  const items = [...facts]
    .sort((a, b) => a.name.localeCompare(b.name) || a.subscriptionId.localeCompare(b.subscriptionId))
    .map(capacityItem);
  const utilizations = items.map((item) => item.utilization).filter((u): u is number => u !== null);
  return { max_utilization: utilizations.length > 0 ? Math.max(...utilizations) : null, items };
}

export const isNearFull = (fact: TCapacityFact) => fact.total > 0 && fact.used * 10 >= fact.total * 9;
export const isUnderused = (fact: TCapacityFact) => fact.total > 0 && fact.used * 5 < fact.total;

export function statusOfScore(score: number | null): THealthStatus {
  if (score === null) return "insufficient_data";
  if (score >= HEALTHY_FROM) return "healthy";
  if (score >= WATCH_FROM) return "watch";
  return "at_risk";
}

export type THealthInput = {
  /** Base currency, for the details' amounts. */
  currency: string;
  period: { from: string; to: string };
  previous: { from: string; to: string };
  revenueMinor: bigint;
  costsMinor: bigint;
  marginMinor: bigint;
  previousMarginMinor: bigint;
  capacity: readonly TCapacityFact[];
  coverage: { revenue: TCoverageStatus; expenses: TCoverageStatus };
  /** Counted events behind the row in both periods (its own and the allocated ones). */
  countedEvents: number;
};

const GAP: ReadonlySet<TCoverageStatus> = new Set(["incomplete", "missing"]);

/** "1250.00 EUR": exact, currency-aware decimals. */
function money(minor: bigint, currency: string): string {
  return `${minorToMajor(minor, currency)} ${currency}`;
}

/** used / total as a percentage, floored to a tenth (never shows 90 % for 89.96 %). */
function percent(fact: TCapacityFact): string {
  return `${Math.floor((fact.used * 1000) / fact.total) / 10}%`;
}

function capacityWords(facts: readonly TCapacityFact[]): string {
  return facts.map((f) => `${f.name}: ${f.used} of ${f.total} ${f.unit} used (${percent(f)})`).join("; ");
}

/** The score (null: insufficient data), its status, and a reason for every penalty taken. */
export function scoreProject(input: THealthInput): { score: number | null; status: THealthStatus; reasons: THealthReason[] } {
  if (input.countedEvents === 0) {
    return {
      score: null,
      status: "insufficient_data",
      reasons: [
        {
          code: "insufficient_data",
          detail:
            `No counted events from ${input.period.from} to ${input.period.to} nor in the previous period ` +
            `(${input.previous.from} to ${input.previous.to}): record its revenue and costs, or connect a source, to score it.`,
        },
      ],
    };
  }
  const reasons: Array<{ code: TPenaltyCode; detail: string }> = [];
  const { currency } = input;
  if (input.marginMinor < 0n) {
    reasons.push({
      code: "negative_margin",
      detail: `Costs of ${money(input.costsMinor, currency)} exceeded revenue of ${money(input.revenueMinor, currency)}: margin ${money(input.marginMinor, currency)}.`,
    });
  }
  if (input.previousMarginMinor > 0n && input.marginMinor * 10n < input.previousMarginMinor * 8n) {
    reasons.push({
      code: "margin_drop",
      detail: `Margin fell from ${money(input.previousMarginMinor, currency)} in the previous period to ${money(input.marginMinor, currency)}, more than 20% lower.`,
    });
  }
  const full = input.capacity.filter(isNearFull);
  if (full.length > 0) {
    reasons.push({ code: "capacity_near_full", detail: `Nearly full (90% or more): ${capacityWords(full)}.` });
  }
  const idle = input.capacity.filter(isUnderused);
  if (idle.length > 0) {
    reasons.push({ code: "capacity_underused", detail: `Under 20% used: ${capacityWords(idle)}.` });
  }
  const gaps = (["revenue", "expenses"] as const).filter((domain) => GAP.has(input.coverage[domain]));
  if (gaps.length > 0) {
    reasons.push({
      code: "coverage_gap",
      detail:
        `The business's ${gaps.map((d) => `${d} data is ${input.coverage[d]}`).join(" and ")}: ` +
        "figures may be partial (connect a source or import recent statements).",
    });
  }
  const penalty = reasons.reduce((sum, reason) => sum + HEALTH_PENALTIES[reason.code], 0);
  const score = Math.min(100, Math.max(0, 100 - penalty));
  return { score, status: statusOfScore(score), reasons };
}
