import { describe, expect, it } from "vitest";
import { AppError } from "../../errors/app-error";
import { nowSeconds, paymentsAHeaders } from "../../../test/helpers/webhook-signing";
import { mapPaymentsA, paymentsA, verifyPaymentsA, ZPaymentsAEvent } from "./payments-a";

const SECRET = "whsec_payments_a_test";
const now = new Date("2026-03-01T12:00:00Z");
const T = nowSeconds(now);

const charge = { id: "ch_1", object: "charge", amount: 1999, currency: "eur", created: T - 60, description: "Pro plan" };
const event = (type: string, object: Record<string, unknown>) => ({
  id: `evt_${type}`,
  type,
  account: "acct_1",
  created: T,
  data: { object },
});
const read = (body: unknown) => paymentsA.read(body);

describe("payments_a signature", () => {
  const body = JSON.stringify(event("charge.succeeded", charge));
  const verify = (headers: Record<string, string>, raw = body) =>
    verifyPaymentsA({ headers: new Headers(headers), rawBody: Buffer.from(raw), secret: SECRET, now }) !== null;

  it("accepts t=<unix>,v1=<hex HMAC of '<t>.<body>'> within 5 minutes", () => {
    expect(verify(paymentsAHeaders(SECRET, body, T))).toBe(true);
    expect(verify(paymentsAHeaders(SECRET, body, T - 300))).toBe(true);
  });

  it("accepts any one of several v1 signatures (secret rotation)", () => {
    const good = paymentsAHeaders(SECRET, body, T)["x-paymentsa-signature"]!;
    const old = paymentsAHeaders("old-secret", body, T)["x-paymentsa-signature"]!.split(",")[1];
    expect(verify({ "x-paymentsa-signature": `${good},${old}` })).toBe(true);
    expect(verify({ "x-paymentsa-signature": `t=${T},${old}` })).toBe(false);
  });

  it("refuses another secret, another body, a stale or missing t, and a missing header", () => {
    expect(verify(paymentsAHeaders("other", body, T))).toBe(false);
    expect(verify(paymentsAHeaders(SECRET, body, T), `${body} `)).toBe(false);
    expect(verify(paymentsAHeaders(SECRET, body, T - 301))).toBe(false);
    const v1 = paymentsAHeaders(SECRET, body, T)["x-paymentsa-signature"]!.split(",")[1]!;
    expect(verify({ "x-paymentsa-signature": v1 })).toBe(false);
    expect(verify({ "x-paymentsa-signature": `t=${T},t=${T},${v1}` })).toBe(false);
    expect(verify({})).toBe(false);
  });
});

describe("payments_a mapping", () => {
  it("maps charge.succeeded to revenue keyed by the charge id, currency upper-cased", () => {
    const { accounts, mapping } = read(event("charge.succeeded", { ...charge, customer: "cus_9" }));
    expect(accounts).toEqual(["acct_1"]);
    expect(mapping).toEqual({
      events: [
        {
          index: 0,
          account: "acct_1",
          event: {
            external_id: "ch_1",
            type: "revenue",
            state: "actual",
            amount_minor: 1999,
            currency: "EUR",
            occurred_on: "2026-03-01",
            description: "Pro plan",
            source_type: "PAYMENTS_API",
            payload: { platform: "payments_a", account_id: "acct_1", customer_id: "cus_9" },
          },
        },
      ],
      rejected: [],
      signals: [],
      ignored: 0,
    });
  });

  it("maps refund.created and each refund of charge.refunded to a refund of the charge, direction out", () => {
    const refund = { id: "re_1", object: "refund", amount: 500, currency: "eur", charge: "ch_1", created: T };
    const single = read(event("refund.created", refund)).mapping.events;
    expect(single).toEqual([
      {
        index: 0,
        account: "acct_1",
        event: expect.objectContaining({
          external_id: "re_1",
          type: "refund",
          amount_minor: 500,
          currency: "EUR",
          payload: { platform: "payments_a", account_id: "acct_1", refunds_external_id: "ch_1", direction: "out" },
        }),
      },
    ]);
    const refunded = read(
      event("charge.refunded", {
        ...charge,
        amount_refunded: 800,
        refunds: { data: [refund, { ...refund, id: "re_2", amount: 300 }] },
      }),
    ).mapping.events;
    expect(refunded.map((e) => [e.index, e.event.external_id, e.event.amount_minor])).toEqual([
      [0, "re_1", 500],
      [1, "re_2", 300],
    ]);
  });

  it("raises signals for failed charges, disputes and payouts, keyed by the event id", () => {
    const signals = (type: string, object: Record<string, unknown>) => read(event(type, object)).mapping.signals;
    expect(signals("charge.failed", { ...charge, failure_message: "Card declined" })).toEqual([
      {
        account: "acct_1",
        signal: {
          external_id: "evt_charge.failed",
          code: "payment_failed",
          occurred_at: "2026-03-01T12:00:00.000Z",
          amount_minor: 1999,
          currency: "EUR",
          ref: { charge_id: "ch_1" },
          message: "Card declined",
        },
      },
    ]);
    const dispute = { id: "dp_1", amount: 1999, currency: "eur", charge: "ch_1", reason: "fraudulent", created: T };
    expect(signals("charge.dispute.created", dispute)[0]!.signal).toMatchObject({
      code: "dispute_opened",
      ref: { dispute_id: "dp_1", charge_id: "ch_1" },
    });
    const payout = { id: "po_1", amount: 10_000, currency: "usd", arrival_date: T };
    expect(signals("payout.paid", payout)[0]!.signal).toMatchObject({
      code: "payout_paid",
      amount_minor: 10_000,
      currency: "USD",
    });
    expect(signals("payout.failed", payout)[0]!.signal).toMatchObject({ code: "payout_failed", ref: { payout_id: "po_1" } });
  });

  it("acknowledges other event types as ignored, whatever their object", () => {
    expect(read(event("customer.created", { id: "cus_1", email: "x@example.test" })).mapping).toEqual({
      events: [],
      rejected: [],
      signals: [],
      ignored: 1,
    });
  });

  it("refuses a known type whose object is not the documented one (400 with the field)", () => {
    expect(() => read(event("charge.succeeded", { id: "ch_1", amount: 1.5, currency: "eur", created: T }))).toThrow(AppError);
    const error = (() => {
      try {
        read(event("charge.refunded", charge));
        return null;
      } catch (thrown) {
        return thrown as AppError;
      }
    })();
    expect(error?.code).toBe("validation_error");
    expect(error?.details).toEqual({ issues: [expect.objectContaining({ path: "data.object.refunds" })] });
    expect(ZPaymentsAEvent.safeParse({ id: "evt", type: "x", created: T, data: { object: {} } }).success).toBe(false);
  });

  it("is pure: the same event maps to the same items", () => {
    const parsed = ZPaymentsAEvent.parse(event("charge.succeeded", charge));
    expect(mapPaymentsA(parsed)).toEqual(mapPaymentsA(parsed));
  });
});
