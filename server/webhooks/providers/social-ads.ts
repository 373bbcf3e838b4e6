// social_ads: an ad platform with hub-style webhooks. The platform signs the raw body with the
// app secret and sends no timestamp:
//   X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>
// so a replayed delivery is harmless only because every item has a deterministic external_id
// (deduplicated). Subscription is verified with GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=….
// Daily spend per level becomes ad_spend (a changed figure for the same day is a restatement);
// status changes become signals. docs/webhooks.md has the table.
import { z } from "zod";
import type { TSignalCode } from "../../ingest/ingest.schema";
import { ZDate } from "../../shared/schemas";
import { emptyMapping, parseOrThrow, type TMapping, type TVerifyInput, type TWebhookProviderModule } from "../webhook.schema";
import { hexDigestMatches, hmacSha256, sha256HeaderValue } from "../signature";
import { rejectionOf } from "../../ingest/item-checks";
import { decimalToMinor, unixToIso } from "./amounts";
import { ZCount, ZKeyPartId } from "./fields";

export const SOCIAL_ADS_SIGNATURE_HEADER = "X-Hub-Signature-256";
const PLATFORM = "social_ads";
/** Changes per delivery, over all entries (the generic receiver's limit). */
export const SOCIAL_ADS_MAX_CHANGES = 500;

export const ZSocialAdsSpend = z
  .looseObject({
    date: ZDate.describe("The day the spend belongs to (the ad account's day)."),
    level: z.enum(["campaign", "ad_set", "ad"]).describe("Which level this figure is for; send one level per campaign."),
    campaign_id: ZKeyPartId,
    ad_set_id: ZKeyPartId.optional().describe("Required for level ad_set."),
    ad_id: ZKeyPartId.optional().describe("Required for level ad."),
    spend: z
      .string()
      .regex(/^\d{1,15}(\.\d{1,12})?$/, { message: "must be a decimal string in major units, e.g. 12.34" })
      .describe("The day's total so far, in major units of `currency` (exact; never rounded)."),
    currency: z.string().regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 code in upper case" }),
    impressions: ZCount.optional(),
    clicks: ZCount.optional(),
  })
  .refine((v) => v.level !== "ad_set" || v.ad_set_id !== undefined, {
    message: "level ad_set needs ad_set_id",
    path: ["ad_set_id"],
  })
  .refine((v) => v.level !== "ad" || v.ad_id !== undefined, { message: "level ad needs ad_id", path: ["ad_id"] })
  .meta({ id: "SocialAdsSpendValue" });

export const ZSocialAdsCampaignStatus = z
  .looseObject({ campaign_id: ZKeyPartId, status: z.string().min(1).max(50).describe("PAUSED, DELETED, ARCHIVED are read.") })
  .meta({ id: "SocialAdsCampaignStatusValue" });
export const ZSocialAdsAdStatus = z
  .looseObject({
    ad_id: ZKeyPartId,
    campaign_id: ZKeyPartId.optional(),
    ad_set_id: ZKeyPartId.optional(),
    status: z.string().min(1).max(50).describe("DISAPPROVED is read."),
    reason: z.string().max(500).optional(),
  })
  .meta({ id: "SocialAdsAdStatusValue" });
export const ZSocialAdsAccountStatus = z
  .looseObject({ status: z.string().min(1).max(50).describe("DISABLED is read.") })
  .meta({ id: "SocialAdsAccountStatusValue" });
export const ZSocialAdsBudgetLimited = z
  .looseObject({ campaign_id: ZKeyPartId, ad_set_id: ZKeyPartId.optional() })
  .meta({ id: "SocialAdsBudgetLimitedValue" });

export const ZSocialAdsCampaignBudget = z
  .looseObject({
    campaign_id: ZKeyPartId,
    status: z
      .string()
      .min(1)
      .max(50)
      .describe(
        "APPLIED or FAILED: the newest planned budget change of the campaign (POST /v1/ad-budget-changes) moves to applied or failed.",
      ),
    daily_budget: z
      .string()
      .regex(/^\d{1,15}(\.\d{1,12})?$/, { message: "must be a decimal string in major units, e.g. 70.00" })
      .optional()
      .describe(
        "The campaign's daily budget now, in major units of `currency`. With `currency`, it is the platform's report of the " +
          "budget: what an agent's ad budget change is counted against (converted exactly; a figure finer than the " +
          "currency's minor unit rejects the change). Without `currency`, informational.",
      ),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 code in upper case" })
      .optional()
      .describe("The currency of daily_budget (the ad account's)."),
    reason: z.string().max(500).optional().describe("FAILED: why, as the platform says it."),
  })
  .meta({ id: "SocialAdsCampaignBudgetValue" });

const VALUE_BY_FIELD: Record<string, z.ZodType> = {
  spend: ZSocialAdsSpend,
  campaign_status: ZSocialAdsCampaignStatus,
  ad_status: ZSocialAdsAdStatus,
  account_status: ZSocialAdsAccountStatus,
  budget_limited: ZSocialAdsBudgetLimited,
  campaign_budget: ZSocialAdsCampaignBudget,
};

