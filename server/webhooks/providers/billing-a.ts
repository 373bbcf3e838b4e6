// billing_a: a subscription-billing platform that sends prices, not MRR. Signed with a timestamp:
//   X-BillingA-Signature: ts=<unix seconds>;h1=<hex HMAC-SHA256 of "<ts>:<raw body>">
// (ts within 5 minutes; several h1 entries allowed while a secret rotates).
//
// MRR is computed here from the subscription's items, in integer minor units:
//   annual_minor = Σ unit_price_minor × quantity × (12 for month, 4 for quarter, 1 for year)
//   mrr_minor    = annual_minor ÷ 12, integer division (towards zero)
//   mrr_remainder_minor = annual_minor − 12 × mrr_minor  (0–11, kept in the event's payload)
// So a yearly price of 99.99 gives mrr 833 and remainder 3: the remainder is never spread
// or rounded away, and 12 × mrr_minor + mrr_remainder_minor is the exact annual value.
import { z } from "zod";
import { utcDayOf } from "../../../lib/days";
import { ZTimestamp } from "../../shared/schemas";
import {
  emptyMapping,
  mapOneEvent,
  parseOrThrow,
  type TMapping,
  type TProviderEvent,
  type TVerifyInput,
  type TWebhookProviderModule,
  namedAccount,
} from "../webhook.schema";
import { hexDigestMatches, hmacSha256, isWithinTolerance, parseKeyValueList, parseUnixSeconds } from "../signature";
import { isoUtc } from "./amounts";
import { ZPlatformId } from "./fields";

export const BILLING_A_SIGNATURE_HEADER = "X-BillingA-Signature";
const PLATFORM = "billing_a";

const ZMinor = z.number().int().nonnegative().refine(Number.isSafeInteger, { message: "is beyond the exact integer range" });
const ZCurrency = z.string().regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 code in upper case" });

const MONTHS_PER_YEAR = { month: 12, quarter: 4, year: 1 } as const;

export const ZBillingAItem = z
  .object({
    price_id: ZPlatformId.optional(),
    plan: z.string().min(1).max(200).optional().describe("The plan's name."),
    unit_price_minor: ZMinor.describe("Price per unit and billing period, in minor units."),
    quantity: z.number().int().min(1).max(1_000_000),
    interval: z.enum(["month", "quarter", "year"]),
  })
  .meta({ id: "BillingAItem" });

export const ZBillingASubscription = z
  .looseObject({
    id: ZPlatformId.describe("The platform's subscription id."),
    customer_id: ZPlatformId,
    status: z.string().min(1).max(50).describe("active, trialing, past_due, paused, canceled."),
    currency_code: ZCurrency,
    items: z
      .array(ZBillingAItem)
      .min(1)
      .max(100)
      .describe("The items now (on subscription.canceled: the items that were cancelled)."),
    previous_items: z
      .array(ZBillingAItem)
      .max(100)
      .optional()
      .describe("Required on subscription.updated: the items before the change."),
  })
  .meta({ id: "BillingASubscription" });

export const ZBillingATransaction = z
  .looseObject({
    id: ZPlatformId,
    subscription_id: ZPlatformId.optional(),
    customer_id: ZPlatformId.optional(),
    currency_code: ZCurrency,
    total_minor: ZMinor,
    failure_reason: z.string().max(500).optional(),
  })
  .meta({ id: "BillingATransaction" });

const DATA_BY_TYPE: Record<string, z.ZodType> = {
  "subscription.created": ZBillingASubscription,
  "subscription.updated": ZBillingASubscription.refine((s) => s.previous_items !== undefined, {
    message: "subscription.updated needs previous_items",
    path: ["previous_items"],
  }),
  "subscription.resumed": ZBillingASubscription,
  "subscription.past_due": ZBillingASubscription,
  "subscription.canceled": ZBillingASubscription,
  "transaction.payment_failed": ZBillingATransaction,
};
export const BILLING_A_EVENT_TYPES = Object.keys(DATA_BY_TYPE);

export const ZBillingAEvent = z
  .object({
    event_id: ZPlatformId.describe("The event's id: external_id of the event and signals it produces."),
    event_type: z
      .string()
      .min(1)
      .max(100)
      .describe(`Read: ${BILLING_A_EVENT_TYPES.join(", ")}. Others are acknowledged (ignored).`),
    occurred_at: ZTimestamp,
    seller_id: ZPlatformId.describe("The seller account: finds the owner's billing_a integration."),
    data: z.union([ZBillingASubscription, ZBillingATransaction, z.looseObject({})]),
  })
  .superRefine((event, ctx) => {
    const schema = DATA_BY_TYPE[event.event_type];
    const parsed = schema?.safeParse(event.data);
    if (parsed && !parsed.success)
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: "custom", message: issue.message, path: ["data", ...issue.path] });
  })
  .meta({ id: "BillingAEvent", description: "billing_a: one event per delivery." });
export type TBillingAEvent = z.infer<typeof ZBillingAEvent>;
type TItem = z.infer<typeof ZBillingAItem>;
type TSubscription = z.infer<typeof ZBillingASubscription>;
type TTransaction = z.infer<typeof ZBillingATransaction>;

export function verifyBillingA({ headers, rawBody, secret, now }: TVerifyInput): Buffer | null {
  const pairs = parseKeyValueList(headers.get(BILLING_A_SIGNATURE_HEADER), ";");
  const timestamps = pairs.filter(([k]) => k === "ts");
  if (timestamps.length !== 1) return null;
  const ts = parseUnixSeconds(timestamps[0]![1]);
  if (!isWithinTolerance(ts, now)) return null;
  const expected = hmacSha256(secret, `${ts}:`, rawBody);
  const ok = pairs.filter(([k]) => k === "h1").reduce((ok, [, v]) => hexDigestMatches(expected, v) || ok, false);
  return ok ? expected : null;
}

