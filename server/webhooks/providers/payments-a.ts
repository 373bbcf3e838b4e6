// payments_a: a card-payments platform. One event per delivery, signed with a timestamp:
//   X-PaymentsA-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
// (several v1 entries may be sent while a secret is rotated; one match is enough; t must be
// within 5 minutes of now). Charges become revenue, refunds link to their charge, failed
// charges, disputes and payouts become signals. docs/webhooks.md has the table.
import { z } from "zod";
import { utcDayOfUnixSeconds } from "../../../lib/days";
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
import { unixToIso } from "./amounts";
import { ZPlatformId } from "./fields";

export const PAYMENTS_A_SIGNATURE_HEADER = "X-PaymentsA-Signature";
const PLATFORM = "payments_a";

const ZUnix = z.number().int().nonnegative().describe("Unix seconds.");
const ZMinor = z
  .number()
  .int()
  .nonnegative()
  .refine(Number.isSafeInteger, { message: "is beyond the exact integer range" })
  .describe("Integer minor units (cents).");
const ZLowerCurrency = z
  .string()
  .regex(/^[A-Za-z]{3}$/, { message: "must be a three-letter ISO 4217 code" })
  .describe("ISO 4217, lower case as the platform sends it (upper-cased on ingest).");

export const ZPaymentsARefund = z
  .looseObject({
    id: ZPlatformId.describe("Refund id: the refund event's external_id."),
    object: z.literal("refund").optional(),
    amount: ZMinor,
    currency: ZLowerCurrency,
    charge: ZPlatformId.describe("The refunded charge."),
    created: ZUnix,
    status: z.string().optional(),
  })
  .meta({ id: "PaymentsARefund" });

export const ZPaymentsACharge = z
  .looseObject({
    id: ZPlatformId.describe("Charge id: the revenue event's external_id."),
    object: z.literal("charge").optional(),
    amount: ZMinor,
    currency: ZLowerCurrency,
    created: ZUnix,
    description: z.string().nullable().optional(),
    customer: z.string().nullable().optional(),
    failure_code: z.string().nullable().optional(),
    failure_message: z.string().nullable().optional(),
    amount_refunded: ZMinor.optional(),
    refunds: z
      .object({ data: z.array(ZPaymentsARefund).max(100) })
      .optional()
      .describe("Required on charge.refunded: each refund becomes one refund event."),
  })
  .meta({ id: "PaymentsACharge" });

export const ZPaymentsADispute = z
  .looseObject({
    id: ZPlatformId,
    object: z.literal("dispute").optional(),
    amount: ZMinor,
    currency: ZLowerCurrency,
    charge: ZPlatformId,
    reason: z.string().optional(),
    created: ZUnix,
  })
  .meta({ id: "PaymentsADispute" });

export const ZPaymentsAPayout = z
  .looseObject({
    id: ZPlatformId,
    object: z.literal("payout").optional(),
    amount: ZMinor,
    currency: ZLowerCurrency,
    arrival_date: ZUnix,
    status: z.string().optional(),
    failure_code: z.string().nullable().optional(),
    failure_message: z.string().nullable().optional(),
  })
  .meta({ id: "PaymentsAPayout" });

/** The data.object schema each read event type requires; other types are acknowledged unread. */
const OBJECT_BY_TYPE: Record<string, z.ZodType> = {
  "charge.succeeded": ZPaymentsACharge,
  "charge.refunded": ZPaymentsACharge.refine((c) => (c.refunds?.data.length ?? 0) > 0, {
    message: "charge.refunded needs the charge's refunds (refunds.data)",
    path: ["refunds"],
  }),
  "charge.failed": ZPaymentsACharge,
  "refund.created": ZPaymentsARefund,
  "charge.dispute.created": ZPaymentsADispute,
  "payout.paid": ZPaymentsAPayout,
  "payout.failed": ZPaymentsAPayout,
};
export const PAYMENTS_A_EVENT_TYPES = Object.keys(OBJECT_BY_TYPE);

export const ZPaymentsAEvent = z
  .object({
    id: ZPlatformId.describe("Event id: the external_id of the signals it raises."),
    type: z
      .string()
      .min(1)
      .max(100)
      .describe(`Read: ${PAYMENTS_A_EVENT_TYPES.join(", ")}. Others are acknowledged (ignored).`),
    account: ZPlatformId.describe("The connected account: finds the owner's payments_a integration."),
    created: ZUnix,
    data: z.object({
      object: z.union([ZPaymentsACharge, ZPaymentsARefund, ZPaymentsADispute, ZPaymentsAPayout, z.looseObject({})]),
    }),
  })
  .superRefine((event, ctx) => {
    const schema = OBJECT_BY_TYPE[event.type];
    if (!schema) return;
    const parsed = schema.safeParse(event.data.object);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: "custom", message: issue.message, path: ["data", "object", ...issue.path] });
  })
  .meta({ id: "PaymentsAEvent", description: "payments_a: one platform event per delivery." });
export type TPaymentsAEvent = z.infer<typeof ZPaymentsAEvent>;

