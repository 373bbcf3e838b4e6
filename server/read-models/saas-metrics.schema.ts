// The SaaS metrics answer (pinned-wave2 §2.7): MRR at the period's ends, its movements, the
// customers, churn and retention, ARR, ARPA, billing signals and the latest movements; plus
// `by_month` (additive: the movements and MRR of each calendar month of the period).
import { z } from "zod";
import { AMOUNT_RANGE_RULE } from "../fx/base-amounts";
import { ZCurrency, ZStoredDate, ZUuid } from "../shared/schemas";
import {
  PERIOD_RULES,
  ZAggregateCurrencies,
  ZDisplayCurrencyQuery,
  ZFxUsedList,
  ZMinor,
  ZPeriodQuery,
  ZRatio,
  zEventAggregateEnvelope,
} from "./read-model.schema";

/** The domains a SaaS answer's envelope reports (§2.7 "Coverage"). */
export const SAAS_COVERAGE_DOMAINS = ["billing", "revenue"] as const;

/** What a movement is, from payload.change (`churn`, as billing_a and billing_b send it, is churned). */
export const MOVEMENT_KINDS = ["new", "expansion", "reactivation", "contraction", "churned"] as const;
export type TMovementKind = (typeof MOVEMENT_KINDS)[number];

/** The signal codes counted (integration signals of the business in the period). */
export const SAAS_SIGNAL_CODES = ["subscription_past_due", "subscription_churned", "payment_failed"] as const;

/** How many movements the answer lists (the newest); the rest through GET /v1/events?type=subscription_change. */
export const LATEST_MOVEMENTS = 100;

export const ZSaasMetricsQuery = ZPeriodQuery.extend(ZDisplayCurrencyQuery.shape);

const ZMovementSums = z.object({
  new_minor: ZMinor.describe("Σ deltas of change new."),
  expansion_minor: ZMinor.describe("Σ deltas of change expansion (and of events without a known change whose delta ≥ 0)."),
  reactivation_minor: ZMinor.describe("Σ deltas of change reactivation."),
  contraction_minor: ZMinor.describe("|Σ deltas| of change contraction (and of events without a known change whose delta < 0)."),
  churned_minor: ZMinor.describe("|Σ deltas| of change churned (or churn)."),
  net_new_minor: ZMinor.describe("new + expansion + reactivation − contraction − churned."),
});

export const ZSaasMovement = z
  .object({
    event_id: ZUuid,
    occurred_on: ZStoredDate,
    customer_id: z.string().nullable().describe("payload.customer_id."),
    subscription_id: z.string().nullable().describe("payload.subscription_id (the provider's id)."),
    change: z
      .enum(MOVEMENT_KINDS)
      .describe("The movement it counts as (payload.change; churn → churned; missing → by the delta's sign)."),
    mrr_delta_minor: ZMinor.describe("The event's amount_minor: the MRR change, in `currency`."),
    mrr_minor: ZMinor.nullable().describe("payload.mrr_minor: the subscription's MRR after the change, in `currency`."),
    currency: ZCurrency,
    plan: z.string().nullable().describe("payload.plan."),
  })
  .meta({ id: "SaasMovement" });
export type TSaasMovement = z.infer<typeof ZSaasMovement>;

