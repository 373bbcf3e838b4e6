// The Overview's contract (pinned-wave2 §2.10).
import { z } from "zod";
import { ZAlert } from "../integrations/integration.schema";
import { ZCurrency, ZStoredDate, ZUuid } from "../shared/schemas";
import {
  COVERAGE_DOMAINS,
  ZAggregateCurrencies,
  ZCash,
  ZCommitmentItem,
  ZDisplayCurrencyQuery,
  ZMinor,
  ZRunway,
  zAggregateEnvelope,
} from "./read-model.schema";

/** Upcoming costs listed (the total covers all of them). */
export const UPCOMING_COSTS_LIMIT = 20;
export const OVERVIEW_ALERTS_LIMIT = 10;
export const OVERVIEW_HORIZON_DAYS = 30;

export const ZOverviewQuery = ZDisplayCurrencyQuery;
export type TOverviewQuery = z.infer<typeof ZOverviewQuery>;

const ZFlow = { in_minor: ZMinor, out_minor: ZMinor, net_minor: ZMinor.describe("in_minor − out_minor.") };

export const ZOverview = ZAggregateCurrencies.extend({
  today: ZStoredDate.describe("Today in the owner's timezone."),
  cash: ZCash.describe("The whole owner's cash (K6): every business's and the personal accounts."),
  free_capital_30d_minor: ZMinor.nullable().describe(
    "GET /v1/free-capital of the whole owner over 30 days: cash − reserved − out commitments; null without cash.",
  ),
  runway: ZRunway,
  last_30_days: z.object(ZFlow).describe("Counted actuals of [today − 29, today]."),
  month_to_date: z.object({ from: ZStoredDate, ...ZFlow }).describe("Counted actuals from the 1st of this month to today."),
  upcoming_costs: z
    .array(ZCommitmentItem)
    .describe(`The out commitments of [today, today + 29], date ascending, at most ${UPCOMING_COSTS_LIMIT}.`),
  upcoming_total_minor: ZMinor.describe("Σ of ALL the out commitments of those 30 days (not only those listed)."),
  alerts: z.array(ZAlert).describe(`The latest ${OVERVIEW_ALERTS_LIMIT} alerts, newest first.`),
  pending_approvals: z.number().int().describe("Approvals waiting for the owner (status pending)."),
  unread_notifications: z.number().int().describe("The owner's unread notifications (read_at null), as Me.unread_notifications."),
  businesses: z
    .array(
      z.object({
        business_id: ZUuid,
        name: z.string(),
        currency: ZCurrency.describe("The business's own currency (amounts here are in data.currency)."),
        net_30d_minor: ZMinor.describe("Its counted in − out of [today − 29, today]."),
        cash_minor: ZMinor.nullable().describe("Its cash (K6); null without a snapshot."),
      }),
    )
    .describe("Every business of the owner, oldest first."),
}).meta({ id: "Overview" });
export type TOverview = z.infer<typeof ZOverview>;

export const ZOverviewResponse = zAggregateEnvelope(ZOverview, COVERAGE_DOMAINS);
