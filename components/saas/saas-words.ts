// The SaaS tab's words: a month's name, a ratio as a percentage, what each movement and rate
// means in plain words. Formatting only: every figure is the API's (GET
// /v1/businesses/{id}/saas-metrics). No React: unit-tested in saas-words.test.ts.
import type { TMovementKind } from "@/server/read-models/saas-metrics.schema";

/** "2026-03" → "Mar 2026" in the owner's locale (read as UTC, so it never shifts). */
export function formatMonth(month: string, locale: string): string {
  const options: Intl.DateTimeFormatOptions = { month: "short", year: "numeric", timeZone: "UTC" };
  const date = new Date(`${month}-01T00:00:00Z`);
  try {
    return new Intl.DateTimeFormat(locale, options).format(date);
  } catch {
    return new Intl.DateTimeFormat("en-US", options).format(date);
  }
}

/** A ratio of the API (at most 4 decimals) as a percentage with up to 2 decimals; null → "—". */
export function formatRatio(ratio: number | null, locale: string): string {
  if (ratio === null) return "—";
  const options: Intl.NumberFormatOptions = { style: "percent", maximumFractionDigits: 2 };
  try {
    return new Intl.NumberFormat(locale, options).format(ratio);
  } catch {
    return new Intl.NumberFormat("en-US", options).format(ratio);
  }
}

/** Each movement's name, in the chart's legend, the tables and the list. */
export const MOVEMENT_LABELS: Record<TMovementKind, string> = {
  new: "New",
  expansion: "Expansion",
  reactivation: "Reactivation",
  contraction: "Contraction",
  churned: "Churned",
};

/** The rates, each with what it means. */
export const RATE_WORDS = {
  customer_churn_rate: {
    label: "Customer churn",
    definition: "Of the customers paying at the start, the share paying nothing at the end.",
  },
  gross_mrr_churn_rate: {
    label: "Gross MRR churn",
    definition: "MRR lost to cancellations and downgrades, as a share of the MRR at the start.",
  },
  net_mrr_retention: {
    label: "Net revenue retention",
    definition: "What the customers of the start pay at the end, upgrades included, as a share of what they paid at the start.",
  },
} as const;

/** Why a rate has no value: its denominator is zero. */
export function noRateWords(rate: keyof typeof RATE_WORDS): string {
  return rate === "customer_churn_rate" ? "No paying customers at the start." : "No MRR at the start.";
}
