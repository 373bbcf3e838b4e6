// Project health's contract (pinned-wave2 §2.9).
import { z } from "zod";
import { AMOUNT_RANGE_RULE } from "../fx/base-amounts";
import { ZStoredDate, ZUuid } from "../shared/schemas";
import { PROJECT_HEALTH_COVERAGE } from "./project-health";
import { HEALTH_PENALTIES, HEALTH_STATUSES, HEALTHY_FROM, REASON_CODES, WATCH_FROM } from "./project-health-score";
import {
  PERIOD_RULES,
  ZAggregateCurrencies,
  ZDisplayCurrencyQuery,
  ZMinor,
  ZPeriodQuery,
  ZRatio,
  zAggregateEnvelope,
} from "./read-model.schema";

export const ZProjectHealthQuery = ZPeriodQuery.extend(ZDisplayCurrencyQuery.shape);

const ZCapacityItem = z.object({
  subscription_id: ZUuid,
  name: z.string().describe("The subscription's name."),
  unit: z.string(),
  total: z.number().int(),
  used: z.number().int(),
  utilization: ZRatio.describe("used / total (4 decimals); null when total is 0."),
});

export const ZProjectHealthRow = z
  .object({
    project_id: ZUuid.nullable().describe("null: the business-level row (what no project carries), always last."),
    name: z.string().nullable(),
    revenue_minor: ZMinor.describe("Counted in actuals (revenue, refunds of costs) − refunds of revenue."),
    direct_costs_minor: ZMinor.describe(
      "Its counted out actuals other than refunds of revenue (the business-level row: those no project carries).",
    ),
    allocated_costs_minor: ZMinor.describe(
      "Its share_bps part (largest remainder) of the business-level out actuals of subscriptions allocated over projects.",
    ),
    margin_minor: ZMinor.describe("revenue − direct_costs − allocated_costs."),
    margin_ratio: ZRatio.describe("margin / revenue (4 decimals); null when revenue is 0."),
    previous_margin_minor: ZMinor.describe("The margin of the previous period."),
    margin_change_minor: ZMinor.describe("margin − previous_margin."),
    capacity: z.object({
      max_utilization: ZRatio.describe("The highest utilization of its items; null without any."),
      items: z
        .array(ZCapacityItem)
        .describe("Capacities of its active subscriptions: its own and those allocated to it (shared ones appear in each)."),
    }),
    score: z.number().int().nullable().describe("0 to 100; null for insufficient_data and the business-level row."),
    status: z.enum(HEALTH_STATUSES).nullable().describe("null for the business-level row."),
    reasons: z
      .array(z.object({ code: z.enum(REASON_CODES), detail: z.string().describe("In words, with the figures behind it.") }))
      .describe("One per penalty taken (in the table's order), or insufficient_data; empty when nothing is wrong."),
  })
  .meta({ id: "ProjectHealth" });

export const ZProjectHealth = ZAggregateCurrencies.extend({
  business_id: ZUuid,
  from: ZStoredDate,
  to: ZStoredDate,
  previous: z.object({ from: ZStoredDate, to: ZStoredDate }).describe("Same length, ending the day before from."),
  projects: z.array(ZProjectHealthRow).describe("Projects by name, then the business-level row (project_id null)."),
});
export type TProjectHealth = z.infer<typeof ZProjectHealth>;

export const ZProjectHealthResponse = zAggregateEnvelope(ZProjectHealth, PROJECT_HEALTH_COVERAGE);

export const PROJECT_HEALTH_RULES =
  "One row per project of the business (archived ones only when they have figures in either period), by name, then " +
  "the business-level row (project_id null, no score) holding what no project carries, so the margins add up to the " +
  "business's net (in − out) of the period. Counted actuals only (state actual, confirmed, not reconciled), base " +
  "amounts. revenue = in − refunds of revenue; direct_costs = its out actuals other than refunds of revenue; " +
  "allocated_costs = its share_bps part, split by largest remainder so the parts add up exactly, of the business-level " +
  "out actuals linked to a subscription allocated over projects; margin = revenue − direct − allocated; margin_ratio = " +
  "margin / revenue. previous: the period of the same length ending the day before from. Score: 100 minus each " +
  `penalty met once, clamped to 0–100: negative_margin −${HEALTH_PENALTIES.negative_margin} (margin < 0); margin_drop ` +
  `−${HEALTH_PENALTIES.margin_drop} (previous margin > 0 and margin × 10 < previous × 8); capacity_near_full ` +
  `−${HEALTH_PENALTIES.capacity_near_full} (an item's used / total ≥ 0.9); capacity_underused ` +
  `−${HEALTH_PENALTIES.capacity_underused} (an item's used / total < 0.2); coverage_gap −${HEALTH_PENALTIES.coverage_gap} ` +
  "(the business's revenue or expenses coverage incomplete or missing). Comparisons are exact, on the base amounts " +
  `(the score does not change with display_currency). status: healthy (score ≥ ${HEALTHY_FROM}), watch ` +
  `(${WATCH_FROM}–${HEALTHY_FROM - 1}), at_risk (< ${WATCH_FROM}); insufficient_data (score null, one reason ` +
  "insufficient_data) when the project had no counted event with a direction in either period, its own or one it " +
  "carries a share of. reasons: { code, detail } per penalty taken, the detail in words with the base amounts. " +
  "Capacity: the active subscriptions with a capacity that are the project's own or allocated to it (the " +
  "business-level row: the business's unallocated ones); utilization = used / total. With display_currency the " +
  "revenue, direct and allocated amounts of both periods are converted once from the base and the margins " +
  "recomputed from them. Envelope: fx (FxSummary), coverage (revenue, expenses). " +
  AMOUNT_RANGE_RULE +
  " " +
  PERIOD_RULES;
