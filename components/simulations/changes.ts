// The "What if" form's changes as the owner edits them (drafts: text as typed) and as POST
// /v1/simulations takes them, and the other way for its errors: every problem the form can
// tell itself, and every issue the server answers (`changes.2.amount_minor`), lands beside the
// control it concerns. No React: unit-tested in changes.test.ts.
import { majorToMinor } from "@/lib/money";
import type { TFieldIssue } from "@/lib/trpc/errors";
import type { TSimulationChange } from "@/server/simulations/simulation.schema";

export const CHANGE_KINDS = {
  cancel_subscription: { label: "Cancel a subscription", legend: "Cancel a subscription" },
  ad_budget_change: { label: "Change an ad budget", legend: "Change an ad budget" },
  add_expense: { label: "Add a cost", legend: "Add a cost" },
  add_revenue: { label: "Add revenue", legend: "Add revenue" },
} as const;
export type TChangeKind = keyof typeof CHANGE_KINDS;

export const REPEAT_OPTIONS = [
  { value: "once", label: "Once" },
  { value: "week", label: "Every week" },
  { value: "month", label: "Every month" },
  { value: "quarter", label: "Every quarter" },
  { value: "year", label: "Every year" },
] as const;
export type TRepeat = (typeof REPEAT_OPTIONS)[number]["value"];

export type TChangeDraft = {
  /** Stable across edits and removals (React's key). */
  key: number;
  kind: TChangeKind;
  /** cancel_subscription */
  subscriptionId: string;
  /** ad_budget_change */
  integrationId: string;
  direction: "raise" | "lower";
  /** Major units as typed: the cost, the revenue, or the daily budget change. */
  amount: string;
  currency: string;
  /** The day it starts (YYYY-MM-DD): a cost's or revenue's day, a cancellation's or budget's first day. */
  day: string;
  repeat: TRepeat;
};

let nextKey = 0;

export function newDraft(
  kind: TChangeKind,
  defaults: { currency: string; today: string; subscriptionId?: string; integrationId?: string },
): TChangeDraft {
  nextKey += 1;
  return {
    key: nextKey,
    kind,
    subscriptionId: defaults.subscriptionId ?? "",
    integrationId: defaults.integrationId ?? "",
    direction: "raise",
    amount: "",
    currency: defaults.currency,
    day: defaults.today,
    repeat: kind === "add_expense" ? "month" : "once",
  };
}

/** The field of a draft's change an error key names: `changes.<i>.<field>`. */
export function changeField(index: number, field: string): string {
  return `changes.${index}.${field}`;
}

/** The API's name of the field a draft's amount goes to. */
export function amountField(kind: TChangeKind): string {
  return kind === "ad_budget_change" ? "delta_daily_minor" : "amount_minor";
}

/** The API's name of the field a draft's day goes to. */
export function dayField(kind: TChangeKind): "on" | "from" {
  return kind === "add_expense" || kind === "add_revenue" ? "on" : "from";
}

/**
 * The drafts as the API's changes, or what is wrong with them: every problem of every row at
 * once, keyed by the API's path (`changes.<i>.<field>`), so the server's own answers land on the
 * same keys.
 */
export function changesFromDrafts(drafts: readonly TChangeDraft[]): {
  changes: TSimulationChange[];
  errors: Record<string, string>;
} {
  const errors: Record<string, string> = {};
  const changes: TSimulationChange[] = [];
  drafts.forEach((draft, i) => {
    const problem = (field: string, message: string) => (errors[changeField(i, field)] = message);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.day)) problem(dayField(draft.kind), "Pick a day.");
    if (draft.kind === "cancel_subscription") {
      if (!draft.subscriptionId) problem("subscription_id", "Pick the subscription to cancel.");
      changes.push({ kind: "cancel_subscription", subscription_id: draft.subscriptionId, from: draft.day });
      return;
    }
    const parsed = majorToMinor(draft.amount, draft.currency);
    const minor = parsed.ok ? parsed.minor : 0;
    if (!parsed.ok) problem(amountField(draft.kind), parsed.message);
    else if (minor === 0) problem(amountField(draft.kind), "Enter an amount above zero.");
    if (draft.kind === "ad_budget_change") {
      if (!draft.integrationId) problem("integration_id", "Pick the ad account.");
      changes.push({
        kind: "ad_budget_change",
        integration_id: draft.integrationId,
        delta_daily_minor: draft.direction === "lower" ? -minor : minor,
        currency: draft.currency,
        from: draft.day,
      });
      return;
    }
    changes.push({
      kind: draft.kind,
      amount_minor: minor,
      currency: draft.currency,
      on: draft.day,
      ...(draft.repeat === "once" ? {} : { billing_interval: draft.repeat }),
    });
  });
  return { changes, errors };
}

/** Where a server issue goes: a change's field or row, the horizon, or (null) the summary above the form. */
export function simulationFieldOf(issue: TFieldIssue): { field: string; message?: string } | null {
  const match = /^changes\.(\d+)(?:\.(\w+))?$/.exec(issue.path);
  if (match) return { field: match[2] ? changeField(Number(match[1]), match[2]) : `changes.${match[1]}` };
  if (issue.path === "horizon") return { field: "horizon" };
  return null;
}
