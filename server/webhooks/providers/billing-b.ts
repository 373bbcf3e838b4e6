// billing_b: a subscription-billing platform that computes MRR itself. Signed with a separate
// timestamp header and a base64 digest:
//   X-BillingB-Timestamp: <unix seconds>, within 5 minutes of now
//   X-BillingB-Signature: v1=<base64 HMAC-SHA256 of "<timestamp>.<raw body>">
// (several space-separated v1= entries allowed while a secret rotates).
//
// MRR is taken as the platform sends it: `subscription.mrr` (after the event) and
// `previous_mrr` (before it), integer minor units, monthly. For a yearly plan the platform's
// own monthly figure is used as sent; nothing is divided or rounded here.
import { z } from "zod";
import { utcDayOfUnixSeconds } from "../../../lib/days";
import {
  emptyMapping,
  mapOneEvent,
  parseOrThrow,
  type TMapping,
  type TVerifyInput,
  type TWebhookProviderModule,
  namedAccount,
} from "../webhook.schema";
import { base64DigestMatches, hmacSha256, isWithinTolerance, parseKeyValueList, parseUnixSeconds } from "../signature";
import { unixToIso } from "./amounts";
import { ZPlatformId } from "./fields";

export const BILLING_B_SIGNATURE_HEADER = "X-BillingB-Signature";
export const BILLING_B_TIMESTAMP_HEADER = "X-BillingB-Timestamp";
const PLATFORM = "billing_b";

const ZMinor = z.number().int().nonnegative().refine(Number.isSafeInteger, { message: "is beyond the exact integer range" });
const ZCurrency = z.string().regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 code in upper case" });

export const ZBillingBSubscription = z
  .looseObject({
    id: ZPlatformId,
    customer_id: ZPlatformId,
    plan_id: z.string().min(1).max(200).optional(),
    status: z.string().min(1).max(50).describe("in_trial, active, past_due, cancelled, …"),
    currency_code: ZCurrency,
    mrr: ZMinor.describe(
      "Monthly recurring revenue after this event, minor units, as the platform computes it (0 once cancelled).",
    ),
    billing_period_unit: z.enum(["week", "month", "year"]).optional(),
  })
  .meta({ id: "BillingBSubscription" });

export const ZBillingBTransaction = z
  .looseObject({
    id: ZPlatformId,
    amount: ZMinor,
    currency_code: ZCurrency,
    subscription_id: ZPlatformId.optional(),
    customer_id: ZPlatformId.optional(),
    failure_reason: z.string().max(500).optional(),
  })
  .meta({ id: "BillingBTransaction" });

const ZSubscriptionContent = z.looseObject({
  subscription: ZBillingBSubscription,
  previous_mrr: ZMinor.optional(),
});
const withPrevious = ZSubscriptionContent.refine((c) => c.previous_mrr !== undefined, {
  message: "this event type needs previous_mrr (MRR before the event)",
  path: ["previous_mrr"],
});

const CONTENT_BY_TYPE: Record<string, z.ZodType> = {
  subscription_created: ZSubscriptionContent,
  subscription_reactivated: ZSubscriptionContent,
  subscription_changed: withPrevious,
  subscription_past_due: ZSubscriptionContent,
  subscription_cancelled: withPrevious,
  payment_failed: z.looseObject({ transaction: ZBillingBTransaction }),
};
export const BILLING_B_EVENT_TYPES = Object.keys(CONTENT_BY_TYPE);

export const ZBillingBEvent = z
  .object({
    id: ZPlatformId.describe("The event's id: external_id of the event and signals it produces."),
    event_type: z
      .string()
      .min(1)
      .max(100)
      .describe(`Read: ${BILLING_B_EVENT_TYPES.join(", ")}. Others are acknowledged (ignored).`),
    occurred_at: z.number().int().nonnegative().describe("Unix seconds."),
    site: ZPlatformId.describe("The platform site (account): finds the owner's billing_b integration."),
    content: z.looseObject({
      subscription: ZBillingBSubscription.optional(),
      previous_mrr: ZMinor.optional().describe(
        "MRR before this event; required on subscription_changed and subscription_cancelled.",
      ),
      transaction: ZBillingBTransaction.optional().describe("On payment_failed."),
    }),
  })
  .superRefine((event, ctx) => {
    const schema = CONTENT_BY_TYPE[event.event_type];
    const parsed = schema?.safeParse(event.content);
    if (parsed && !parsed.success)
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: "custom", message: issue.message, path: ["content", ...issue.path] });
  })
  .meta({ id: "BillingBEvent", description: "billing_b: one event per delivery." });
export type TBillingBEvent = z.infer<typeof ZBillingBEvent>;

