// The business context's contract (pinned-wave2 §2.12).
import { z } from "zod";
import { ZGrantOut } from "../agents/agent.schema";
import { ZAlert } from "../integrations/integration.schema";
import { ZCurrency, ZTimestamp, ZUuid } from "../shared/schemas";
import { BILLING_INTERVALS } from "./commitments-calendar";
import {
  ZAggregateCurrencies,
  ZCommitmentItem,
  ZDisplayCurrencyQuery,
  ZMinor,
  ZRunway,
  COVERAGE_DOMAINS,
  zAggregateEnvelope,
} from "./read-model.schema";

export const ZBusinessContextQuery = ZDisplayCurrencyQuery;

export const ZBusinessContext = ZAggregateCurrencies.extend({
  business: z.object({ id: ZUuid, name: z.string(), currency: ZCurrency.describe("Its reporting currency.") }),
  projects: z.array(z.object({ id: ZUuid, name: z.string() })).describe("Its active projects, by name."),
  summary_30d: z
    .object({ net_revenue_minor: ZMinor, outflow_minor: ZMinor, net_minor: ZMinor })
    .describe("GET /v1/businesses/{id}/financial-summary over the last 30 days (today − 29 to today)."),
  forecast_30d_totals: z
    .object({
      committed_in_minor: ZMinor,
      committed_out_minor: ZMinor,
      run_rate_in_minor: ZMinor,
      run_rate_out_minor: ZMinor,
      ending_balance_committed_minor: ZMinor.nullable().describe("null without cash."),
    })
    .describe("GET /v1/businesses/{id}/forecast?horizon=30: its totals and its committed balance on the last day."),
  free_capital_30d_minor: ZMinor.nullable().describe("GET /v1/free-capital?business_id=…&horizon_days=30; null without cash."),
  runway: ZRunway.describe("The financial summary's: K8 with the reference day today."),
  top_subscriptions: z
    .array(
      z.object({
        id: ZUuid,
        name: z.string(),
        amount_minor: ZMinor.describe("Each charge, in its own currency."),
        currency: ZCurrency,
        billing_interval: z.enum(BILLING_INTERVALS),
        monthly_base_minor: ZMinor.describe(
          "Per month in the base currency: the charge at today's rate, then week × 52 / 12, quarter / 3, year / 12 (half even).",
        ),
      }),
    )
    .describe("Its 10 active subscriptions (its projects' included) with the highest monthly_base_minor, highest first."),
  upcoming_7_days: z
    .array(ZCommitmentItem)
    .describe("The forecast's commitments dated today to today + 6, both directions, date ascending (overdue ones dated today)."),
  open_alerts: z.array(ZAlert).describe("Its 10 latest alerts, newest first."),
  pending_approvals: z
    .number()
    .int()
    .describe(
      "Approvals waiting for the owner whose terms name this business: its id, one of its projects or integrations, or a grant on it.",
    ),
  integrations: z
    .array(
      z.object({
        id: ZUuid,
        provider: z.string(),
        status: z.string().describe("pending or active (disconnected ones are left out)."),
        last_sync_at: ZTimestamp.nullable(),
      }),
    )
    .describe("Its integrations that are not disconnected, oldest first."),
  agents: z
    .array(
      z.object({
        id: ZUuid,
        name: z.string(),
        status: z.enum(["active", "suspended"]),
        grants: z.array(ZGrantOut).describe("Only the grants covering the whole business (resource * or business:<id>)."),
      }),
    )
    .describe("The owner's agents (not revoked) with a grant covering the business, oldest first."),
}).meta({ id: "BusinessContext" });
export type TBusinessContext = z.infer<typeof ZBusinessContext>;

export const ZBusinessContextResponse = zAggregateEnvelope(ZBusinessContext, COVERAGE_DOMAINS);
