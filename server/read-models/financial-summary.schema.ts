// The FinancialSummary answer (pinned-wave2 §2.4), shared by the business and personal operations.
import { z } from "zod";
import { AMOUNT_RANGE_RULE } from "../fx/base-amounts";
import { EVENT_TYPES } from "../../lib/event-types";
import { ZStoredDate, ZUuid } from "../shared/schemas";
import {
  PERIOD_RULES,
  ZAggregateCurrencies,
  ZCash,
  ZDisplayCurrencyQuery,
  ZFxUsedList,
  ZMinor,
  ZPeriodQuery,
  ZRunway,
  zEventAggregateEnvelope,
} from "./read-model.schema";
import { SUMMARY_COVERAGE_DOMAINS } from "./financial-summary";

export const ZFinancialSummaryQuery = ZPeriodQuery.extend(ZDisplayCurrencyQuery.shape);

const ZFlow = z.object({ in_minor: ZMinor, out_minor: ZMinor });

export const ZFinancialSummary = ZAggregateCurrencies.extend({
  scope: z.union([z.object({ business_id: ZUuid }), z.object({ personal: z.literal(true) })]),
  from: ZStoredDate,
  to: ZStoredDate,
  revenue_minor: ZMinor.describe("Σ revenue."),
  refunds_out_minor: ZMinor.describe("Σ refunds of revenue (direction out)."),
  ad_spend_minor: ZMinor.describe("Σ ad_spend."),
  net_revenue_minor: ZMinor.describe("revenue − refunds_out."),
  expenses_minor: ZMinor.describe("Σ expense + recurring_expense − refunds of costs (direction in)."),
  outflow_minor: ZMinor.describe("expenses + ad_spend."),
  net_minor: ZMinor.describe("net_revenue − outflow (= in − out)."),
  by_type: z
    .array(
      z.object({
        type: z.enum(EVENT_TYPES),
        direction: z
          .enum(["in", "out"])
          .nullable()
          .describe("Where the money goes; null for subscription_change and agent_action."),
        amount_minor: ZMinor,
        count: z.number().int(),
      }),
    )
    .describe("Per type (refunds per direction), sorted by type."),
  by_category: z.array(ZFlow.extend({ category: z.string().nullable() })).describe("Per category, null last."),
  by_project: z
    .array(ZFlow.extend({ project_id: ZUuid.nullable(), net_minor: ZMinor }))
    .optional()
    .describe("Business only: per project, null (business-level) last."),
  cash: ZCash.describe("Now (K6): the latest snapshot of each account of the scope, at today's rate; null without one."),
  runway: ZRunway.describe("Now: K8 with the reference day today and the cash above."),
  burn: z
    .object({
      monthly_net_minor: ZMinor,
      monthly_gross_minor: ZMinor,
      window_days: z.literal(90),
      window_to: ZStoredDate.describe("The period's to: the burn window is [to − 89, to]."),
    })
    .describe("K8 over the 90 days ending on to: net = (out − in) / 3 when positive, else 0; gross = out / 3 (half even)."),
  events_counted: z.number().int(),
  fx_used: ZFxUsedList,
}).meta({ id: "FinancialSummary" });

export const ZFinancialSummaryResponse = zEventAggregateEnvelope(ZFinancialSummary, SUMMARY_COVERAGE_DOMAINS);

export const FINANCIAL_SUMMARY_RULES =
  "The counted actual events of the period (state actual, status confirmed, not reconciled; voided events never count), " +
  "summed in the base currency from their frozen base amounts. revenue_minor = Σ revenue; refunds_out_minor = Σ refund " +
  "direction out; ad_spend_minor = Σ ad_spend; net_revenue_minor = revenue − refunds_out; expenses_minor = Σ expense + " +
  "recurring_expense − refund direction in; outflow_minor = expenses + ad_spend; net_minor = net_revenue − outflow (= in − " +
  "out). Amounts sum as stored (a credit may be negative). With display_currency the components (revenue, refund out, " +
  "expense, recurring_expense, refund in, ad_spend, cash, burn) are converted once at today's rate and the derived fields " +
  "recomputed from them, so the identities hold in every currency; breakdowns are converted item by item and add up " +
  "exactly in the base currency only. cash and runway are as of now (runway over the 90 days to today); burn is over the " +
  "90 days to `to`. Envelope: fx (FxSummary), coverage (cash, revenue, expenses), provenance_summary (low_confidence_events: " +
  "confidence below 1). A missing rate answers 422 fx_unavailable, an uncovered currency 422 currency_unsupported. " +
  AMOUNT_RANGE_RULE +
  " " +
  PERIOD_RULES;
