// search_ads: an ad platform without webhooks. A relay (the owner's job or ours) reads its
// reports and posts them, signed as the contract says for relays:
//   X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body with WEBHOOK_SECRET_SEARCH_ADS>
//   X-Service-Timestamp: <unix seconds>, within 5 minutes of now
// Daily cost per campaign (or ad group) becomes ad_spend; alerts become signals.
import { z } from "zod";
import { SIGNAL_CODES, type TSignalCode } from "../../ingest/ingest.schema";
import { ZDate, ZTimestamp } from "../../shared/schemas";
import {
  emptyMapping,
  parseOrThrow,
  type TMapping,
  type TVerifyInput,
  type TWebhookProviderModule,
  namedAccount,
} from "../webhook.schema";
import { hexDigestMatches, hmacSha256, isWithinTolerance, parseUnixSeconds, sha256HeaderValue } from "../signature";
import { rejectionOf } from "../../ingest/item-checks";
import { isoUtc, microsToMinor } from "./amounts";
import { ZCount, ZKeyPartId } from "./fields";

export const SERVICE_SIGNATURE_HEADER = "X-Service-Signature";
export const SERVICE_TIMESTAMP_HEADER = "X-Service-Timestamp";
const PLATFORM = "search_ads";
/** Reports plus alerts per delivery (the generic receiver's limit). */
export const SEARCH_ADS_MAX_ITEMS = 500;

/** Alert types the relay may send; each is the signal code it raises. */
export const SEARCH_ADS_ALERT_TYPES = [
  "campaign_paused",
  "campaign_removed",
  "budget_limited",
  "ad_disapproved",
  "account_suspended",
  "integration_auth_expired",
  // The relay saw a budget change the service planned (POST /v1/ad-budget-changes) take effect, or fail.
  "budget_change_applied",
  "budget_change_failed",
] as const satisfies readonly TSignalCode[];

export const ZSearchAdsReport = z
  .object({
    date: ZDate,
    campaign_id: ZKeyPartId,
    ad_group_id: ZKeyPartId.optional().describe(
      "Set when the row is one ad group's cost; then send ad-group rows only for that campaign.",
    ),
    cost_micros: z
      .union([z.string().regex(/^\d{1,18}$/, { message: "must be a non-negative integer" }), ZCount])
      .optional()
      .describe(
        "Cost in millionths of the currency unit (as the platform reports it; a string for 64-bit values). Must be a whole number of minor units (EUR: a multiple of 10000), else the row is rejected; never rounded.",
      ),
    cost_minor: ZCount.optional().describe("Cost in minor units; send this or cost_micros."),
    currency: z.string().regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 code in upper case" }),
    impressions: ZCount.optional(),
    clicks: ZCount.optional(),
  })
  .refine((r) => (r.cost_micros === undefined) !== (r.cost_minor === undefined), {
    message: "send exactly one of cost_micros and cost_minor",
    path: ["cost_micros"],
  })
  .meta({ id: "SearchAdsReportRow" });

export const ZSearchAdsAlert = z
  .object({
    id: z.string().min(1).max(200).describe("The alert's id: the signal's external_id."),
    type: z
      .string()
      .min(1)
      .max(100)
      .describe(`Read: ${SEARCH_ADS_ALERT_TYPES.join(", ")} (the signal code). Others are acknowledged (ignored).`),
    campaign_id: ZKeyPartId.optional(),
    budget_change_id: z
      .uuid()
      .optional()
      .describe(
        "budget_change_applied / budget_change_failed: the change's id (POST /v1/ad-budget-changes); without it the newest planned change of campaign_id moves.",
      ),
    occurred_at: ZTimestamp,
    message: z.string().max(1000).optional(),
    daily_budget_minor: ZCount.optional().describe(
      "budget_change_applied / budget_change_failed: the campaign's daily budget now, in minor units of `currency` " +
        "(with campaign_id): the platform's report of the budget, what an agent's ad budget change is counted against.",
    ),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 code in upper case" })
      .optional()
      .describe("The currency of daily_budget_minor."),
  })
  .refine((a) => (a.daily_budget_minor === undefined) === (a.currency === undefined), {
    message: "daily_budget_minor and currency go together",
    path: ["currency"],
  })
  .meta({ id: "SearchAdsAlert" });

export const ZSearchAdsDelivery = z
  .object({
    customer_id: ZKeyPartId.describe("The platform's customer (account) id: finds the owner's search_ads integration."),
    reports: z.array(ZSearchAdsReport).optional(),
    alerts: z.array(ZSearchAdsAlert).optional(),
  })
  .superRefine((d, ctx) => {
    const total = (d.reports?.length ?? 0) + (d.alerts?.length ?? 0);
    if (total === 0) ctx.addIssue({ code: "custom", message: "send at least one report row or alert", path: ["reports"] });
    if (total > SEARCH_ADS_MAX_ITEMS)
      ctx.addIssue({ code: "custom", message: `at most ${SEARCH_ADS_MAX_ITEMS} reports and alerts per delivery`, path: [] });
  })
  .meta({ id: "SearchAdsDelivery", description: "search_ads: a relay's daily cost report rows and alerts for one customer." });
export type TSearchAdsDelivery = z.infer<typeof ZSearchAdsDelivery>;

/**
 * What the receiver reads at once: the customer and the item counts. Each report row and alert
 * is read on its own by the mapping, so one bad item is rejected alone.
 */
