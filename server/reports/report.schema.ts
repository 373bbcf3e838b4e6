// Reports' contract (pinned-wave3 §4): the query and answer of GET /v1/reports/profit-and-loss
// and GET /v1/reports/cash-history.
import { z } from "zod";
import { AMOUNT_RANGE_RULE } from "../fx/base-amounts";
import {
  ZDisplayCurrencyQuery,
  ZMinor,
  zAggregateEnvelope,
  ZAggregateCurrencies,
  ZFxUsedList,
} from "../read-models/read-model.schema";
import { ZDate, ZStoredDate, ZUuid } from "../shared/schemas";
import { ZQueryBoolean } from "../shared/schemas";
import { MAX_REPORT_MONTHS, REPORT_INTERVALS } from "./report-period";

export const REPORT_GROUPS = ["type", "category", "business", "project"] as const;
export type TReportGroup = (typeof REPORT_GROUPS)[number];

export const REPORT_FORMATS = ["json", "csv", "xlsx"] as const;
export type TReportFormat = (typeof REPORT_FORMATS)[number];

/** The coverage domains a report's envelope reports. */
export const PNL_COVERAGE_DOMAINS = ["revenue", "expenses"] as const;
export const CASH_HISTORY_COVERAGE_DOMAINS = ["cash"] as const;

/** A report's scope: at most one of business_id, project_id, personal=true; none = the whole owner. */
const ZReportScopeFields = z.object({
  business_id: ZUuid.optional().describe("The business (its projects included)."),
  project_id: ZUuid.optional().describe("The project (its own events; cash: its business's)."),
  personal: ZQueryBoolean.optional().describe("true: the owner's personal finances."),
});

function atMostOneScope(value: z.infer<typeof ZReportScopeFields>, ctx: z.RefinementCtx) {
  const given = [value.business_id !== undefined, value.project_id !== undefined, value.personal === true].filter(Boolean);
  if (given.length > 1) {
    ctx.addIssue({
      code: "custom",
      path: ["business_id"],
      message: "give at most one of business_id, project_id or personal=true",
    });
  }
}

const ZReportRangeFields = z.object({
  from: ZDate.optional().describe(
    "First day (inclusive, on occurred_on). Default: the first day of the month 12 months before to's (the last 12 whole " +
      "months and the current one).",
  ),
  to: ZDate.optional().describe("Last day (inclusive). Default: today in the owner's timezone."),
});

const ZFormat = z
  .enum(REPORT_FORMATS)
  .default("json")
  .describe(
    "json (default): the envelope. csv: text/csv, formula-safe (a text cell starting with =, +, -, @, a tab or a " +
      "carriage return gets an apostrophe), amounts as exact decimals. xlsx: one worksheet with real numbers (major " +
      "units) and real dates.",
  );

export const REPORT_RANGE_RULES =
  "from and to are inclusive days on occurred_on; default the last 12 whole months and the current one, to today in the " +
  `owner's timezone; from after to, or more than ${MAX_REPORT_MONTHS} months, answers 400 validation_error naming from. ` +
  "Scope: at most one of business_id, project_id, personal=true (none: every business and the personal finances " +
  "together); another owner's or an unknown id answers 404. For the owner, and for agents whose finances:observe grant " +
  "covers the scope (the whole owner: only a grant on *); otherwise 403 scope_denied, audited.";

export const ZProfitAndLossQuery = ZReportScopeFields.extend(ZReportRangeFields.shape)
  .extend({
    interval: z.enum(REPORT_INTERVALS).default("month").describe("The periods' length (calendar months, quarters, years)."),
    group_by: z.enum(REPORT_GROUPS).default("category").describe("What a row is."),
    format: ZFormat,
  })
  .extend(ZDisplayCurrencyQuery.shape)
  .superRefine(atMostOneScope);
export type TProfitAndLossQuery = z.infer<typeof ZProfitAndLossQuery>;

export const ZCashHistoryQuery = ZReportScopeFields.extend(ZReportRangeFields.shape)
  .extend({ format: ZFormat })
  .extend(ZDisplayCurrencyQuery.shape)
  .superRefine(atMostOneScope);
export type TCashHistoryQuery = z.infer<typeof ZCashHistoryQuery>;

export const ZReportScope = z
  .union([
    z.object({ business_id: ZUuid }).strict(),
    z.object({ project_id: ZUuid, business_id: ZUuid }).strict(),
    z.object({ personal: z.literal(true) }).strict(),
    z.object({ owner: z.literal(true) }).strict(),
  ])
  .describe("{ business_id } | { project_id, business_id } | { personal: true } | { owner: true }.");

