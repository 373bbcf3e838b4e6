// The pure half of agent economics (pinned-wave2 §3.3): one agent's figures in base minor units,
// their sum over agents (totals), and the DTO with its derived fields (executed, roi).
// economics-service.ts fills them from SQL sums.
import { toMinor } from "../read-models/display";
import { ratio } from "../read-models/read-model.schema";
import type { TEconomicsFigures } from "./agent-economics.schema";

/** Approval statuses an agent's write can have that the figures count. */
export const WRITE_STATUSES = ["auto_approved", "pending", "approved", "rejected"] as const;
export type TWriteStatus = (typeof WRITE_STATUSES)[number];

export const CHANGE_STATUSES = ["planned", "applied", "failed"] as const;
export type TChangeStatus = (typeof CHANGE_STATUSES)[number];

export type TEconomics = {
  writes: Record<TWriteStatus | "denied", number>;
  committedMinor: bigint;
  adBudget: Record<TChangeStatus | "changes", number> & { dailyIncreaseMinor: bigint };
  attributed: { inMinor: bigint; outMinor: bigint };
  decisions: {
    count: number;
    measured: number;
    inconclusive: number;
    better: number;
    as_expected: number;
    worse: number;
    valueMinor: bigint;
  };
};

export function emptyEconomics(): TEconomics {
  return {
    writes: { auto_approved: 0, pending: 0, approved: 0, rejected: 0, denied: 0 },
    committedMinor: 0n,
    adBudget: { changes: 0, planned: 0, applied: 0, failed: 0, dailyIncreaseMinor: 0n },
    attributed: { inMinor: 0n, outMinor: 0n },
    decisions: { count: 0, measured: 0, inconclusive: 0, better: 0, as_expected: 0, worse: 0, valueMinor: 0n },
  };
}

/** The money of the figures, in a fixed order (for one conversion to the display currency). */
export function moneyOf(e: TEconomics): bigint[] {
  return [e.committedMinor, e.adBudget.dailyIncreaseMinor, e.attributed.inMinor, e.attributed.outMinor, e.decisions.valueMinor];
}

/** The figures with their money replaced (moneyOf's order), e.g. by the display currency's amounts. */
export function withMoney(e: TEconomics, money: readonly bigint[]): TEconomics {
  const [committed, dailyIncrease, inMinor, outMinor, value] = money;
  return {
    ...e,
    committedMinor: committed!,
    adBudget: { ...e.adBudget, dailyIncreaseMinor: dailyIncrease! },
    attributed: { inMinor: inMinor!, outMinor: outMinor! },
    decisions: { ...e.decisions, valueMinor: value! },
  };
}

/** Σ over agents, field by field (counts and base amounts alike). */
export function sumEconomics(list: readonly TEconomics[]): TEconomics {
  const total = emptyEconomics();
  for (const e of list) {
    for (const key of Object.keys(total.writes) as Array<keyof TEconomics["writes"]>) total.writes[key] += e.writes[key];
    total.committedMinor += e.committedMinor;
    total.adBudget.changes += e.adBudget.changes;
    for (const status of CHANGE_STATUSES) total.adBudget[status] += e.adBudget[status];
    total.adBudget.dailyIncreaseMinor += e.adBudget.dailyIncreaseMinor;
    total.attributed.inMinor += e.attributed.inMinor;
    total.attributed.outMinor += e.attributed.outMinor;
    const d = total.decisions;
    d.count += e.decisions.count;
    d.measured += e.decisions.measured;
    d.inconclusive += e.decisions.inconclusive;
    d.better += e.decisions.better;
    d.as_expected += e.decisions.as_expected;
    d.worse += e.decisions.worse;
    d.valueMinor += e.decisions.valueMinor;
  }
  return total;
}

/**
 * The answer's figures: executed = auto_approved + approved; pending decisions = the rest; roi.
 * `at`: where they sit in the answer's data ("" at its top, "totals.", "agents.2."), naming a
 * figure beyond the exact range.
 */
export function toFigures(e: TEconomics, at = ""): TEconomicsFigures {
  const d = e.decisions;
  return {
    writes: { ...e.writes, executed: e.writes.auto_approved + e.writes.approved },
    committed_minor: toMinor(e.committedMinor, `${at}committed_minor`),
    ad_budget: {
      changes: e.adBudget.changes,
      planned: e.adBudget.planned,
      applied: e.adBudget.applied,
      failed: e.adBudget.failed,
      daily_increase_minor: toMinor(e.adBudget.dailyIncreaseMinor, `${at}ad_budget.daily_increase_minor`),
    },
    attributed: {
      in_minor: toMinor(e.attributed.inMinor, `${at}attributed.in_minor`),
      out_minor: toMinor(e.attributed.outMinor, `${at}attributed.out_minor`),
    },
    decisions: {
      count: d.count,
      pending: d.count - d.measured - d.inconclusive,
      measured: d.measured,
      inconclusive: d.inconclusive,
      better: d.better,
      as_expected: d.as_expected,
      worse: d.worse,
      value_minor: toMinor(d.valueMinor, `${at}decisions.value_minor`),
    },
    roi: ratio(d.valueMinor - e.committedMinor, e.committedMinor),
  };
}