export const ZSaasMetrics = ZAggregateCurrencies.extend({
  business_id: ZUuid,
  from: ZStoredDate,
  to: ZStoredDate,
  mrr_start_minor: ZMinor.describe("MRR(S), S = from − 1: Σ of the positive MRR_k(S)."),
  mrr_end_minor: ZMinor.describe("MRR(E), E = to."),
  arr_minor: ZMinor.describe("12 × MRR(E) + Σ mrr_remainder_minor of the subscriptions counted in MRR(E)."),
  arpa_minor: ZMinor.nullable().describe("MRR(E) / customers.active_end, half even; null without active customers."),
  movements_summary: ZMovementSums.extend({
    net_new_minor: ZMinor.describe(
      "new + expansion + reactivation − contraction − churned, in the base currency. With display_currency: the shown " +
        "MRR(E) − MRR(S) plus the base's difference net_new − (MRR(E) − MRR(S)) converted, so it equals the shown " +
        "mrr_end_minor − mrr_start_minor whenever consistent; the shown movements may miss it by display_rounding_minor.",
    ),
    consistent: z
      .boolean()
      .describe(
        "net_new = MRR(E) − MRR(S), judged exactly on the figures in the base currency, before any display conversion. " +
          "false means they do not add up: events that disagree (an mrr_minor that disagrees with the deltas, a " +
          "subscription below zero), or per-currency sums whose conversions to the base round apart.",
      ),
    display_rounding_minor: ZMinor.describe(
      "Additive (issue 32): net_new_minor − (new + expansion + reactivation − contraction − churned) as shown. Each " +
        "figure is converted to display_currency on its own, so the shown movements may miss net_new by rounding; 0 " +
        "without display_currency.",
    ),
  }),
  customers: z.object({
    active_start: z.number().int().describe("Customers with a subscription whose MRR_k(S) > 0."),
    active_end: z.number().int().describe("The same at E."),
    new: z.number().int().describe("Customers whose first change new lies in the period."),
    churned: z.number().int().describe("Active at S, not at E."),
  }),
  rates: z.object({
    customer_churn_rate: ZRatio.describe("customers.churned / customers.active_start; null when none were active."),
    gross_mrr_churn_rate: ZRatio.describe("(churned + contraction) / MRR(S); null when MRR(S) = 0."),
    net_mrr_retention: ZRatio.describe("MRR(E) of the customers active at S / MRR(S); null when MRR(S) = 0."),
  }),
  signals: z
    .object(
      Object.fromEntries(SAAS_SIGNAL_CODES.map((code) => [code, z.number().int()])) as Record<
        (typeof SAAS_SIGNAL_CODES)[number],
        z.ZodNumber
      >,
    )
    .describe("Integration signals of the business with these codes whose occurred_at falls in the period (owner's timezone)."),
  movements: z.array(ZSaasMovement).describe(`The period's latest ${LATEST_MOVEMENTS} movements, newest first.`),
  movements_total: z.number().int().describe("All movements of the period (more via GET /v1/events?type=subscription_change)."),
  by_month: z
    .array(
      ZMovementSums.extend({
        month: z.string().describe("YYYY-MM."),
        from: ZStoredDate.describe("The month's first day within the period."),
        to: ZStoredDate.describe("The month's last day within the period."),
        mrr_end_minor: ZMinor.describe("MRR at the end of `to`."),
      }),
    )
    .describe(
      "Additive (not in the contract): each calendar month of the period, oldest first, with its movements and the MRR at " +
        "its last day. Each month's per-currency sums are converted on their own, so in a business with several currencies " +
        "the months may differ from the period's totals by rounding.",
    ),
  fx_used: ZFxUsedList,
}).meta({ id: "SaasMetrics" });
export type TSaasMetrics = z.infer<typeof ZSaasMetrics>;

export const ZSaasMetricsResponse = zEventAggregateEnvelope(ZSaasMetrics, SAAS_COVERAGE_DOMAINS);

export const SAAS_METRICS_RULES =
  "From the business's counted subscription_change events (state actual, status confirmed, not reconciled; voided never " +
  "count): amount_minor is the MRR change, payload customer_id, subscription_id, change, mrr_minor, plan, " +
  "mrr_remainder_minor. A subscription is keyed by (integration_id, payload.subscription_id), else (integration_id, " +
  "customer_id), and by currency. MRR_k(D) = mrr_minor of the key's latest event with occurred_on ≤ D (ties by created_at, " +
  "id), else the running Σ of its deltas; MRR(D) = Σ of the positive MRR_k(D); S = from − 1, E = to. Movements by change " +
  "(churn counts as churned; a missing or unknown change counts as expansion when the delta ≥ 0, else contraction): new, " +
  "expansion, reactivation = Σ deltas; contraction, churned = |Σ deltas|. A customer (customer_id within its integration; " +
  "a subscription without one is its own customer) is active at D when one of its subscriptions has MRR_k(D) > 0. " +
  "customer_churn_rate = churned / active_start; gross_mrr_churn_rate = (churned + contraction) / MRR(S); " +
  "net_mrr_retention = MRR(E) of customers active at S / MRR(S); rates are JSON numbers with at most 4 decimals " +
  "(half even), null when the denominator is 0. Amounts: sums per currency, each converted once to the base currency at " +
  "today's rate (half even); consistent is judged on these base figures; then each is converted to display_currency " +
  "once, net_new (as the shown MRR(E) − MRR(S) plus the base's inconsistency), arpa and the rates are recomputed from " +
  "the converted figures, and display_rounding_minor = net_new − Σ the shown movements. " +
  "Listed movements keep their own currency. Envelope: fx (FxSummary), coverage (billing, revenue), provenance_summary " +
  "(the period's subscription_change events). Agents need a finances:observe grant covering the business. " +
  AMOUNT_RANGE_RULE +
  " " +
  PERIOD_RULES;
