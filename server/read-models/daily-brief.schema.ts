// The daily brief's contract (pinned-wave2 §2.11).
import { z } from "zod";
import { ZAlert } from "../integrations/integration.schema";
import { ZCurrency, ZDate, ZStoredDate, ZTimestamp, ZUuid } from "../shared/schemas";
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

/** The day's events listed (the largest by |base amount|). */
export const BRIEF_LARGEST_LIMIT = 5;
/** The day's alerts listed, newest first. */
export const BRIEF_ALERTS_LIMIT = 20;
/** upcoming_7_days: [date, date + 6]. */
export const BRIEF_UPCOMING_DAYS = 7;

export const ZDailyBriefQuery = ZDisplayCurrencyQuery.extend({
  date: ZDate.optional().describe(
    "The owner's day the brief is for (their timezone). Default: today there. After today: 400 validation_error naming date.",
  ),
});
export type TDailyBriefQuery = z.infer<typeof ZDailyBriefQuery>;

const ZFlow = { in_minor: ZMinor, out_minor: ZMinor, net_minor: ZMinor.describe("in_minor − out_minor.") };

export const ZBriefEvent = z
  .object({
    id: ZUuid,
    type: z.string(),
    amount_minor: ZMinor.describe("In the event's own currency."),
    currency: ZCurrency,
    base_amount_minor: ZMinor.describe("In the base currency (the frozen conversion), whatever display_currency asks."),
    description: z.string().nullable(),
    business_id: ZUuid.nullable().describe("null for a personal event."),
  })
  .meta({ id: "DailyBriefEvent" });

export const COVERAGE_WARNING_STATUSES = ["incomplete", "missing"] as const;

export const ZDailyBrief = ZAggregateCurrencies.extend({
  date: ZStoredDate.describe("The owner's day the brief is for."),
  timezone: z.string().describe("The owner's timezone the day is counted in (an unknown zone counts as UTC)."),
  generated_at: ZTimestamp.describe("When this answer was computed (briefs are computed on demand, never stored)."),
  day: z
    .object({
      ...ZFlow,
      events: z.number().int().describe("Counted actuals with a direction (K3, K4) dated date, as known at its end."),
      largest: z.array(ZBriefEvent).describe(`The day's ${BRIEF_LARGEST_LIMIT} largest of those by |base amount| (ties: id).`),
    })
    .describe("Counted actuals dated date, by direction, as known at the end of date."),
  month_to_date: z
    .object({ from: ZStoredDate, ...ZFlow })
    .describe("Counted actuals from the 1st of date's month to date, as known at the end of date."),
  cash: ZCash.describe("K6 at the end of date: the latest snapshot per account with as_of before the day ended."),
  runway: ZRunway.describe("K8 with R = date: that cash against the net burn of [date − 89, date] as known then."),
  change_vs_previous_day: z
    .object({
      net_minor: ZMinor.describe("day.net_minor − the previous day's net (both as known at the end of date)."),
      cash_minor: ZMinor.nullable().describe(
        "cash at the end of date − cash at the end of the day before; null when either is null.",
      ),
    })
    .describe("What changed since the day before."),
  upcoming_7_days: z
    .array(ZCommitmentItem)
    .describe(
      "K7 commitments of [date, date + 6] as known at the end of date (planned events open then, dated date when overdue; " +
        "subscription charges), in and out, date ascending.",
    ),
  new_alerts: z
    .array(ZAlert)
    .describe(`Alerts created during date (owner's timezone), newest first, at most ${BRIEF_ALERTS_LIMIT}.`),
  pending_approvals: z
    .object({
      count: z.number().int().describe("Approvals pending at the end of date: created by then, not decided before it."),
      oldest_created_at: ZTimestamp.nullable().describe("The oldest of them; null when none."),
    })
    .describe("What waited for the owner when the day ended."),
  agent_activity: z
    .object({
      auto_approved: z
        .number()
        .int()
        .describe("Agent writes executed within their grants' limits during date (approvals auto_approved)."),
      held: z
        .number()
        .int()
        .describe("Agent writes held for the owner's approval during date (write approvals, whatever became of them)."),
      decisions: z.number().int().describe("Agent decisions dated date (agent_action events), as known at its end."),
    })
    .describe("What agents did during date."),
  coverage_warnings: z
    .array(
      z.object({
        domain: z.enum(COVERAGE_DOMAINS),
        status: z.enum(COVERAGE_WARNING_STATUSES),
      }),
    )
    .describe("The owner's domains with a source whose coverage (K9) was incomplete or missing at the end of date."),
  headline: z
    .string()
    .describe(
      "One sentence in the owner's locale: \"<date>: in <in>, out <out>, net <net>. Cash <cash | unknown>. " +
        "Runway <N days | not burning | unknown>. <k> approval(s) waiting.\" (the day's flows, amounts in data.currency).",
    ),
}).meta({ id: "DailyBrief" });
export type TDailyBrief = z.infer<typeof ZDailyBrief>;

export const ZDailyBriefResponse = zAggregateEnvelope(ZDailyBrief, COVERAGE_DOMAINS);
export type TDailyBriefResponse = z.infer<typeof ZDailyBriefResponse>;