export function verifyBillingB({ headers, rawBody, secret, now }: TVerifyInput): Buffer | null {
  const timestamp = parseUnixSeconds(headers.get(BILLING_B_TIMESTAMP_HEADER));
  if (!isWithinTolerance(timestamp, now)) return null;
  const expected = hmacSha256(secret, `${timestamp}.`, rawBody);
  const ok = parseKeyValueList(headers.get(BILLING_B_SIGNATURE_HEADER), " ")
    .filter(([k]) => k === "v1")
    .reduce((ok, [, v]) => base64DigestMatches(expected, v) || ok, false);
  return ok ? expected : null;
}

type TChange = "new" | "expansion" | "contraction" | "churn" | "reactivation";

/** The pure mapping of one (validated) event. */
export function mapBillingB(event: TBillingBEvent): TMapping {
  const mapping = emptyMapping();
  const account = event.site;
  const occurredAt = unixToIso(event.occurred_at);
  const { subscription: sub, previous_mrr, transaction } = event.content;

  const change = (kind: TChange | "changed") => {
    const next = kind === "churn" ? 0 : sub!.mrr;
    const previous = kind === "new" || kind === "reactivation" ? 0 : previous_mrr!;
    const delta = next - previous;
    if (kind === "changed" && delta === 0) {
      mapping.ignored++; // MRR unchanged (a plan rename, a billing date move)
      return;
    }
    mapping.events.push({
      index: 0,
      account,
      event: {
        external_id: event.id,
        type: "subscription_change",
        state: "actual",
        amount_minor: delta,
        currency: sub!.currency_code,
        occurred_on: utcDayOfUnixSeconds(event.occurred_at),
        source_type: "PAYMENTS_API",
        payload: {
          platform: PLATFORM,
          account_id: account,
          customer_id: sub!.customer_id,
          subscription_id: sub!.id,
          change: kind === "changed" ? (delta > 0 ? "expansion" : "contraction") : kind,
          mrr_minor: next,
          previous_mrr_minor: previous,
          ...(sub!.plan_id ? { plan: sub!.plan_id } : {}),
          ...(sub!.billing_period_unit ? { billing_interval: sub!.billing_period_unit } : {}),
        },
      },
    });
  };
  const subRef = () => ({ subscription_id: sub!.id, customer_id: sub!.customer_id });

  switch (event.event_type) {
    case "subscription_created":
      change("new");
      break;
    case "subscription_reactivated":
      change("reactivation");
      break;
    case "subscription_changed":
      change("changed");
      break;
    case "subscription_past_due":
      // MRR still counts while the platform retries the payment: a signal, no MRR change.
      mapping.signals.push({
        account,
        signal: { external_id: event.id, code: "subscription_past_due", occurred_at: occurredAt, ref: subRef() },
      });
      break;
    case "subscription_cancelled":
      change("churn");
      mapping.signals.push({
        account,
        signal: {
          external_id: event.id,
          code: "subscription_churned",
          occurred_at: occurredAt,
          ref: subRef(),
          amount_minor: previous_mrr!,
          currency: sub!.currency_code,
        },
      });
      break;
    case "payment_failed":
      mapping.signals.push({
        account,
        signal: {
          external_id: event.id,
          code: "payment_failed",
          occurred_at: occurredAt,
          amount_minor: transaction!.amount,
          currency: transaction!.currency_code,
          ref: {
            transaction_id: transaction!.id,
            ...(transaction!.subscription_id ? { subscription_id: transaction!.subscription_id } : {}),
            ...(transaction!.customer_id ? { customer_id: transaction!.customer_id } : {}),
          },
          ...(transaction!.failure_reason ? { message: transaction!.failure_reason } : {}),
        },
      });
      break;
    default:
      mapping.ignored++;
  }
  return mapping;
}

export const billingB: TWebhookProviderModule = {
  provider: "billing_b",
  secretEnv: "WEBHOOK_SECRET_BILLING_B",
  schema: ZBillingBEvent,
  headers: {
    [BILLING_B_SIGNATURE_HEADER]:
      'billing_b: `v1=<base64 HMAC-SHA256 of "<X-BillingB-Timestamp>.<raw body>">` with the connection\'s signing secret.',
    [BILLING_B_TIMESTAMP_HEADER]: "billing_b: Unix seconds when the delivery was signed; within 5 minutes of now.",
  },
  verify: verifyBillingB,
  accountsNamed: (body) => namedAccount(body, "site"),
  read: (body) => {
    const event = parseOrThrow(ZBillingBEvent, body);
    return { accounts: [event.site], mapping: mapOneEvent(event.site, event.id, () => mapBillingB(event)) };
  },
};
