// The forecast's contract (pinned-wave2 §2.5): its query and its data, shared by the three
// forecast operations (a business, personal, the whole owner).
import { z } from "zod";
import { AMOUNT_RANGE_RULE } from "../fx/base-amounts";
import { ZDate, ZStoredDate, ZUuid, zQueryNumber } from "../shared/schemas";
import { FORECAST_HORIZONS, forecastParameterProblem } from "./forecast-window";
import {
  ZAggregateCurrencies,
  ZCash,
  ZCommitmentItem,
  ZDisplayCurrencyQuery,
  ZFxUsedList,
  ZMinor,
  zAggregateEnvelope,
} from "./read-model.schema";

export const FORECAST_COVERAGE = ["cash", "revenue", "expenses"] as const;

export const FORECAST_RULES =
  "Window: horizon ∈ {7, 30, 90} (default 30) gives [today, today + horizon − 1] in the owner's timezone; or from and to " +
  "together, today ≤ from ≤ to, to − from ≤ 365 (one of them alone, or either with horizon, answers 400 naming the " +
  "field). The projection starts today; the days before from are summed in opening. Committed (K7): planned events " +
  "due by to (one before today is dated today, overdue: true; fulfilled, voided and reconciled ones never count) and " +
  "the charges of active subscriptions rolled from next_charge_on (week +7 days; month, quarter, year on the anchor day " +
  "clamped to the month end), none before today, none on a day a confirmed event of that subscription is dated; and " +
  "each day a campaign has a known daily budget, that budget (from the effective_on of its latest planned or applied " +
  "ad budget change; a failed one never counts; a newer change replaces an older one from its own effective_on), " +
  "listed as one ad_budget item per campaign (totals.ad_budgets_minor). Reserved: Σ amount − released of active reservations not expired before today. Run rate: T_in = counted in actuals, " +
  "T_out = counted out actuals of ad_spend, expense and refund out, over [today − 89, today], less the ad_spend of the " +
  "campaigns whose budgets are commitments (by integration and payload.campaign_id); day k (today = 0) gets " +
  "floor((k+1)·T/90) − floor(k·T/90), so any span sums exactly. balance_committed(d) = cash − reserved + opening net + " +
  "Σ from..d (committed_in − committed_out); balance_with_run_rate(d) adds the opening and daily run-rate nets; both " +
  "null without cash. lowest_balance is on the committed line (the earliest day on a tie). totals cover [from, to]. " +
  "items are the commitments dated in [from, to] with base_amount_minor in the base currency at today's rate (half " +
  "even); an ad budget item is one campaign's known daily budget over the days of the window it covers (from, to). " +
  "With display_currency every other figure is converted once from the base: cash, reserved, T_in, T_out, the " +
  "opening figures and the window's totals (committed in and out then recomputed from their parts, and the ending " +
  "balances from those), and each day's figures one by one, so in a display currency the days need not add up to the " +
  "totals (in the base they do); lowest_balance is its day's converted balance. A missing rate answers 422 " +
  "fx_unavailable. " +
  AMOUNT_RANGE_RULE +
  " Envelope coverage: cash, revenue, expenses.";

export const ZForecastQuery = ZDisplayCurrencyQuery.extend({
  horizon: zQueryNumber()
    .refine((value) => (FORECAST_HORIZONS as readonly number[]).includes(value), { message: "must be 7, 30 or 90" })
    .optional()
    .describe("7, 30 or 90 days from today (default 30). Not with from/to."),
  from: ZDate.optional().describe("First day listed (today ≤ from); with to, not with horizon."),
  to: ZDate.optional().describe("Last day listed (from ≤ to ≤ from + 365); with from, not with horizon."),
}).superRefine((value, ctx) => {
  const problem = forecastParameterProblem(value);
  if (problem) ctx.addIssue({ code: "custom", path: [problem.path], message: problem.message });
});
export type TForecastQuery = z.infer<typeof ZForecastQuery>;

const ZCommittedSums = {
  committed_in_minor: ZMinor,
  committed_out_minor: ZMinor,
  run_rate_in_minor: ZMinor,
  run_rate_out_minor: ZMinor,
};

export const ZForecastScope = z
  .union([
    z.object({ business_id: ZUuid }).strict(),
    z.object({ personal: z.literal(true) }).strict(),
    z.object({ owner: z.literal(true) }).strict(),
  ])
  .describe("{ business_id } | { personal: true } | { owner: true }.");

export const ZForecast = ZAggregateCurrencies.extend({
  scope: ZForecastScope,
  today: ZStoredDate.describe("Today in the owner's timezone: day k = 0 of the projection."),
  from: ZStoredDate,
  to: ZStoredDate,
  horizon_days: z.number().int().describe("Days listed: to − from + 1 (the horizon when one was given)."),
  starting_cash: ZCash,
  reserved_minor: ZMinor,
  opening: z.object(ZCommittedSums).describe("The days [today, from − 1] summed (all zero when from is today)."),
  days: z.array(
    z.object({
      date: ZStoredDate,
      ...ZCommittedSums,
      balance_committed_minor: ZMinor.nullable(),
      balance_with_run_rate_minor: ZMinor.nullable(),
    }),
  ),
  totals: z.object({
    planned_in_minor: ZMinor,
    planned_out_minor: ZMinor,
    subscriptions_minor: ZMinor,
    ad_budgets_minor: ZMinor.describe("Campaigns' known daily budgets over the window's days (part of committed_out)."),
    ...ZCommittedSums,
  }),
  ending_balance_committed_minor: ZMinor.nullable(),
  ending_balance_with_run_rate_minor: ZMinor.nullable(),
  lowest_balance: z.object({ date: ZStoredDate, amount_minor: ZMinor }).nullable(),
  items: z.array(ZCommitmentItem),
  run_rate: z.object({
    window_from: ZStoredDate,
    window_to: ZStoredDate,
    in_minor: ZMinor.describe("T_in."),
    out_minor: ZMinor.describe("T_out."),
  }),
  fx_used: ZFxUsedList,
}).meta({ id: "Forecast" });
export type TForecast = z.infer<typeof ZForecast>;

export const ZForecastResponse = zAggregateEnvelope(ZForecast, FORECAST_COVERAGE);
