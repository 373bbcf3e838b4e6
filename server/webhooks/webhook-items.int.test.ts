// One bad item never fails a delivery (issue #11): whatever one item's checks, mapping or row
// would throw, the rest goes in and that item is listed in rejected[]; a cross-reference to
// another owner's record is a rejection; a 500 on a webhook never advises an Idempotency-Key.
// End to end through the REST layer with real HMAC signatures, two real owners.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import {
  seedBusiness,
  seedEvent,
  seedIntegration,
  seedOwner,
  seedProject,
  seedSubscription,
  staticOwner,
} from "../../test/helpers/seed";
import { deliveryEvent, postDelivery, YESTERDAY } from "../../test/helpers/webhooks";
import { nowSeconds, paymentsAHeaders, serviceHeaders, socialAdsHeaders } from "../../test/helpers/webhook-signing";

const SECRETS = {
  WEBHOOK_SECRET_PAYMENTS_A: "whsec_payments_a_items",
  WEBHOOK_SECRET_SOCIAL_ADS: "social-app-secret-items",
  WEBHOOK_SECRET_SEARCH_ADS: "search-relay-secret-items",
};
const GENERIC_SECRET = "generic-secret-items-0123456789";
// What the platforms sign each connected account's deliveries with (search_ads' relay uses the server's).
const SOCIAL_SECRET = "social-ads-app-secret-items";
const PAYMENTS_SECRET = "payments-a-account-secret-items";

let api: TTestApi;
let ownerId: string;
let businessId: string;
let genericId: string;

beforeAll(async () => {
  api = await createTestApi({ env: SECRETS });
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
  genericId = await seedIntegration(api.db, { ownerId, provider: "generic", name: "g", businessId, secret: GENERIC_SECRET });
});
afterAll(async () => api?.close());

const post = (path: string, body: string, headers: Record<string, string>) => postDelivery(api, path, body, headers);
const sendGeneric = (body: unknown) => {
  const raw = JSON.stringify(body);
  return post(`/v1/webhooks/generic/${genericId}`, raw, serviceHeaders(GENERIC_SECRET, raw));
};
const event = deliveryEvent;
const stored = (externalId: string) => api.db.financialEvent.count({ where: { externalId } });