const ZChange = z.object({
  field: z
    .string()
    .min(1)
    .max(100)
    .describe(`Read: ${Object.keys(VALUE_BY_FIELD).join(", ")}. Others are acknowledged (ignored).`),
  value: z.union([
    ZSocialAdsSpend,
    ZSocialAdsCampaignStatus,
    ZSocialAdsAdStatus,
    ZSocialAdsAccountStatus,
    ZSocialAdsBudgetLimited,
    ZSocialAdsCampaignBudget,
    z.looseObject({}),
  ]),
});

export const ZSocialAdsDelivery = z
  .object({
    object: z.literal("ad_account"),
    entry: z
      .array(
        z.object({
          id: ZKeyPartId.describe("The ad account: finds the owner's social_ads integration."),
          time: z.number().int().nonnegative().describe("Unix seconds of the change."),
          changes: z.array(ZChange).min(1),
        }),
      )
      .min(1),
  })
  .superRefine((delivery, ctx) => {
    const total = delivery.entry.reduce((n, e) => n + e.changes.length, 0);
    if (total > SOCIAL_ADS_MAX_CHANGES)
      ctx.addIssue({ code: "custom", message: `at most ${SOCIAL_ADS_MAX_CHANGES} changes per delivery`, path: ["entry"] });
    delivery.entry.forEach((entry, e) =>
      entry.changes.forEach((change, c) => {
        const schema = VALUE_BY_FIELD[change.field];
        const parsed = schema?.safeParse(change.value);
        if (parsed && !parsed.success)
          for (const issue of parsed.error.issues)
            ctx.addIssue({ code: "custom", message: issue.message, path: ["entry", e, "changes", c, "value", ...issue.path] });
      }),
    );
  })
  .meta({ id: "SocialAdsDelivery", description: "social_ads: changes of one or more ad accounts." });
export type TSocialAdsDelivery = z.infer<typeof ZSocialAdsDelivery>;

export function verifySocialAds({ headers, rawBody, secret }: TVerifyInput): Buffer | null {
  const received = sha256HeaderValue(headers.get(SOCIAL_ADS_SIGNATURE_HEADER));
  const expected = hmacSha256(secret, rawBody);
  return hexDigestMatches(expected, received) ? expected : null;
}

/** The deterministic key of one level's spend on one day: a later figure is a restatement of it. */
export function socialSpendKey(account: string, spend: z.infer<typeof ZSocialAdsSpend>): string {
  const levelId = spend.level === "campaign" ? spend.campaign_id : spend.level === "ad_set" ? spend.ad_set_id! : spend.ad_id!;
  return `spend:${account}:${spend.level}:${levelId}:${spend.date}`;
}

const CAMPAIGN_STATUS: Record<string, TSignalCode> = {
  PAUSED: "campaign_paused",
  DELETED: "campaign_removed",
  ARCHIVED: "campaign_removed",
};

const CAMPAIGN_BUDGET_STATUS: Record<string, TSignalCode> = {
  APPLIED: "budget_change_applied",
  FAILED: "budget_change_failed",
};

/**
 * What the receiver reads at once: the envelope. Each change is read on its own by the mapping,
 * so one bad change is rejected alone (ZSocialAdsDelivery documents the whole shape).
 */
const ZSocialAdsEnvelope = z
  .object({
    object: z.literal("ad_account"),
    entry: z
      .array(z.object({ id: ZKeyPartId, time: z.number().int().nonnegative(), changes: z.array(z.unknown()).min(1) }))
      .min(1),
  })
  .superRefine((delivery, ctx) => {
    const total = delivery.entry.reduce((n, e) => n + e.changes.length, 0);
    if (total > SOCIAL_ADS_MAX_CHANGES)
      ctx.addIssue({ code: "custom", message: `at most ${SOCIAL_ADS_MAX_CHANGES} changes per delivery`, path: ["entry"] });
  });
type TSocialAdsEnvelope = { entry: Array<{ id: string; time: number; changes: readonly unknown[] }> };

/**
 * The pure mapping of one delivery. Index: the change's position over all entries, in order.
 * A change that is not of its documented shape (or fails to map) is rejected alone.
 */
export function mapSocialAds(delivery: TSocialAdsEnvelope | TSocialAdsDelivery): TMapping {
  const mapping = emptyMapping();
  let index = 0;
  for (const entry of delivery.entry) {
    const account = entry.id;
    for (const raw of entry.changes) {
      const position = index++;
      try {
        mapChange(mapping, account, entry.time, unixToIso(entry.time), position, ZChange.parse(raw));
      } catch (error) {
        mapping.rejected.push({ index: position, account, external_id: null, ...rejectionOf(error) });
      }
    }
  }
  return mapping;
}