/** MRR of a set of items, with the remainder of the division by 12 kept (see the header). */
export function billingAMrr(items: TItem[]): { mrrMinor: number; remainderMinor: number; annualMinor: bigint } {
  const annual = items.reduce(
    (sum, item) => sum + BigInt(item.unit_price_minor) * BigInt(item.quantity) * BigInt(MONTHS_PER_YEAR[item.interval]),
    0n,
  );
  return { mrrMinor: Number(annual / 12n), remainderMinor: Number(annual % 12n), annualMinor: annual };
}

function describeItems(items: TItem[]): { plan?: string; billing_interval?: string } {
  const plans = [...new Set(items.flatMap((i) => (i.plan ? [i.plan] : [])))];
  const intervals = [...new Set(items.map((i) => i.interval))];
  return {
    ...(plans.length ? { plan: plans.join(" + ").slice(0, 200) } : {}),
    ...(intervals.length === 1 ? { billing_interval: intervals[0] } : {}),
  };
}

type TChange = "new" | "expansion" | "contraction" | "churn" | "reactivation";

/** The pure mapping of one (validated) event. */
export function mapBillingA(event: TBillingAEvent): TMapping {
  const mapping = emptyMapping();
  const account = event.seller_id;
  const occurredAt = isoUtc(event.occurred_at);

  const change = (sub: TSubscription, kind: TChange, now: TItem[] | null, before: TItem[] | null) => {
    const next = now ? billingAMrr(now) : { mrrMinor: 0, remainderMinor: 0 };
    const previous = before ? billingAMrr(before) : { mrrMinor: 0, remainderMinor: 0 };
    const delta = next.mrrMinor - previous.mrrMinor;
    const kindOf: TChange = kind === "expansion" || kind === "contraction" ? (delta >= 0 ? "expansion" : "contraction") : kind;
    if ((kind === "expansion" || kind === "contraction") && delta === 0) {
      mapping.ignored++; // a change that leaves MRR as it was (a rename, a date move)
      return;
    }
    const event_: TProviderEvent = {
      external_id: event.event_id,
      type: "subscription_change",
      state: "actual",
      amount_minor: delta,
      currency: sub.currency_code,
      occurred_on: utcDayOf(new Date(event.occurred_at)),
      source_type: "PAYMENTS_API",
      payload: {
        platform: PLATFORM,
        account_id: account,
        customer_id: sub.customer_id,
        subscription_id: sub.id,
        change: kindOf,
        mrr_minor: next.mrrMinor,
        previous_mrr_minor: previous.mrrMinor,
        mrr_remainder_minor: next.remainderMinor,
        ...describeItems(kind === "churn" ? (before ?? []) : (now ?? [])),
      },
    };
    mapping.events.push({ index: 0, account, event: event_ });
  };
  const signal = (
    code: "subscription_past_due" | "subscription_churned" | "payment_failed",
    ref: Record<string, string>,
    extra = {},
  ) => mapping.signals.push({ account, signal: { external_id: event.event_id, code, occurred_at: occurredAt, ref, ...extra } });

  switch (event.event_type) {
    case "subscription.created": {
      const sub = event.data as TSubscription;
      change(sub, "new", sub.items, null);
      break;
    }
    case "subscription.resumed": {
      const sub = event.data as TSubscription;
      change(sub, "reactivation", sub.items, null);
      break;
    }
    case "subscription.updated": {
      const sub = event.data as TSubscription;
      change(sub, "expansion", sub.items, sub.previous_items ?? []);
      break;
    }
    case "subscription.past_due": {
      // MRR still counts while the platform retries the payment: a signal, no MRR change.
      const sub = event.data as TSubscription;
      signal("subscription_past_due", { subscription_id: sub.id, customer_id: sub.customer_id });
      break;
    }
    case "subscription.canceled": {
      const sub = event.data as TSubscription;
      change(sub, "churn", null, sub.items);
      signal(
        "subscription_churned",
        { subscription_id: sub.id, customer_id: sub.customer_id },
        {
          amount_minor: billingAMrr(sub.items).mrrMinor,
          currency: sub.currency_code,
        },
      );
      break;
    }
    case "transaction.payment_failed": {
      const tx = event.data as TTransaction;
      signal(
        "payment_failed",
        {
          transaction_id: tx.id,
          ...(tx.subscription_id ? { subscription_id: tx.subscription_id } : {}),
          ...(tx.customer_id ? { customer_id: tx.customer_id } : {}),
        },
        {
          amount_minor: tx.total_minor,
          currency: tx.currency_code,
          ...(tx.failure_reason ? { message: tx.failure_reason } : {}),
        },
      );
      break;
    }
    default:
      mapping.ignored++;
  }
  return mapping;
}

export const billingA: TWebhookProviderModule = {
  provider: "billing_a",
  secretEnv: "WEBHOOK_SECRET_BILLING_A",
  schema: ZBillingAEvent,
  headers: {
    [BILLING_A_SIGNATURE_HEADER]:
      'billing_a: `ts=<unix seconds>;h1=<hex HMAC-SHA256 of "<ts>:<raw body>">` with the connection\'s signing secret; ts within 5 minutes.',
  },
  verify: verifyBillingA,
  accountsNamed: (body) => namedAccount(body, "seller_id"),
  read: (body) => {
    const event = parseOrThrow(ZBillingAEvent, body);
    return { accounts: [event.seller_id], mapping: mapOneEvent(event.seller_id, event.event_id, () => mapBillingA(event)) };
  },
};