describe("generic: one bad item is rejected alone", () => {
  it("stores the good items and rejects an event the database could not store (NUL byte, lone surrogate, year 0)", async () => {
    const response = await sendGeneric({
      events: [
        event("ok-1"),
        event("nul-desc", { description: "a\u0000b" }),
        event("nul-key", { payload: { ["k\u0000"]: 1 } }),
        event("surrogate", { payload: { note: "\ud800" } }),
        event("year-zero", { occurred_on: "0000-01-01" }),
        event("ok-2"),
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body.data.inserted).toBe(2);
    expect(response.body.data.rejected.map((r: any) => [r.index, r.external_id, r.code])).toEqual([
      [1, "nul-desc", "validation_error"],
      [2, "nul-key", "validation_error"],
      [3, "surrogate", "validation_error"],
      [4, "year-zero", "validation_error"],
    ]);
    expect(await stored("ok-2")).toBe(1);
    expect(await stored("nul-desc")).toBe(0);
  });

  it("rejects a bad signal alone (index after the events) and writes the rest", async () => {
    const at = new Date().toISOString();
    const response = await sendGeneric({
      events: [event("with-signals")],
      signals: [
        { external_id: "sig-ok", code: "payout_paid", occurred_at: at },
        { external_id: "sig-bad-code", code: "no_such_code", occurred_at: at },
        { external_id: "sig-nul", code: "payout_paid", occurred_at: at, message: "x\u0000y" },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ inserted: 1, signals_accepted: 1, signals_deduped: 0 });
    expect(response.body.data.rejected.map((r: any) => [r.index, r.external_id, r.code])).toEqual([
      [2, "sig-bad-code", "validation_error"],
      [3, "sig-nul", "validation_error"],
    ]);
    expect(await api.db.integrationSignal.count({ where: { externalId: { in: ["sig-ok", "sig-bad-code", "sig-nul"] } } })).toBe(
      1,
    );
  });
});

describe("platform receivers: one bad item is rejected alone", () => {
  it("social_ads: a change of the wrong shape is rejected, the other changes go in", async () => {
    const account = `act_${randomUUID().slice(0, 8)}`;
    await seedIntegration(api.db, {
      ownerId,
      provider: "social_ads",
      name: "s",
      businessId,
      accountId: account,
      secret: SOCIAL_SECRET,
    });
    const spend = (campaign: string, value: string) => ({
      field: "spend",
      value: { date: YESTERDAY, level: "campaign", campaign_id: campaign, spend: value, currency: "EUR" },
    });
    const raw = JSON.stringify({
      object: "ad_account",
      entry: [{ id: account, time: nowSeconds(), changes: [spend("c1", "1.00"), spend("c2", "1,00"), spend("c3", "3.00")] }],
    });
    const response = await post("/v1/webhooks/social_ads", raw, socialAdsHeaders(SOCIAL_SECRET, raw));
    expect(response.status).toBe(200);
    expect(response.body.data.inserted).toBe(2);
    expect(response.body.data.rejected).toEqual([
      { index: 1, external_id: null, code: "validation_error", message: expect.stringContaining("spend") },
    ]);
  });

  it("search_ads: a report row with an impossible date is rejected, the other rows go in", async () => {
    const customer = `cus-${randomUUID().slice(0, 8)}`;
    await seedIntegration(api.db, { ownerId, provider: "search_ads", name: "s", businessId, accountId: customer });
    const row = (campaign: string, date: string) => ({ date, campaign_id: campaign, cost_minor: 100, currency: "EUR" });
    const raw = JSON.stringify({
      customer_id: customer,
      reports: [row("1", YESTERDAY), row("2", "2026-02-30"), row("3", YESTERDAY)],
    });
    const response = await post("/v1/webhooks/search_ads", raw, serviceHeaders(SECRETS.WEBHOOK_SECRET_SEARCH_ADS, raw));
    expect(response.status).toBe(200);
    expect(response.body.data.inserted).toBe(2);
    expect(response.body.data.rejected.map((r: any) => [r.index, r.code])).toEqual([[1, "validation_error"]]);
  });

  it("payments_a: an event whose mapping throws (a time out of range) is rejected, never a 500", async () => {
    const account = `acct_${randomUUID().slice(0, 8)}`;
    await seedIntegration(api.db, {
      ownerId,
      provider: "payments_a",
      name: "p",
      businessId,
      accountId: account,
      secret: PAYMENTS_SECRET,
    });
    const raw = JSON.stringify({
      id: "evt_far_future",
      type: "charge.succeeded",
      account,
      created: nowSeconds(),
      data: { object: { id: "ch_far", object: "charge", amount: 100, currency: "eur", created: 9_000_000_000_000_000 } },
    });
    const response = await post("/v1/webhooks/payments_a", raw, paymentsAHeaders(PAYMENTS_SECRET, raw));
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      inserted: 0,
      rejected: [{ index: 0, external_id: "evt_far_future", code: "validation_error" }],
    });
  });
});

describe("cross-references to another owner's records", () => {
  it("rejects an event naming another owner's subscription, project or planned event, and stores the rest", async () => {
    const bob = await seedOwner(api);
    const bobBusiness = (await seedBusiness(api, { name: "Bob's" }, bob.token)).id;
    const bobProject = (await seedProject(api, bobBusiness, { name: "Bob's project" }, bob.token)).id;
    const bobSubscription = await seedSubscription(
      api,
      { business_id: bobBusiness, name: "Bob's tool", amount_minor: 1000 },
      bob.token,
    );
    const plan = { business_id: bobBusiness, amount_minor: 1000, occurred_on: "2026-12-01" };
    const bobPlanned = await seedEvent(api, "planned_expense", plan, bob.token);

    const response = await sendGeneric({
      events: [
        event("xref-sub", { type: "expense", subscription_id: bobSubscription.id }),
        event("xref-project", { project_id: bobProject }),
        event("xref-planned", { type: "expense", amount_minor: 1000, payload: { fulfills_event_id: bobPlanned.id } }),
        event("xref-unknown-sub", { type: "expense", subscription_id: randomUUID() }),
        event("xref-fine"),
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body.data.inserted).toBe(1);
    expect(response.body.data.rejected.map((r: any) => [r.index, r.external_id, r.code, r.message])).toEqual([
      [0, "xref-sub", "validation_error", "subscription_id: no such subscription in this business"],
      [1, "xref-project", "validation_error", "project_id: no such project in this business"],
      [2, "xref-planned", "validation_error", "payload.fulfills_event_id: no such planned event"],
      [3, "xref-unknown-sub", "validation_error", "subscription_id: no such subscription in this business"],
    ]);
    expect(await api.db.financialEvent.count({ where: { subscriptionId: bobSubscription.id, ownerId } })).toBe(0);
    const planned = await api.db.financialEvent.findUniqueOrThrow({ where: { id: bobPlanned.id } });
    expect(planned.fulfilledByEventId).toBeNull();

    // The owner's own subscription is linked.
    const mine = await api.call("POST", "/v1/subscriptions", {
      body: {
        business_id: businessId,
        name: "My tool",
        amount_minor: 1000,
        currency: "EUR",
        billing_interval: "month",
        next_charge_on: "2026-12-01",
      },
    });
    const own = await sendGeneric({ events: [event("xref-own-sub", { type: "expense", subscription_id: mine.body.data.id })] });
    expect(own.body.data).toMatchObject({ inserted: 1, rejected: [] });
  });
});

describe("a 500 on a webhook", () => {
  it("never advises retrying with an Idempotency-Key (webhooks are exempt)", async () => {
    // A secret that cannot be decrypted: a real failure inside the receiver.
    const broken = await api.db.integration.create({
      data: { ownerId, provider: "generic", name: "broken", businessId, secretEncrypted: randomBytes(48) },
    });
    const raw = JSON.stringify({ events: [event("never")] });
    const response = await post(`/v1/webhooks/generic/${broken.id}`, raw, serviceHeaders(GENERIC_SECRET, raw));
    expectApiError(response, 500, "internal_error");
    expect(response.body.error.message).not.toMatch(/idempotency/i);
    expect(response.body.error.message).toMatch(/request_id/);
  });
});
