// The Goals page's words for what the API answers: a kind's name, a goal's target, and its
// progress as a sentence and a percentage. Pure, so the page and its tests share them.
import { formatMinor } from "@/lib/money";
import type { TGoal, TGoalKind, TGoalProposal } from "@/server/goals/goal.schema";

export const KIND_OPTIONS: ReadonlyArray<{ value: TGoalKind; label: string; hint: string }> = [
  { value: "save", label: "Save", hint: "Free capital over the next 30 days reaches the target." },
  { value: "revenue", label: "Revenue", hint: "Net revenue since the goal was set reaches the target." },
  { value: "spend_cap", label: "Spending cap", hint: "This month's outflow (expenses and ad spend) stays under the target." },
  { value: "runway", label: "Runway", hint: "Cash lasts at least this many days at the current net burn." },
];

export function kindLabel(kind: TGoalKind): string {
  return KIND_OPTIONS.find((option) => option.value === kind)?.label ?? kind;
}

export const isMoneyKind = (kind: TGoalKind): boolean => kind !== "runway";

type TTarget = Pick<TGoal, "kind" | "target_amount_minor" | "currency" | "target_days"> | TGoalProposal;

/** "€1,000.00", "180 days". */
export function targetText(goal: TTarget, locale?: string): string {
  if (goal.kind === "runway") return `${goal.target_days ?? "—"} days`;
  return formatMinor(goal.target_amount_minor, goal.currency ?? "EUR", locale);
}

/** A ratio (at most 4 decimals) as a percentage with at most one decimal: 0.3625 → "36.3%". */
export function percentText(ratio: number, locale = "en-US"): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(ratio);
}

/** How full the bar is, 0 to 100 (a negative free capital is an empty bar; past the target a full one). */
export function barValue(ratio: number | null): number {
  if (ratio === null) return 0;
  return Math.max(0, Math.min(100, Math.round(ratio * 100)));
}

/** Whether the progress reads as bad news: a spending cap passed, or nothing measurable. */
export function isOverCap(goal: Pick<TGoal, "kind" | "progress">): boolean {
  return goal.kind === "spend_cap" && (goal.progress?.ratio ?? 0) > 1;
}

/** The sentence beside the bar: what was measured, against what. */
export function progressText(goal: TGoal, locale?: string): string {
  const progress = goal.progress;
  if (progress === null) {
    return `Progress unavailable: there is no exchange rate for ${goal.currency ?? "this currency"} today.`;
  }
  const target = targetText(goal, locale);
  const money = (minor: number | null) => formatMinor(minor, goal.currency ?? "EUR", locale);
  switch (goal.kind) {
    case "save":
      return progress.current_minor === null
        ? "No cash balance recorded for this scope yet: free capital is unknown."
        : `Free capital over the next 30 days: ${money(progress.current_minor)} of ${target}.`;
    case "revenue":
      return `Net revenue since ${goal.created_at.slice(0, 10)}: ${money(progress.current_minor)} of ${target}.`;
    case "spend_cap":
      return `Spent this month: ${money(progress.current_minor)} of the ${target} cap.`;
    case "runway":
      if (progress.current_days !== null) return `Runway: ${progress.current_days} of ${target}.`;
      return progress.ratio === 1
        ? "Not burning cash: the runway is not limited."
        : "Runway unknown: record a cash balance for this scope.";
  }
}
