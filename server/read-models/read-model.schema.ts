// The shapes every read model shares (pinned-wave2 §1.4, §2.2): query parameters, Cash,
// Runway, CommitmentItem, ratios, the envelope's coverage and provenance_summary, and the
// envelope of an aggregate ({ data, fx, coverage }).
import { z } from "zod";
import { divideHalfEven } from "../fx/money";
import { ZFxSummary, ZFxUsed } from "../fx/fx.schema";
import { ZCurrency, ZDate, ZStoredDate, ZTimestamp, ZUuid } from "../shared/schemas";

// --- Query parameters -------------------------------------------------------------------

/** `display_currency` (§2.2): 3 upper-case letters, else 400; not covered → 422 currency_unsupported. */
export const ZDisplayCurrencyQuery = z.object({
  display_currency: ZCurrency.optional().describe(
    "Show amounts in this currency, converted once from the base currency at today's current rate (default: the base " +
      "currency). A currency the rate source does not cover answers 422 currency_unsupported; no rate 422 fx_unavailable.",
  ),
});

/** `from`, `to` (K1): inclusive days on occurred_on. */
export const ZPeriodQuery = z.object({
  from: ZDate.optional().describe("First day (inclusive, on occurred_on). Default: to − 29."),
  to: ZDate.optional().describe("Last day (inclusive). Default: today in the owner's timezone."),
});

/** The description text of a period query, for the OpenAPI descriptions. */
export const PERIOD_RULES =
  "from and to are inclusive days on occurred_on; default [today − 29, today] in the owner's timezone (an unknown zone " +
  "counts as UTC); only from → to = today; only to → from = to − 29; from after to, or more than 366 days, answers 400 " +
  "validation_error naming from.";

// --- Money shapes ---------------------------------------------------------------------------

/** JSON minor units (integers). */
export const ZMinor = z.number().int();

/** Cash (K6): the latest snapshot per account of the scope at the current rate; null when there is none. */
export const ZCash = z
  .object({
    amount_minor: ZMinor.describe("Σ of the latest snapshot of each account, each at today's rate (half even)."),
    as_of: ZTimestamp.describe("The oldest as_of among the snapshots used."),
  })
  .nullable()
  .meta({ id: "Cash" });
export type TCash = z.infer<typeof ZCash>;

/** Runway (K8). */
export const ZRunway = z
  .object({
    days: z.number().int().nullable().describe("floor(cash × 90 / net_burn_90); null unless finite."),
    runs_out_on: ZStoredDate.nullable().describe("The reference day + days; null unless finite."),
    status: z
      .enum(["finite", "not_burning", "unknown"])
      .describe("unknown: no cash; not_burning: 90-day net burn ≤ 0; finite otherwise (0 days when cash ≤ 0)."),
  })
  .meta({ id: "Runway" });
export type TRunway = z.infer<typeof ZRunway>;

/** CommitmentItem (K7). */
export const ZCommitmentItem = z
  .object({
    kind: z.enum(["planned", "subscription"]),
    id: ZUuid.describe("The planned event's id, or the subscription's."),
    name: z.string(),
    date: ZStoredDate.describe("The day it is due; an overdue planned event is dated today."),
    direction: z.enum(["in", "out"]),
    amount_minor: ZMinor.describe("In the original currency (a project's share for an allocated subscription)."),
    currency: ZCurrency,
    base_amount_minor: ZMinor.describe("In the base currency at today's rate (half even)."),
    overdue: z.boolean(),
    share_bps: z.number().int().nullable().describe("A project's share of an allocated subscription, else null."),
  })
  .meta({ id: "CommitmentItem" });
export type TCommitmentItem = z.infer<typeof ZCommitmentItem>;

// --- Ratios -------------------------------------------------------------------------------

/** A ratio: a JSON number with at most 4 decimals; null when the denominator is 0. */
export const ZRatio = z.number().nullable();

/** n / d as a ratio: divideHalfEven(n × 10000, d) / 10000, null when d = 0 (§1.4). */
export function ratio(numerator: bigint, denominator: bigint): number | null {
  if (denominator === 0n) return null;
  return Number(divideHalfEven(numerator * 10_000n, denominator)) / 10_000;
}

// --- Coverage (K9) ------------------------------------------------------------------------

/** Best to worst. */
export const COVERAGE_STATUSES = ["accurate", "mostly_covered", "incomplete", "missing"] as const;
export const ZCoverageStatus = z.enum(COVERAGE_STATUSES).meta({ id: "CoverageStatus" });
export type TCoverageStatus = z.infer<typeof ZCoverageStatus>;

export const COVERAGE_DOMAINS = ["cash", "revenue", "ads", "billing", "expenses"] as const;
export type TCoverageDomain = (typeof COVERAGE_DOMAINS)[number];

/** The envelope's `coverage` of a read model: `{ overall, <domain>: status }` for its domains. */
export function zCoverageOf<D extends TCoverageDomain>(domains: readonly D[]) {
  const shape = Object.fromEntries(domains.map((d) => [d, ZCoverageStatus])) as Record<D, typeof ZCoverageStatus>;
  return z
    .object({ overall: ZCoverageStatus, ...shape })
    .describe(
      `How fresh the data behind this answer is (K9), for the domains ${domains.join(", ")}: accurate, mostly_covered, ` +
        "incomplete or missing; overall = the worst domain with a source, else missing. Details: GET /v1/coverage.",
    );
}

// --- Provenance summary -----------------------------------------------------------------

/** Below this confidence an event counts as low-confidence (an unlinked refund is at most 0.9). */
export const LOW_CONFIDENCE_BELOW = 1;

export const ZProvenanceSummary = z
  .object({
    events: z.number().int().describe("Events counted."),
    by_source_type: z.record(z.string(), z.number().int()).describe("Events counted per source_type."),
    min_confidence: z.number().nullable().describe("The lowest confidence among them; null when none."),
    low_confidence_events: z.number().int().describe("Events counted with confidence below 1."),
  })
  .meta({ id: "ProvenanceSummary" });
export type TProvenanceSummary = z.infer<typeof ZProvenanceSummary>;

// --- Envelope -----------------------------------------------------------------------------

export { ZFxSummary, ZFxUsed };

/** `fx_used[]` in data: every distinct rate used, base → display included. */
export const ZFxUsedList = z.array(ZFxUsed).describe("Each distinct rate used (identity excluded), base → display included.");

/** The envelope of an aggregate: `{ data, fx, coverage }` (request_id is added by the REST layer). */
export function zAggregateEnvelope<T extends z.ZodType, D extends TCoverageDomain>(data: T, domains: readonly D[]) {
  return z.object({ data, fx: ZFxSummary, coverage: zCoverageOf(domains) });
}

/** The same with `provenance_summary` (event aggregates). */
export function zEventAggregateEnvelope<T extends z.ZodType, D extends TCoverageDomain>(data: T, domains: readonly D[]) {
  return z.object({ data, fx: ZFxSummary, coverage: zCoverageOf(domains), provenance_summary: ZProvenanceSummary });
}

/** The start of every aggregate's data (§1.4): the display currency and the base. */
export const ZAggregateCurrencies = z.object({
  currency: ZCurrency.describe("The currency of every amount below (display_currency, default the base currency)."),
  base_currency: ZCurrency.describe("The owner's base currency."),
});