const ZSearchAdsEnvelope = z
  .object({ customer_id: ZKeyPartId, reports: z.array(z.unknown()).optional(), alerts: z.array(z.unknown()).optional() })
  .superRefine((d, ctx) => {
    const total = (d.reports?.length ?? 0) + (d.alerts?.length ?? 0);
    if (total === 0) ctx.addIssue({ code: "custom", message: "send at least one report row or alert", path: ["reports"] });
    if (total > SEARCH_ADS_MAX_ITEMS)
      ctx.addIssue({ code: "custom", message: `at most ${SEARCH_ADS_MAX_ITEMS} reports and alerts per delivery`, path: [] });
  });
type TSearchAdsEnvelope = { customer_id: string; reports?: readonly unknown[]; alerts?: readonly unknown[] };

/** The contract's relay signature: HMAC of the raw body, plus a timestamp within the window. */
export function verifyServiceSignature({ headers, rawBody, secret, now }: TVerifyInput): Buffer | null {
  if (!isWithinTolerance(parseUnixSeconds(headers.get(SERVICE_TIMESTAMP_HEADER)), now)) return null;
  const received = sha256HeaderValue(headers.get(SERVICE_SIGNATURE_HEADER));
  const expected = hmacSha256(secret, rawBody);
  return hexDigestMatches(expected, received) ? expected : null;
}

export function searchCostKey(customerId: string, row: z.infer<typeof ZSearchAdsReport>): string {
  return `cost:${customerId}:${row.campaign_id}${row.ad_group_id ? `:${row.ad_group_id}` : ""}:${row.date}`;
}

const ALERT_CODES = new Set<string>(SEARCH_ADS_ALERT_TYPES);

/**
 * The pure mapping. Index: the row's position in `reports`; an alert's is reports.length + its
 * position in `alerts`. A row or alert that is not of its documented shape is rejected alone.
 */
export function mapSearchAds(delivery: TSearchAdsEnvelope | TSearchAdsDelivery): TMapping {
  const mapping = emptyMapping();
  const account = delivery.customer_id;
  (delivery.reports ?? []).forEach((raw, index) => {
    try {
      mapReport(mapping, account, index, ZSearchAdsReport.parse(raw));
    } catch (error) {
      mapping.rejected.push({ index, account, external_id: null, ...rejectionOf(error) });
    }
  });
  const offset = delivery.reports?.length ?? 0;
  (delivery.alerts ?? []).forEach((raw, n) => {
    try {
      mapAlert(mapping, account, offset + n, ZSearchAdsAlert.parse(raw));
    } catch (error) {
      mapping.rejected.push({ index: offset + n, account, external_id: null, ...rejectionOf(error) });
    }
  });
  return mapping;
}

function mapReport(mapping: TMapping, account: string, index: number, row: z.infer<typeof ZSearchAdsReport>): void {
  const external_id = searchCostKey(account, row);
  const amount =
    row.cost_minor !== undefined
      ? ({ ok: true, amountMinor: row.cost_minor } as const)
      : microsToMinor(BigInt(row.cost_micros!), row.currency);
  if (!amount.ok) {
    mapping.rejected.push({ index, account, external_id, code: amount.code, message: amount.message });
    return;
  }
  const metrics = {
    ...(row.cost_micros !== undefined ? { cost_micros: String(row.cost_micros) } : {}),
    ...(row.impressions !== undefined ? { impressions: row.impressions } : {}),
    ...(row.clicks !== undefined ? { clicks: row.clicks } : {}),
  };
  mapping.events.push({
    index,
    account,
    event: {
      external_id,
      type: "ad_spend",
      state: "actual",
      amount_minor: amount.amountMinor,
      currency: row.currency,
      occurred_on: row.date,
      source_type: "SEARCH_ADS_API",
      payload: {
        platform: PLATFORM,
        account_id: account,
        campaign_id: row.campaign_id,
        ...(row.ad_group_id ? { ad_group_id: row.ad_group_id } : {}),
        ...(Object.keys(metrics).length ? { metrics } : {}),
      },
    },
  });
}

function mapAlert(mapping: TMapping, account: string, index: number, alert: z.infer<typeof ZSearchAdsAlert>): void {
  if (!ALERT_CODES.has(alert.type)) {
    mapping.ignored++;
    return;
  }
  mapping.signals.push({
    index,
    account,
    signal: {
      external_id: alert.id,
      code: alert.type as (typeof SIGNAL_CODES)[number],
      occurred_at: isoUtc(alert.occurred_at),
      ref: {
        account_id: account,
        ...(alert.campaign_id ? { campaign_id: alert.campaign_id } : {}),
        ...(alert.budget_change_id ? { budget_change_id: alert.budget_change_id } : {}),
      },
      ...(alert.message ? { message: alert.message } : {}),
      ...(alert.daily_budget_minor !== undefined ? { amount_minor: alert.daily_budget_minor, currency: alert.currency! } : {}),
    },
  });
}

export const searchAds: TWebhookProviderModule = {
  provider: "search_ads",
  secretEnv: "WEBHOOK_SECRET_SEARCH_ADS",
  schema: ZSearchAdsDelivery,
  headers: {
    [SERVICE_SIGNATURE_HEADER]:
      "search_ads relay and generic: `sha256=<hex HMAC-SHA256 of the raw body>` (search_ads: with WEBHOOK_SECRET_SEARCH_ADS).",
    [SERVICE_TIMESTAMP_HEADER]:
      "search_ads relay and generic: Unix seconds when the request was signed; within 5 minutes of now.",
  },
  verify: verifyServiceSignature,
  accountsNamed: (body) => namedAccount(body, "customer_id"),
  read: (body) => {
    const delivery = parseOrThrow(ZSearchAdsEnvelope, body);
    return { accounts: [delivery.customer_id], mapping: mapSearchAds(delivery) };
  },
};