const ZPeriod = z.object({ start: ZStoredDate, end: ZStoredDate });

export const ZProfitAndLossRow = z.object({
  key: z
    .string()
    .nullable()
    .describe(
      "group_by=type: revenue, refunds_out, expense, recurring_expense, ad_spend, refunds_in (the financial summary's " +
        "components); category: the category (null: none); business: the business id (null: personal); project: the " +
        "project id (null: none). A key has at most one row per direction.",
    ),
  label: z.string().describe("A name to show (the business's or project's name, Uncategorized, Personal, No project)."),
  direction: z
    .enum(["in", "out"])
    .describe(
      "in: the revenue side (revenue less refunds of revenue); out: the cost side (expenses, recurring expenses and ad " +
        "spend less refunds of costs).",
    ),
  amounts_minor: z.array(ZMinor).describe("One per period, in order."),
  total_minor: ZMinor.describe("The whole range (base: Σ of the periods; a display currency: the base total converted once)."),
});

export const ZProfitAndLoss = ZAggregateCurrencies.extend({
  scope: ZReportScope,
  from: ZStoredDate,
  to: ZStoredDate,
  interval: z.enum(REPORT_INTERVALS),
  group_by: z.enum(REPORT_GROUPS),
  periods: z.array(ZPeriod).describe("The calendar periods the range touches, each cut to the range, oldest first."),
  rows: z.array(ZProfitAndLossRow).describe("The in rows, then the out rows; each side by its total, largest first."),
  totals: z.object({
    in_minor: z.array(ZMinor).describe("Per period: the financial summary's net_revenue (revenue − refunds_out)."),
    out_minor: z.array(ZMinor).describe("Per period: the summary's outflow (expenses + ad_spend)."),
    net_minor: z.array(ZMinor).describe("Per period: the summary's net (in − out)."),
    in_total_minor: ZMinor,
    out_total_minor: ZMinor,
    net_total_minor: ZMinor,
  }),
  events_counted: z.number().int().describe("Counted actual events that move money in the range (K3, K4)."),
  fx_used: ZFxUsedList,
});
export type TProfitAndLoss = z.infer<typeof ZProfitAndLoss>;

export const ZProfitAndLossResponse = zAggregateEnvelope(ZProfitAndLoss, PNL_COVERAGE_DOMAINS);

export const PROFIT_AND_LOSS_RULES =
  "Counting is the financial summary's (K2–K4): counted actual events that move money, at their frozen base amounts. " +
  "For one period and scope, totals.in_minor, out_minor and net_minor equal the summary's revenue − refunds_out, " +
  "outflow and net of that period exactly, in the base and in a display currency (there the summary's components are " +
  "converted once per period, and each row's amount once per period and row; rows add up to the totals exactly in the " +
  "base). " +
  REPORT_RANGE_RULES +
  " " +
  AMOUNT_RANGE_RULE;

export const ZCashHistoryDay = z.object({
  date: ZStoredDate,
  cash_minor: ZMinor.optional().describe("The day's closing cash; absent when source is none."),
  source: z
    .enum(["snapshot", "derived", "none"])
    .describe(
      "snapshot: measured (a snapshot of the scope that day; K6 at the end of the day); derived: the last measured " +
        "cash plus the counted actuals since; none: no snapshot of the scope by then.",
    ),
});

export const ZCashHistory = ZAggregateCurrencies.extend({
  scope: ZReportScope,
  from: ZStoredDate,
  to: ZStoredDate,
  days: z.array(ZCashHistoryDay).describe("Every day of the range, oldest first."),
  fx_used: ZFxUsedList,
});
export type TCashHistory = z.infer<typeof ZCashHistory>;

export const ZCashHistoryResponse = zAggregateEnvelope(ZCashHistory, CASH_HISTORY_COVERAGE_DOMAINS);

export const CASH_HISTORY_RULES =
  "A day with a snapshot of the scope (owner timezone) is measured: the latest snapshot of each account by the end of " +
  "the day, each at today's current rate (half even), summed, as the cash of every read model (K6). A later day without " +
  "one is derived: the last measured cash plus the counted actual events (in − out, their frozen base amounts) that " +
  "occurred after that day up to it (a project: its business's cash and events). Before any snapshot: source none. " +
  REPORT_RANGE_RULES +
  " " +
  AMOUNT_RANGE_RULE;