function mapChange(
  mapping: TMapping,
  account: string,
  time: number,
  occurredAt: string,
  position: number,
  change: z.infer<typeof ZChange>,
): void {
  const signal = (
    code: TSignalCode,
    objectId: string,
    status: string,
    ref: Record<string, string>,
    message?: string,
    amount?: { amount_minor: number; currency: string },
  ) =>
    mapping.signals.push({
      index: position,
      account,
      signal: {
        external_id: `${change.field}:${account}:${objectId}:${status}:${time}`,
        code,
        occurred_at: occurredAt,
        ref: { account_id: account, ...ref },
        ...(message ? { message } : {}),
        ...amount,
      },
    });
  switch (change.field) {
    case "spend": {
      const spend = ZSocialAdsSpend.parse(change.value);
      const external_id = socialSpendKey(account, spend);
      const amount = decimalToMinor(spend.spend, spend.currency, "spend");
      if (!amount.ok) {
        mapping.rejected.push({ index: position, account, external_id, code: amount.code, message: amount.message });
        break;
      }
      const metrics = {
        spend: spend.spend,
        ...(spend.impressions !== undefined ? { impressions: spend.impressions } : {}),
        ...(spend.clicks !== undefined ? { clicks: spend.clicks } : {}),
      };
      mapping.events.push({
        index: position,
        account,
        event: {
          external_id,
          type: "ad_spend",
          state: "actual",
          amount_minor: amount.amountMinor,
          currency: spend.currency,
          occurred_on: spend.date,
          source_type: "SOCIAL_ADS_API",
          payload: {
            platform: PLATFORM,
            account_id: account,
            campaign_id: spend.campaign_id,
            ...(spend.ad_set_id ? { ad_set_id: spend.ad_set_id } : {}),
            ...(spend.ad_id ? { ad_id: spend.ad_id } : {}),
            metrics,
          },
        },
      });
      break;
    }
    case "campaign_status": {
      const value = ZSocialAdsCampaignStatus.parse(change.value);
      const status = value.status.toUpperCase();
      const code = CAMPAIGN_STATUS[status];
      if (code) signal(code, value.campaign_id, status, { campaign_id: value.campaign_id });
      else mapping.ignored++;
      break;
    }
    case "ad_status": {
      const value = ZSocialAdsAdStatus.parse(change.value);
      const status = value.status.toUpperCase();
      if (status === "DISAPPROVED") {
        signal(
          "ad_disapproved",
          value.ad_id,
          status,
          {
            ad_id: value.ad_id,
            ...(value.campaign_id ? { campaign_id: value.campaign_id } : {}),
            ...(value.ad_set_id ? { ad_set_id: value.ad_set_id } : {}),
          },
          value.reason ? `An ad was disapproved: ${value.reason}` : undefined,
        );
      } else mapping.ignored++;
      break;
    }
    case "account_status": {
      const value = ZSocialAdsAccountStatus.parse(change.value);
      const status = value.status.toUpperCase();
      if (status === "DISABLED") signal("account_suspended", account, status, {});
      else mapping.ignored++;
      break;
    }
    case "budget_limited": {
      const value = ZSocialAdsBudgetLimited.parse(change.value);
      signal("budget_limited", value.ad_set_id ?? value.campaign_id, "LIMITED", {
        campaign_id: value.campaign_id,
        ...(value.ad_set_id ? { ad_set_id: value.ad_set_id } : {}),
      });
      break;
    }
    case "campaign_budget": {
      const value = ZSocialAdsCampaignBudget.parse(change.value);
      const status = value.status.toUpperCase();
      const code = CAMPAIGN_BUDGET_STATUS[status];
      if (code) {
        const failure = status === "FAILED" && value.reason ? `The budget change failed: ${value.reason}` : undefined;
        // The budget the platform runs, when it says in which currency: the service's known budget.
        let budget: { amount_minor: number; currency: string } | undefined;
        if (value.daily_budget !== undefined && value.currency !== undefined) {
          const amount = decimalToMinor(value.daily_budget, value.currency, "daily_budget");
          if (!amount.ok) {
            mapping.rejected.push({ index: position, account, external_id: null, code: amount.code, message: amount.message });
            break;
          }
          budget = { amount_minor: amount.amountMinor, currency: value.currency };
        }
        signal(code, value.campaign_id, status, { campaign_id: value.campaign_id }, failure, budget);
      } else mapping.ignored++;
      break;
    }
    default:
      mapping.ignored++;
  }
}

export const socialAds: TWebhookProviderModule = {
  provider: "social_ads",
  secretEnv: "WEBHOOK_SECRET_SOCIAL_ADS",
  schema: ZSocialAdsDelivery,
  headers: {
    [SOCIAL_ADS_SIGNATURE_HEADER]:
      "social_ads: `sha256=<hex HMAC-SHA256 of the raw body>` with the connection's signing secret (the app secret; no timestamp in this scheme; repeats are deduplicated).",
  },
  verify: verifySocialAds,
  accountsNamed: (body) =>
    Array.isArray(body.entry)
      ? body.entry.flatMap((entry: unknown) =>
          typeof entry === "object" && entry !== null && typeof (entry as { id?: unknown }).id === "string"
            ? [(entry as { id: string }).id]
            : [],
        )
      : [],
  read: (body) => {
    const delivery = parseOrThrow(ZSocialAdsEnvelope, body);
    return { accounts: delivery.entry.map((e) => e.id), mapping: mapSocialAds(delivery) };
  },
};
