// Simulations' contract (pinned-wave2 §3.5): the body of POST /v1/simulations (a scope, a window
// as the forecast's, 0 to 50 changes) and the answer (the baseline forecast's totals against the
// changed one's, their difference and both balance lines day by day).
import { z } from "zod";
import { BILLING_INTERVALS } from "../read-models/commitments-calendar";
import { FORECAST_COVERAGE } from "../read-models/forecast.schema";
import { FORECAST_HORIZONS, forecastParameterProblem } from "../read-models/forecast-window";
import { ZAggregateCurrencies, ZFxUsedList, ZMinor, zAggregateEnvelope } from "../read-models/read-model.schema";
import { ZAmountMinor, ZCurrency, ZDate, ZStoredDate, ZUuid } from "../shared/schemas";

export const MAX_SIMULATION_CHANGES = 50;
/** An agent needs grants of both, covering the scope. */
export const SIMULATION_SCOPES = ["finances:observe", "forecast:observe"] as const;
export const SIMULATION_COVERAGE = FORECAST_COVERAGE;

// gt, not a refine: the OpenAPI document says exclusiveMinimum 0 for it.
const ZPositiveMinor = ZAmountMinor.gt(0, { message: "must be greater than 0" });
const ZBillingInterval = z.enum(BILLING_INTERVALS);

const ZAddition = {
  amount_minor: ZPositiveMinor,
  currency: ZCurrency,
  on: ZDate.describe("The day it falls due (today or later); with billing_interval, the first charge and the anchor."),
  billing_interval: ZBillingInterval.optional().describe(
    "Repeats from `on` as a subscription charges (K7): week +7 days; month, quarter, year on the anchor day, clamped to the month end.",
  ),
};

export const ZSimulationChange = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("add_expense"), ...ZAddition }).describe("A new cost: a committed out."),
    z.object({ kind: z.literal("add_revenue"), ...ZAddition }).describe("New revenue: a committed in."),
    z
      .object({
        kind: z.literal("cancel_subscription"),
        subscription_id: ZUuid,
        from: ZDate.optional().describe("Its charges from this day (today or later; default today) are dropped."),
      })
      .describe("Cancels a subscription of the scope."),
    z
      .object({
        kind: z.literal("change_subscription"),
        subscription_id: ZUuid,
        amount_minor: ZPositiveMinor.describe("The new amount of each charge, in the subscription's currency."),
        from: ZDate.optional().describe("Charges from this day (today or later; default today) cost the new amount."),
      })
      .describe("A new price for a subscription of the scope (a project: its share of it)."),
    z
      .object({ kind: z.literal("add_reservation"), amount_minor: ZPositiveMinor, currency: ZCurrency })
      .describe("Reserves more."),
    z
      .object({
        kind: z.literal("release_reservation"),
        reservation_id: ZUuid,
        amount_minor: ZPositiveMinor.optional().describe("Default: all that remains reserved."),
      })
      .describe("Releases (part of) a reservation of the scope."),
    z
      .object({
        kind: z.literal("ad_budget_change"),
        integration_id: ZUuid.describe("An ad integration (social_ads, search_ads) of the scope's business."),
        delta_daily_minor: ZAmountMinor.refine((value) => value !== 0, { message: "must not be 0" }).describe(
          "The change of the daily budget: a committed out every day from `from` (negative: less spent).",
        ),
        currency: ZCurrency,
        from: ZDate.describe("The first day of the new budget (today or later)."),
      })
      .describe("Raises or lowers an ad budget."),
  ])
  .meta({ id: "SimulationChange" });
export type TSimulationChange = z.infer<typeof ZSimulationChange>;

const SCOPE_MESSAGE = "give at most one of business_id, project_id or personal: true (none: the whole owner)";

