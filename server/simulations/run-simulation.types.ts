import type { TProcedureMeta } from "../trpc/meta";
import { FORECAST_RULES } from "../read-models/forecast.schema";
import { MAX_SIMULATION_CHANGES, ZSimulationInput, ZSimulationResponse } from "./simulation.schema";

export const runSimulationMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/simulations",
    tags: ["Simulations"],
    summary: "What if: the forecast with changes applied",
    description:
      "Runs the forecast (GET …/forecast) of a scope and window twice: as the books stand (baseline) and with up to " +
      `${MAX_SIMULATION_CHANGES} changes applied to its inputs (simulated). Writes nothing and is not audited; answers 200; no ` +
      "Idempotency-Key. Scope: at most one of business_id, project_id, personal: true (more answers 400; none = the whole " +
      "owner); a project counts its own records, its share of allocated subscriptions and its business's cash. Changes, " +
      "applied in order: add_expense / add_revenue (a committed out / in on `on`, today or later; with billing_interval " +
      "it rolls from `on` as a subscription's charges do: week +7 days, month, quarter, year on the anchor day clamped " +
      "to the month end); cancel_subscription (its charges from `from`, default today, are dropped; planned events stay); " +
      "change_subscription (its charges from `from` cost amount_minor, in its currency; a project pays its share); " +
      "add_reservation; release_reservation (amount_minor, default all that remains; more than remains answers 400); " +
      "ad_budget_change (a committed out of delta_daily_minor every day from `from`; an ad integration, social_ads or " +
      "search_ads, of the scope's business; the whole owner: any). A subscription, reservation or integration that does " +
      "not exist or is another owner's answers 404; one outside the scope 400 naming changes.<i>. Each added amount is " +
      "valued at today's rate (half even) like every commitment. An empty changes answers the baseline as simulated " +
      "(every delta 0). SimTotals: committed in and out and the run rate over [from, to] (the forecast's totals), " +
      "reserved, the committed line's ending and lowest balance and its day, the first day it is below 0, and " +
      "free_capital = cash − reserved − every committed out of [today, to] (overdue included, inflows never; null " +
      "without cash). days: both committed balance lines. Agents need grants of finances:observe and forecast:observe " +
      "covering the scope (the whole owner: `*`); without one, 403 scope_denied naming every scope missing " +
      "(details.required_scopes) and the resource. The forecast's rules: " +
      FORECAST_RULES,
  },
  experimental: true,
  idempotency: "exempt",
  planExpiry: "exempt",
};
export const ZRunSimulationRequest = ZSimulationInput;
export const ZRunSimulationResponse = ZSimulationResponse;
