// The ads answer (pinned-wave2 §2.8), shared by GET /v1/ads and GET /v1/businesses/{id}/ads.
import { z } from "zod";
import { AMOUNT_RANGE_RULE } from "../fx/base-amounts";
import { ZCurrency, ZStoredDate, ZTimestamp, ZUuid } from "../shared/schemas";
import {
  PERIOD_RULES,
  ZAggregateCurrencies,
  ZDisplayCurrencyQuery,
  ZMinor,
  ZPeriodQuery,
  ZRatio,
  zEventAggregateEnvelope,
} from "./read-model.schema";

/** The domains the envelope's coverage reports (§2.8 "Coverage: ads"). */
export const ADS_COVERAGE_DOMAINS = ["ads"] as const;

/** The signal codes of the contract's Advertising group: the signals an ads account lists. */
export const AD_SIGNAL_CODES = [
  "campaign_paused",
  "campaign_removed",
  "budget_limited",
  "ad_disapproved",
  "account_suspended",
  "integration_auth_expired",
] as const;

/** At most this many signals per account (§2.8). */
export const ADS_SIGNALS_LIMIT = 20;

/** At most this many budget changes per account (§2.8). */
export const ADS_BUDGET_CHANGES_LIMIT = 20;

/** The platform of ad_spend events that name none. */
export const UNNAMED_PLATFORM = "other";

export const ZAdsQuery = ZPeriodQuery.extend(ZDisplayCurrencyQuery.shape);

const ZCount = z.number().int().describe("From payload.metrics (whole non-negative numbers; other values count 0).");

export const ZAdsBudgetChange = z
  .object({
    id: ZUuid,
    campaign_id: z.string(),
    status: z.enum(["planned", "applied", "failed"]),
    new_daily_budget_minor: ZMinor,
    currency: ZCurrency,
    effective_on: ZStoredDate,
  })
  .meta({ id: "AdsBudgetChange" });
export type TAdsBudgetChange = z.infer<typeof ZAdsBudgetChange>;

export const ZAdsSignal = z
  .object({
    code: z.enum(AD_SIGNAL_CODES),
    severity: z.enum(["info", "warning", "critical"]),
    occurred_at: ZTimestamp,
    ref: z
      .record(z.string(), z.string())
      .describe("The platform's references as the signal carried them (account_id, campaign_id, ad_id, …); {} when none."),
    message: z.string().nullable(),
  })
  .meta({ id: "AdsSignal" });

export const ZAdsCampaign = z
  .object({
    campaign_id: z.string(),
    spend_minor: ZMinor,
    impressions: ZCount,
    clicks: ZCount,
    last_signal: z
      .object({ code: z.enum(AD_SIGNAL_CODES), occurred_at: ZTimestamp })
      .nullable()
      .describe("The newest signal of the period whose ref.campaign_id is this campaign; null when none."),
  })
  .meta({ id: "AdsCampaign" });

export const ZAdsAccount = z
  .object({
    platform: z
      .string()
      .describe(`payload.platform (social_ads, search_ads, …); "${UNNAMED_PLATFORM}" when the events named none.`),
    account_id: z.string().nullable().describe("payload.account_id; null when the events named none."),
    business_id: ZUuid,
    integration_id: ZUuid.nullable().describe(
      "The integration of the account's latest ad_spend event of the period (the latest day, then the latest recorded).",
    ),
    integration_status: z
      .enum(["pending", "active", "disconnected"])
      .nullable()
      .describe("That integration's status now; null without one."),
    spend_minor: ZMinor,
    currencies: z.array(ZCurrency).describe("The original currencies of the account's spend, sorted."),
    impressions: ZCount,
    clicks: ZCount,
    ctr: ZRatio.describe("clicks / impressions (4 decimals, half even); null when there were no impressions."),
    cpc_minor: ZMinor.nullable().describe("spend_minor / clicks, half even; null when there were no clicks."),
    daily: z
      .array(z.object({ date: ZStoredDate, spend_minor: ZMinor }))
      .describe("Every day of the period in date order; a day without spend is 0."),
    campaigns: z
      .array(ZAdsCampaign)
      .describe(
        "Spend per payload.campaign_id, by spend descending (then campaign_id); spend with no campaign_id is in the account's figures only.",
      ),
    signals: z
      .array(ZAdsSignal)
      .describe(
        `The account's advertising signals (${AD_SIGNAL_CODES.join(", ")}) that occurred in the period (owner-timezone days): ` +
          "those of its integration whose ref.account_id is the account's, or which name no account; newest first, at most " +
          `${ADS_SIGNALS_LIMIT}.`,
      ),
    budget_changes: z
      .array(ZAdsBudgetChange)
      .describe(
        "The ad budget changes recorded for the account's campaigns (POST /v1/ad-budget-changes: planned, applied or " +
          `failed), newest first, at most ${ADS_BUDGET_CHANGES_LIMIT}.`,
      ),
  })
  .meta({ id: "AdsAccount" });

export const ZAds = ZAggregateCurrencies.extend({
  from: ZStoredDate,
  to: ZStoredDate,
  totals: z.object({
    spend_minor: ZMinor,
    impressions: ZCount,
    clicks: ZCount,
    ctr: ZRatio.describe("clicks / impressions over every account (additive to §2.8); null without impressions."),
    cpc_minor: ZMinor.nullable().describe(
      "spend_minor / clicks over every account, half even (additive to §2.8); null without clicks.",
    ),
  }),
  accounts: z.array(ZAdsAccount).describe("By spend descending (then platform, account_id, business_id)."),
}).meta({ id: "Ads" });

export const ZAdsResponse = zEventAggregateEnvelope(ZAds, ADS_COVERAGE_DOMAINS);
export type TAdsResponse = z.infer<typeof ZAdsResponse>;

export const ADS_RULES =
  "An account is (payload.platform, payload.account_id, business_id) of the counted actual ad_spend events of the period " +
  "(state actual, status confirmed, not reconciled; voided events never count); integrations send one level per campaign, " +
  "so nothing is counted twice. spend_minor sums the frozen base amounts; impressions and clicks sum payload.metrics. " +
  "ctr = clicks / impressions (a ratio, 4 decimals, half even; null without impressions); cpc_minor = spend / clicks, half " +
  "even (null without clicks). With display_currency the total spend is converted once at today's rate, and each listed " +
  "amount (accounts, campaigns, days) item by item at the same rate: they add up exactly in the base currency only; cpc " +
  "is computed from the converted spend. Envelope: fx (FxSummary), coverage (ads), provenance_summary. A missing rate " +
  "answers 422 fx_unavailable, an uncovered currency 422 currency_unsupported. " +
  AMOUNT_RANGE_RULE +
  " " +
  PERIOD_RULES;
