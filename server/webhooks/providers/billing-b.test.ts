import { describe, expect, it } from "vitest";
import { AppError } from "../../errors/app-error";
import { billingBHeaders, nowSeconds } from "../../../test/helpers/webhook-signing";
import { billingB, verifyBillingB } from "./billing-b";

const SECRET = "billing-b-secret";
const now = new Date("2026-03-01T12:00:00Z");
const T = nowSeconds(now);
const subscription = (extra: Record<string, unknown> = {}) => ({
  id: "sub_b1",
  customer_id: "cus_b1",
  plan_id: "pro-yearly",
  status: "active",
  currency_code: "USD",
  mrr: 2417,
  billing_period_unit: "year",
  ...extra,
});
const event = (event_type: string, content: Record<string, unknown>, id = `ev_${event_type}`) => ({
  id,
  event_type,
  occurred_at: T,
  site: "acme",
  content,
});

describe("billing_b signature", () => {
  const body = JSON.stringify(event("subscription_created", { subscription: subscription() }));
  const verify = (headers: Record<string, string>, raw = body) =>
    verifyBillingB({ headers: new Headers(headers), rawBody: Buffer.from(raw), secret: SECRET, now }) !== null;

  it("accepts v1=<base64 HMAC of '<timestamp>.<body>'> with X-BillingB-Timestamp within 5 minutes", () => {
    expect(verify(billingBHeaders(SECRET, body, T))).toBe(true);
    const good = billingBHeaders(SECRET, body, T);
    const old = billingBHeaders("old", body, T)["x-billingb-signature"];
    expect(verify({ ...good, "x-billingb-signature": `${old} ${good["x-billingb-signature"]}` })).toBe(true);
  });

  it("refuses a hex digest, another timestamp, a stale one, another secret", () => {
    const headers = billingBHeaders(SECRET, body, T);
    const hex = Buffer.from(headers["x-billingb-signature"]!.slice(3), "base64").toString("hex");
    expect(verify({ ...headers, "x-billingb-signature": `v1=${hex}` })).toBe(false);
    expect(verify({ ...headers, "x-billingb-timestamp": String(T + 1) })).toBe(false);
    expect(verify(billingBHeaders(SECRET, body, T - 301))).toBe(false);
    expect(verify(billingBHeaders("other", body, T))).toBe(false);
    expect(verify({ "x-billingb-signature": headers["x-billingb-signature"]! })).toBe(false);
  });
});

describe("billing_b mapping", () => {
  const map = (body: unknown) => billingB.read(body).mapping;

  it("takes MRR as the platform sends it: created → new", () => {
    const { accounts, mapping } = billingB.read(event("subscription_created", { subscription: subscription() }));
    expect(accounts).toEqual(["acme"]);
    expect(mapping.events).toEqual([
      {
        index: 0,
        account: "acme",
        event: {
          external_id: "ev_subscription_created",
          type: "subscription_change",
          state: "actual",
          amount_minor: 2417,
          currency: "USD",
          occurred_on: "2026-03-01",
          source_type: "PAYMENTS_API",
          payload: {
            platform: "billing_b",
            account_id: "acme",
            customer_id: "cus_b1",
            subscription_id: "sub_b1",
            change: "new",
            mrr_minor: 2417,
            previous_mrr_minor: 0,
            plan: "pro-yearly",
            billing_interval: "year",
          },
        },
      },
    ]);
  });

  it("changed → expansion/contraction by previous_mrr; equal MRR ignored; cancelled → churn + signal", () => {
    const up = map(event("subscription_changed", { subscription: subscription({ mrr: 5000 }), previous_mrr: 2417 }));
    expect(up.events[0]!.event).toMatchObject({ amount_minor: 2583, payload: { change: "expansion", previous_mrr_minor: 2417 } });
    const down = map(event("subscription_changed", { subscription: subscription({ mrr: 1000 }), previous_mrr: 2417 }));
    expect(down.events[0]!.event).toMatchObject({ amount_minor: -1417, payload: { change: "contraction" } });
    expect(map(event("subscription_changed", { subscription: subscription(), previous_mrr: 2417 })).ignored).toBe(1);
    const churn = map(
      event("subscription_cancelled", { subscription: subscription({ mrr: 0, status: "cancelled" }), previous_mrr: 2417 }),
    );
    expect(churn.events[0]!.event).toMatchObject({
      amount_minor: -2417,
      payload: { change: "churn", mrr_minor: 0, previous_mrr_minor: 2417 },
    });
    expect(churn.signals[0]!.signal).toMatchObject({ code: "subscription_churned", amount_minor: 2417, currency: "USD" });
    expect(map(event("subscription_reactivated", { subscription: subscription() })).events[0]!.event.payload).toMatchObject({
      change: "reactivation",
      previous_mrr_minor: 0,
    });
  });

  it("past due and payment failed are signals; other types are ignored", () => {
    expect(map(event("subscription_past_due", { subscription: subscription() })).signals[0]!.signal).toMatchObject({
      code: "subscription_past_due",
      occurred_at: "2026-03-01T12:00:00.000Z",
    });
    const failed = map(event("payment_failed", { transaction: { id: "txn_1", amount: 2417, currency_code: "USD" } }));
    expect(failed.signals[0]!.signal).toMatchObject({
      code: "payment_failed",
      amount_minor: 2417,
      ref: { transaction_id: "txn_1" },
    });
    expect(map(event("invoice_generated", { invoice: {} })).ignored).toBe(1);
  });

  it("refuses changed or cancelled without previous_mrr, and a created without subscription", () => {
    const path = (body: unknown) => {
      try {
        map(body);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        return ((error as AppError).details as { issues: Array<{ path: string }> }).issues[0]!.path;
      }
    };
    expect(path(event("subscription_changed", { subscription: subscription() }))).toBe("content.previous_mrr");
    expect(path(event("subscription_cancelled", { subscription: subscription() }))).toBe("content.previous_mrr");
    expect(path(event("subscription_created", {}))).toBe("content.subscription");
  });
});