type TRefund = z.infer<typeof ZPaymentsARefund>;
type TCharge = z.infer<typeof ZPaymentsACharge>;
type TDispute = z.infer<typeof ZPaymentsADispute>;
type TPayout = z.infer<typeof ZPaymentsAPayout>;

export function verifyPaymentsA({ headers, rawBody, secret, now }: TVerifyInput): Buffer | null {
  const pairs = parseKeyValueList(headers.get(PAYMENTS_A_SIGNATURE_HEADER), ",");
  const timestamps = pairs.filter(([k]) => k === "t");
  if (timestamps.length !== 1) return null;
  const t = parseUnixSeconds(timestamps[0]![1]);
  if (!isWithinTolerance(t, now)) return null;
  const expected = hmacSha256(secret, `${t}.`, rawBody);
  // Every candidate is compared (no early exit on the first mismatch).
  const ok = pairs.filter(([k]) => k === "v1").reduce((ok, [, v]) => hexDigestMatches(expected, v) || ok, false);
  return ok ? expected : null;
}

function refundEvent(account: string, refund: TRefund, chargeId: string): TProviderEvent {
  return {
    external_id: refund.id,
    type: "refund",
    state: "actual",
    amount_minor: refund.amount,
    currency: refund.currency.toUpperCase(),
    occurred_on: utcDayOfUnixSeconds(refund.created),
    source_type: "PAYMENTS_API",
    payload: { platform: PLATFORM, account_id: account, refunds_external_id: chargeId, direction: "out" },
  };
}

/** The pure mapping of one (validated) event. */
export function mapPaymentsA(event: TPaymentsAEvent): TMapping {
  const mapping = emptyMapping();
  const account = event.account;
  const object = event.data.object as Record<string, unknown>;
  const occurredAt = unixToIso(event.created);
  const signal = (
    code: "payment_failed" | "dispute_opened" | "payout_paid" | "payout_failed",
    amount: number,
    currency: string,
    ref: Record<string, string>,
    message?: string | null,
  ) =>
    mapping.signals.push({
      account,
      signal: {
        external_id: event.id,
        code,
        occurred_at: occurredAt,
        amount_minor: amount,
        currency: currency.toUpperCase(),
        ref,
        ...(message ? { message: message.slice(0, 1000) } : {}),
      },
    });

  switch (event.type) {
    case "charge.succeeded": {
      const charge = object as TCharge;
      mapping.events.push({
        index: 0,
        account,
        event: {
          external_id: charge.id,
          type: "revenue",
          state: "actual",
          amount_minor: charge.amount,
          currency: charge.currency.toUpperCase(),
          occurred_on: utcDayOfUnixSeconds(charge.created),
          ...(charge.description ? { description: charge.description.slice(0, 1000) } : {}),
          source_type: "PAYMENTS_API",
          payload: {
            platform: PLATFORM,
            account_id: account,
            ...(charge.customer ? { customer_id: charge.customer } : {}),
          },
        },
      });
      break;
    }
    case "charge.refunded": {
      const charge = object as TCharge;
      (charge.refunds?.data ?? []).forEach((refund, index) =>
        mapping.events.push({ index, account, event: refundEvent(account, refund, charge.id) }),
      );
      break;
    }
    case "refund.created": {
      const refund = object as TRefund;
      mapping.events.push({ index: 0, account, event: refundEvent(account, refund, refund.charge) });
      break;
    }
    case "charge.failed": {
      const charge = object as TCharge;
      signal("payment_failed", charge.amount, charge.currency, { charge_id: charge.id }, charge.failure_message);
      break;
    }
    case "charge.dispute.created": {
      const dispute = object as TDispute;
      signal(
        "dispute_opened",
        dispute.amount,
        dispute.currency,
        { dispute_id: dispute.id, charge_id: dispute.charge },
        dispute.reason ? `A customer disputed a payment (${dispute.reason}).` : undefined,
      );
      break;
    }
    case "payout.paid":
    case "payout.failed": {
      const payout = object as TPayout;
      signal(
        event.type === "payout.paid" ? "payout_paid" : "payout_failed",
        payout.amount,
        payout.currency,
        { payout_id: payout.id, arrival_date: utcDayOfUnixSeconds(payout.arrival_date) },
        payout.failure_message,
      );
      break;
    }
    default:
      mapping.ignored++;
  }
  return mapping;
}

export const paymentsA: TWebhookProviderModule = {
  provider: "payments_a",
  secretEnv: "WEBHOOK_SECRET_PAYMENTS_A",
  schema: ZPaymentsAEvent,
  headers: {
    [PAYMENTS_A_SIGNATURE_HEADER]:
      'payments_a: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` with the connection\'s signing secret; t within 5 minutes.',
  },
  verify: verifyPaymentsA,
  accountsNamed: (body) => namedAccount(body, "account"),
  read: (body) => {
    const event = parseOrThrow(ZPaymentsAEvent, body);
    return { accounts: [event.account], mapping: mapOneEvent(event.account, event.id, () => mapPaymentsA(event)) };
  },
};
