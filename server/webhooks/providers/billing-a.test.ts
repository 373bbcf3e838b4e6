import { describe, expect, it } from "vitest";
import { AppError } from "../../errors/app-error";
import { billingAHeaders, nowSeconds } from "../../../test/helpers/webhook-signing";
import { billingA, billingAMrr, verifyBillingA } from "./billing-a";

const SECRET = "billing-a-secret";
const now = new Date("2026-03-01T12:00:00Z");
const item = (unit_price_minor: number, interval: "month" | "quarter" | "year" = "month", quantity = 1, plan = "Pro") => ({
  price_id: "pri_1",
  plan,
  unit_price_minor,
  quantity,
  interval,
});
const subscription = (extra: Record<string, unknown> = {}) => ({
  id: "sub_1",
  customer_id: "ctm_1",
  status: "active",
  currency_code: "EUR",
  items: [item(2900)],
  ...extra,
});
const event = (event_type: string, data: Record<string, unknown>, event_id = `evt_${event_type}`) => ({
  event_id,
  event_type,
  occurred_at: "2026-03-01T09:30:00Z",
  seller_id: "sel_1",
  data,
});

describe("billing_a signature", () => {
  const body = JSON.stringify(event("subscription.created", subscription()));
  const verify = (headers: Record<string, string>, raw = body) =>
    verifyBillingA({ headers: new Headers(headers), rawBody: Buffer.from(raw), secret: SECRET, now }) !== null;

  it("accepts ts=<unix>;h1=<hex HMAC of '<ts>:<body>'> within 5 minutes", () => {
    expect(verify(billingAHeaders(SECRET, body, nowSeconds(now)))).toBe(true);
  });

  it("refuses another secret or body, a stale ts, the payments_a format", () => {
    expect(verify(billingAHeaders("other", body, nowSeconds(now)))).toBe(false);
    expect(verify(billingAHeaders(SECRET, body, nowSeconds(now)), body.replace("2900", "2901"))).toBe(false);
    expect(verify(billingAHeaders(SECRET, body, nowSeconds(now) - 400))).toBe(false);
    const h1 = billingAHeaders(SECRET, body, nowSeconds(now))["x-billinga-signature"]!.split(";")[1]!.slice(3);
    expect(verify({ "x-billinga-signature": `t=${nowSeconds(now)},v1=${h1}` })).toBe(false);
    expect(verify({})).toBe(false);
  });
});

describe("billing_a MRR", () => {
  it("is annual ÷ 12 in integer minor units, with the remainder kept", () => {
    expect(billingAMrr([item(2900)])).toEqual({ mrrMinor: 2900, remainderMinor: 0, annualMinor: 34_800n });
    expect(billingAMrr([item(29_000, "year")])).toEqual({ mrrMinor: 2416, remainderMinor: 8, annualMinor: 29_000n });
    expect(billingAMrr([item(9000, "quarter", 2)])).toEqual({ mrrMinor: 6000, remainderMinor: 0, annualMinor: 72_000n });
    expect(billingAMrr([item(1000), item(12_000, "year")])).toEqual({ mrrMinor: 2000, remainderMinor: 0, annualMinor: 24_000n });
  });
});

describe("billing_a mapping", () => {
  const change = (body: unknown) => billingA.read(body).mapping;

  it("maps subscription.created to a new subscription_change of the MRR", () => {
    const { accounts, mapping } = billingA.read(event("subscription.created", subscription({ items: [item(29_000, "year")] })));
    expect(accounts).toEqual(["sel_1"]);
    expect(mapping.events).toEqual([
      {
        index: 0,
        account: "sel_1",
        event: {
          external_id: "evt_subscription.created",
          type: "subscription_change",
          state: "actual",
          amount_minor: 2416,
          currency: "EUR",
          occurred_on: "2026-03-01",
          source_type: "PAYMENTS_API",
          payload: {
            platform: "billing_a",
            account_id: "sel_1",
            customer_id: "ctm_1",
            subscription_id: "sub_1",
            change: "new",
            mrr_minor: 2416,
            previous_mrr_minor: 0,
            mrr_remainder_minor: 8,
            plan: "Pro",
            billing_interval: "year",
          },
        },
      },
    ]);
  });

  it("maps updates to expansion or contraction by the MRR difference; an unchanged MRR is ignored", () => {
    const up = change(event("subscription.updated", subscription({ items: [item(4900)], previous_items: [item(2900)] })));
    expect(up.events[0]!.event).toMatchObject({
      amount_minor: 2000,
      payload: { change: "expansion", mrr_minor: 4900, previous_mrr_minor: 2900 },
    });
    const down = change(event("subscription.updated", subscription({ items: [item(900)], previous_items: [item(2900)] })));
    expect(down.events[0]!.event).toMatchObject({ amount_minor: -2000, payload: { change: "contraction" } });
    const same = change(event("subscription.updated", subscription({ previous_items: [item(2900, "month", 1, "Old name")] })));
    expect(same).toEqual({ events: [], rejected: [], signals: [], ignored: 1 });
  });

  it("maps cancellation to churn of the whole MRR plus a subscription_churned signal; resume to reactivation", () => {
    const churn = change(event("subscription.canceled", subscription({ status: "canceled" })));
    expect(churn.events[0]!.event).toMatchObject({
      amount_minor: -2900,
      payload: { change: "churn", mrr_minor: 0, previous_mrr_minor: 2900 },
    });
    expect(churn.signals).toEqual([
      {
        account: "sel_1",
        signal: {
          external_id: "evt_subscription.canceled",
          code: "subscription_churned",
          occurred_at: "2026-03-01T09:30:00.000Z",
          ref: { subscription_id: "sub_1", customer_id: "ctm_1" },
          amount_minor: 2900,
          currency: "EUR",
        },
      },
    ]);
    expect(change(event("subscription.resumed", subscription())).events[0]!.event).toMatchObject({
      amount_minor: 2900,
      payload: { change: "reactivation" },
    });
  });

  it("maps past due and failed payments to signals only", () => {
    const pastDue = change(event("subscription.past_due", subscription({ status: "past_due" })));
    expect(pastDue.events).toEqual([]);
    expect(pastDue.signals[0]!.signal.code).toBe("subscription_past_due");
    const failed = change(
      event("transaction.payment_failed", {
        id: "txn_1",
        subscription_id: "sub_1",
        currency_code: "EUR",
        total_minor: 2900,
        failure_reason: "Insufficient funds",
      }),
    );
    expect(failed.signals[0]!.signal).toEqual({
      external_id: "evt_transaction.payment_failed",
      code: "payment_failed",
      occurred_at: "2026-03-01T09:30:00.000Z",
      ref: { transaction_id: "txn_1", subscription_id: "sub_1" },
      amount_minor: 2900,
      currency: "EUR",
      message: "Insufficient funds",
    });
  });

  it("ignores other event types and refuses an update without previous_items", () => {
    expect(change(event("customer.updated", { id: "ctm_1" })).ignored).toBe(1);
    expect(() => change(event("subscription.updated", subscription()))).toThrow(AppError);
  });
});