export const ZSimulationInput = z
  .object({
    business_id: ZUuid.optional().describe("A business: its records and cash. At most one of business_id, project_id, personal."),
    project_id: ZUuid.optional().describe(
      "A project: its own records and its share of allocated subscriptions; its business's cash.",
    ),
    personal: z.literal(true).optional().describe("true: the owner's personal finances."),
    horizon: z
      .number()
      .int()
      .refine((value) => (FORECAST_HORIZONS as readonly number[]).includes(value), { message: "must be 7, 30 or 90" })
      .optional()
      .describe("7, 30 or 90 days from today (default 30). Not with from/to."),
    from: ZDate.optional().describe("First day listed (today ≤ from); with to, not with horizon."),
    to: ZDate.optional().describe("Last day listed (from ≤ to ≤ from + 365); with from, not with horizon."),
    display_currency: ZCurrency.optional().describe(
      "Show amounts in this currency, converted once from the base currency at today's current rate (default: the base currency).",
    ),
    changes: z
      .array(ZSimulationChange)
      .max(MAX_SIMULATION_CHANGES, { message: `at most ${MAX_SIMULATION_CHANGES} changes` })
      .describe(`0 to ${MAX_SIMULATION_CHANGES} changes, applied in order; none answers the baseline as simulated.`),
  })
  // Runs even when a field failed, so every problem of the body is answered at once.
  .superRefine(
    (value, ctx) => {
      if (typeof value !== "object" || value === null) return;
      const given = [value.business_id !== undefined, value.project_id !== undefined, value.personal === true].filter(Boolean);
      if (given.length > 1) ctx.addIssue({ code: "custom", path: ["business_id"], message: SCOPE_MESSAGE });
      const problem = forecastParameterProblem(value);
      if (problem) ctx.addIssue({ code: "custom", path: [problem.path], message: problem.message });
    },
    { when: () => true },
  )
  .meta({ id: "SimulationInput" });
export type TSimulationInput = z.infer<typeof ZSimulationInput>;

const ZSimTotals = z
  .object({
    committed_in_minor: ZMinor.describe("Committed in over [from, to]."),
    committed_out_minor: ZMinor.describe("Committed out over [from, to]."),
    reserved_minor: ZMinor,
    run_rate_in_minor: ZMinor.describe("The run rate's in over [from, to]."),
    run_rate_out_minor: ZMinor.describe("The run rate's out over [from, to]."),
    ending_balance_committed_minor: ZMinor.nullable().describe("The committed balance at the end of to; null without cash."),
    lowest_balance_minor: ZMinor.nullable().describe("The committed line's lowest day in [from, to]; null without cash."),
    lowest_balance_on: ZStoredDate.nullable().describe("Its day (the earliest on a tie)."),
    first_negative_on: ZStoredDate.nullable().describe(
      "The first day in [from, to] the committed balance is below 0; null if none.",
    ),
    free_capital_minor: ZMinor.nullable().describe(
      "cash − reserved − every committed out of [today, to] (overdue ones included, inflows never); null without cash.",
    ),
  })
  .meta({ id: "SimTotals" });
export type TSimTotals = z.infer<typeof ZSimTotals>;

const ZSimDelta = z
  .object({
    committed_in_minor: ZMinor,
    committed_out_minor: ZMinor,
    reserved_minor: ZMinor,
    run_rate_in_minor: ZMinor,
    run_rate_out_minor: ZMinor,
    ending_balance_committed_minor: ZMinor.nullable(),
    lowest_balance_minor: ZMinor.nullable(),
    free_capital_minor: ZMinor.nullable(),
  })
  .describe("simulated − baseline for each amount (null when either is null).");
export type TSimDelta = z.infer<typeof ZSimDelta>;

export const ZSimulation = ZAggregateCurrencies.extend({
  scope: z
    .union([
      z.object({ business_id: ZUuid }).strict(),
      z.object({ project_id: ZUuid, business_id: ZUuid }).strict(),
      z.object({ personal: z.literal(true) }).strict(),
      z.object({ owner: z.literal(true) }).strict(),
    ])
    .describe("{ business_id } | { project_id, business_id } | { personal: true } | { owner: true }."),
  from: ZStoredDate,
  to: ZStoredDate,
  horizon_days: z.number().int().describe("Days listed: to − from + 1."),
  baseline: ZSimTotals.describe("The forecast as the books stand (GET …/forecast of the same scope and window)."),
  simulated: ZSimTotals.describe("The same projection with the changes applied to its inputs."),
  delta: ZSimDelta,
  days: z.array(
    z.object({
      date: ZStoredDate,
      baseline_balance_minor: ZMinor.nullable().describe(
        "The baseline's committed balance at the end of the day; null without cash.",
      ),
      simulated_balance_minor: ZMinor.nullable().describe("The simulated committed balance; null without cash."),
    }),
  ),
  fx_used: ZFxUsedList,
}).meta({ id: "Simulation" });
export type TSimulation = z.infer<typeof ZSimulation>;

export const ZSimulationResponse = zAggregateEnvelope(ZSimulation, SIMULATION_COVERAGE);
