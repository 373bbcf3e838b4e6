// The webhook receivers end to end through the REST layer, with real HMAC signatures: what a
// signed delivery writes (a platform's with the signing secret of the connection it lands in),
// that a replay changes nothing, and that anything unsigned, stale, unknown or unconnected
// answers 401 with every table unchanged.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyTestEnv, createTestApi, type TApiResponse, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, seedIntegration, seedOwner, staticOwner } from "../../test/helpers/seed";
import { deliveryEvent, postDelivery, YESTERDAY } from "../../test/helpers/webhooks";
import { todayUtc } from "../../lib/days";
import type { TErrorCode } from "../errors/app-error";
import {
  billingAHeaders,
  billingBHeaders,
  nowSeconds,
  paymentsAHeaders,
  serviceHeaders,
  socialAdsHeaders,
} from "../../test/helpers/webhook-signing";

const SECRETS = {
  WEBHOOK_SECRET_PAYMENTS_A: "whsec_payments_a_int",
  WEBHOOK_SECRET_SOCIAL_ADS: "social-app-secret-int",
  WEBHOOK_SECRET_SEARCH_ADS: "search-relay-secret-int",
  WEBHOOK_SECRET_BILLING_A: "billing-a-secret-int",
  WEBHOOK_SECRET_BILLING_B: "billing-b-secret-int",
  SOCIAL_ADS_VERIFY_TOKEN: "verify-token-int",
};
// The secrets the platforms sign each connected account's deliveries with (given on connect); the
// server-wide ones above verify none of these connections (provider-account-claims.int.test.ts).
const CONNECTION_SECRETS: Record<string, string> = {
  payments_a: "payments-a-account-secret-int",
  social_ads: "social-ads-app-secret-int",
  billing_a: "billing-a-account-secret-int",
  billing_b: "billing-b-account-secret-int",
};
const GENERIC_SECRET = "generic-secret-0123456789abcdef";
const TODAY = todayUtc();

let api: TTestApi;
let ownerId: string;
let businessId: string;
let genericId: string;
let otherOwnerId: string;
const integrations: Record<string, string> = {};

/** A connection of the account, with the secret its platform signs with (search_ads: none, its relay uses the server's). */
function connect(provider: string, accountId: string, owner = ownerId, business = businessId): Promise<string> {
  const secret = CONNECTION_SECRETS[provider];
  return seedIntegration(api.db, {
    ownerId: owner,
    provider,
    name: `${provider} ${accountId}`,
    businessId: business,
    accountId,
    ...(secret ? { secret } : {}),
  });
}

beforeAll(async () => {
  api = await createTestApi({ env: SECRETS });
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
  genericId = await seedIntegration(api.db, {
    ownerId,
    provider: "generic",
    name: "Zapier-like",
    businessId,
    secret: GENERIC_SECRET,
  });
  const other = await seedOwner(api, "bob@example.test");
  otherOwnerId = other.ownerId;
  const otherBusiness = await seedBusiness(api, { name: "Bob's shop", currency: "USD" }, other.token);
  integrations.payments_a = await connect("payments_a", "acct_1");
  integrations.social_ads = await connect("social_ads", "act_1");
  integrations.social_ads_bob = await connect("social_ads", "act_bob", other.ownerId, otherBusiness.id);
  integrations.search_ads = await connect("search_ads", "123-456-7890");
  integrations.billing_a = await connect("billing_a", "sel_1");
  integrations.billing_b = await connect("billing_b", "acme");
});
afterAll(async () => api?.close());

const post = (path: string, body: string, headers: Record<string, string>) => postDelivery(api, path, body, headers);

async function tableCounts() {
  return {
    events: await api.db.financialEvent.count(),
    signals: await api.db.integrationSignal.count(),
    alerts: await api.db.alert.count(),
    audit: await api.db.auditEntry.count(),
  };
}

/** Runs `call`, expects 401 unauthenticated, and proves nothing was written. */
async function expectRefused(call: () => Promise<TApiResponse>, status = 401, code: TErrorCode = "unauthenticated") {
  const before = await tableCounts();
  const response = await call();
  expectApiError(response, status, code);
  expect(await tableCounts()).toEqual(before);
  return response;
}

// --- generic ---

describe("POST /v1/webhooks/generic/{integration_id}", () => {
  const path = () => `/v1/webhooks/generic/${genericId}`;
  const send = (body: unknown, headers = (raw: string) => serviceHeaders(GENERIC_SECRET, raw), target = path()) => {
    const raw = typeof body === "string" ? body : JSON.stringify(body);
    return post(target, raw, headers(raw));
  };
  const event = deliveryEvent;
  const delivery = {
    events: [
      // integration_id and source_type are overwritten whatever they say
      event("gen-1", { integration_id: randomUUID(), source_type: "PAYMENTS_API" }),
      event("gen-2", { type: "expense", amount_minor: 1500 }),
    ],
    signals: [
      { external_id: "sig-1", code: "payout_failed", occurred_at: new Date().toISOString(), integration_id: randomUUID() },
    ],
  };

  it("ingests signed events and signals: source_type IMPORT, the path's integration, alerts created", async () => {
    const response = await send(delivery);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { inserted: 2, deduped: 0, rejected: [], signals_accepted: 1, signals_deduped: 0 },
      request_id: expect.stringMatching(/^req_/),
    });
    const rows = await api.db.financialEvent.findMany({
      where: { externalId: { in: ["gen-1", "gen-2"] } },
      orderBy: { externalId: "asc" },
    });
    expect(rows.map((r) => [r.externalId, r.sourceType, r.integrationId, r.type, Number(r.amountMinor), r.ownerId])).toEqual([
      ["gen-1", "IMPORT", genericId, "revenue", 4200, ownerId],
      ["gen-2", "IMPORT", genericId, "expense", 1500, ownerId],
    ]);
    const signal = await api.db.integrationSignal.findFirstOrThrow({ where: { externalId: "sig-1" } });
    expect(signal.integrationId).toBe(genericId);
    const alert = await api.db.alert.findFirstOrThrow({ where: { id: signal.alertId } });
    expect(alert).toMatchObject({ code: "integration.payout_failed", severity: "critical", ownerId, integrationId: genericId });
  });

  it("answers a replayed delivery with everything deduped and writes nothing", async () => {
    const before = await tableCounts();
    const response = await send(delivery);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ inserted: 0, deduped: 2, rejected: [], signals_accepted: 0, signals_deduped: 1 });
    expect(await tableCounts()).toEqual(before);
  });

  it("needs no Idempotency-Key and ignores one", async () => {
    const raw = JSON.stringify({ events: [event("gen-idem")] });
    const response = await api.call("POST", path(), {
      rawBody: raw,
      token: null,
      idempotencyKey: "some-key",
      headers: serviceHeaders(GENERIC_SECRET, raw),
    });
    expect(response.status).toBe(200);
    expect(response.body.data.inserted).toBe(1);
  });

  it("refuses a bad, missing or foreign signature with 401 and writes nothing", async () => {
    const body = { events: [event("gen-unsigned")] };
    await expectRefused(() => send(body, (raw) => serviceHeaders("wrong-secret", raw)));
    await expectRefused(() => send(body, (raw) => ({ ...serviceHeaders(GENERIC_SECRET, raw), "x-service-signature": "" })));
    await expectRefused(() =>
      send(body, (raw) => {
        const { "x-service-signature": _s, ...rest } = serviceHeaders(GENERIC_SECRET, raw);
        return rest;
      }),
    );
    // signed over another body
    await expectRefused(() => send(body, () => serviceHeaders(GENERIC_SECRET, JSON.stringify({ events: [] }))));
  });

  it("refuses a stale, future or missing timestamp with 401", async () => {
    const body = { events: [event("gen-stale")] };
    await expectRefused(() => send(body, (raw) => serviceHeaders(GENERIC_SECRET, raw, nowSeconds() - 301)));
    await expectRefused(() => send(body, (raw) => serviceHeaders(GENERIC_SECRET, raw, nowSeconds() + 400)));
    await expectRefused(() =>
      send(body, (raw) => {
        const { "x-service-timestamp": _t, ...rest } = serviceHeaders(GENERIC_SECRET, raw);
        return rest;
      }),
    );
  });

  it("refuses an unknown id, a non-UUID id and another provider's integration with 401", async () => {
    const body = { events: [event("gen-unknown")] };
    const signed = (raw: string) => serviceHeaders(GENERIC_SECRET, raw);
    await expectRefused(() => send(body, signed, `/v1/webhooks/generic/${randomUUID()}`));
    await expectRefused(() => send(body, signed, "/v1/webhooks/generic/not-a-uuid"));
    await expectRefused(() => send(body, signed, `/v1/webhooks/generic/${integrations.payments_a}`));
  });

  it("refuses a disconnected generic integration with 401", async () => {
    const id = await seedIntegration(api.db, {
      ownerId,
      provider: "generic",
      name: "old",
      businessId,
      status: "disconnected",
      secret: GENERIC_SECRET,
    });
    await expectRefused(() => send({ events: [event("gen-off")] }, undefined, `/v1/webhooks/generic/${id}`));
  });

  it("answers 400 for an empty delivery, more than 500 items, a non-object or broken JSON body", async () => {
    for (const body of [{}, { events: [], signals: [] }, "[]", "42", "{not json"]) {
      await expectRefused(() => send(body), 400, "validation_error");
    }
    const many = {
      events: Array.from({ length: 400 }, (_, n) => event(`many-${n}`)),
      signals: Array.from({ length: 101 }, (_, n) => ({
        external_id: `many-${n}`,
        code: "payout_paid",
        occurred_at: new Date().toISOString(),
      })),
    };
    const response = await expectRefused(() => send(many), 400, "validation_error");
    expect(response.body.error.message).toMatch(/at most 500/);
  });

  it("rejects an invalid signal alone (index after the events) and writes the rest of the delivery", async () => {
    const response = await send({
      events: [event("gen-with-bad-signal")],
      signals: [{ external_id: "s", code: "no_such_code", occurred_at: "x" }],
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ inserted: 1, signals_accepted: 0 });
    expect(response.body.data.rejected).toEqual([
      { index: 1, external_id: "s", code: "validation_error", message: expect.stringContaining("code") },
    ]);
  });

  it("ingests the good events of a batch and lists the bad ones in rejected (partial success)", async () => {
    const response = await send({
      events: [
        event("part-1"),
        event("part-2", { amount_minor: 1.5 }),
        { nonsense: true },
        event("part-3", { currency: "ZZZ" }),
        event("part-4"),
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      inserted: 2,
      deduped: 0,
      rejected: [
        { index: 1, external_id: "part-2", code: "validation_error", message: expect.stringMatching(/amount_minor/) },
        { index: 2, external_id: null, code: "validation_error", message: expect.any(String) },
        { index: 3, external_id: "part-3", code: "currency_unsupported", message: expect.any(String) },
      ],
      signals_accepted: 0,
      signals_deduped: 0,
    });
    expect(await api.db.financialEvent.count({ where: { externalId: { in: ["part-1", "part-4"] } } })).toBe(2);
  });

  it("answers 422 fx_unavailable when the rate source has no rate at all, writing nothing", async () => {
    applyTestEnv({ FX_SOURCE: "ecb" }); // stored rates, none fetched: an outage
    try {
      const response = await expectRefused(
        () => send({ events: [event("gen-fx-1"), event("gen-fx-2", { currency: "GBP" })] }),
        422,
        "fx_unavailable",
      );
      expect(response.body.error.message).toMatch(/nothing was written/);
    } finally {
      applyTestEnv({ FX_SOURCE: "mock" });
    }
    // The same delivery goes in once rates are back.
    expect((await send({ events: [event("gen-fx-1")] })).body.data.inserted).toBe(1);
  });

  it("restates an event sent again with another amount", async () => {
    await send({ events: [event("gen-restated", { amount_minor: 100 })] });
    const response = await send({ events: [event("gen-restated", { amount_minor: 150 })] });
    expect(response.body.data).toMatchObject({ inserted: 1, deduped: 0 });
    const rows = await api.db.financialEvent.findMany({ where: { integrationId: genericId, chainExternalId: "gen-restated" } });
    expect(rows.map((r) => [r.externalId, r.status, Number(r.amountMinor)]).sort()).toEqual([
      ["gen-restated", "voided", 100],
      ["gen-restated:v2", "confirmed", 150],
    ]);
  });
});

// --- providers ---

describe("POST /v1/webhooks/{provider}", () => {
  it("answers 404 for an unknown provider, and 405 for GET on a provider path", async () => {
    await expectRefused(
      () => post("/v1/webhooks/bank_provider_a", "{}", { "content-type": "application/json" }),
      404,
      "not_found",
    );
    await expectRefused(() => post("/v1/webhooks/nope", "{}", { "content-type": "application/json" }), 404, "not_found");
    const response = await api.call("GET", "/v1/webhooks/payments_a", { token: null });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  describe("payments_a", () => {
    const secret = CONNECTION_SECRETS.payments_a!;
    const created = nowSeconds() - 3600;
    const charge = { id: "ch_int_1", object: "charge", amount: 1999, currency: "eur", created, description: "Pro plan" };
    const event = (id: string, type: string, object: Record<string, unknown>, account = "acct_1") => ({
      id,
      type,
      account,
      created: nowSeconds(),
      data: { object },
    });
    const send = (body: unknown, sign = (raw: string) => paymentsAHeaders(secret, raw)) => {
      const raw = JSON.stringify(body);
      return post("/v1/webhooks/payments_a", raw, sign(raw));
    };

    it("writes a charge as revenue and links a refund to it (direction out)", async () => {
      const first = await send(event("evt_1", "charge.succeeded", charge));
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({
        inserted: 1,
        deduped: 0,
        rejected: [],
        signals_accepted: 0,
        signals_deduped: 0,
        ignored: 0,
      });
      const revenue = await api.db.financialEvent.findFirstOrThrow({
        where: { integrationId: integrations.payments_a, externalId: "ch_int_1" },
      });
      expect(revenue).toMatchObject({ type: "revenue", sourceType: "PAYMENTS_API", currency: "EUR", businessId, ownerId });
      expect(Number(revenue.amountMinor)).toBe(1999);

      const refund = { id: "re_int_1", object: "refund", amount: 500, currency: "eur", charge: "ch_int_1", created };
      const second = await send(event("evt_2", "refund.created", refund));
      expect(second.body.data).toMatchObject({ inserted: 1 });
      const row = await api.db.financialEvent.findFirstOrThrow({
        where: { integrationId: integrations.payments_a, externalId: "re_int_1" },
      });
      expect(row).toMatchObject({ type: "refund", refundsEventId: revenue.id, direction: "out" });
      expect(Number(row.confidence)).toBe(1);
      expect(Number(row.amountMinor)).toBe(500);

      // The same refund announced again by charge.refunded is a repeat.
      const third = await send(
        event("evt_3", "charge.refunded", { ...charge, amount_refunded: 500, refunds: { data: [refund] } }),
      );
      expect(third.body.data).toMatchObject({ inserted: 0, deduped: 1 });
    });

    it("raises a payment_failed signal and acknowledges unread types as ignored", async () => {
      const failed = await send(
        event("evt_fail", "charge.failed", { ...charge, id: "ch_fail", failure_message: "Card declined" }),
      );
      expect(failed.body.data).toMatchObject({ inserted: 0, signals_accepted: 1, ignored: 0 });
      const alert = await api.db.alert.findFirstOrThrow({
        where: { code: "integration.payment_failed", integrationId: integrations.payments_a },
      });
      expect(alert).toMatchObject({ message: "Card declined", currency: "EUR", severity: "warning" });
      const other = await send(event("evt_cust", "customer.created", { id: "cus_1" }));
      expect(other.status).toBe(200);
      expect(other.body.data).toEqual({
        inserted: 0,
        deduped: 0,
        rejected: [],
        signals_accepted: 0,
        signals_deduped: 0,
        ignored: 1,
      });
    });

    it("refuses a bad signature, a stale one, an unconnected account and the server-wide secret with 401", async () => {
      const body = event("evt_x", "charge.succeeded", { ...charge, id: "ch_never" });
      await expectRefused(() => send(body, (raw) => paymentsAHeaders("wrong", raw)));
      await expectRefused(() => send(body, (raw) => paymentsAHeaders(secret, raw, nowSeconds() - 600)));
      await expectRefused(() => send({ ...body, account: "acct_unknown" }));
      // The connection holds its own secret: the server's does not reach it.
      await expectRefused(() => send(body, (raw) => paymentsAHeaders(SECRETS.WEBHOOK_SECRET_PAYMENTS_A, raw)));
    });

    it("answers 400 for a signed body that is not the documented shape", async () => {
      const response = await expectRefused(
        () => send(event("evt_bad", "charge.succeeded", { id: "ch_bad" })),
        400,
        "validation_error",
      );
      expect(response.body.error.details.issues.map((i: any) => i.path)).toContain("data.object.amount");
    });
  });

  describe("social_ads", () => {
    const secret = CONNECTION_SECRETS.social_ads!;
    const time = nowSeconds();
    const spend = (amount: string, campaign = "c1") => ({
      field: "spend",
      value: { date: YESTERDAY, level: "campaign", campaign_id: campaign, spend: amount, currency: "EUR", impressions: 100 },
    });
    const send = (body: unknown, sign = (raw: string) => socialAdsHeaders(secret, raw)) => {
      const raw = JSON.stringify(body);
      return post("/v1/webhooks/social_ads", raw, sign(raw));
    };
    const delivery = (changes: unknown[], id = "act_1") => ({ object: "ad_account", entry: [{ id, time, changes }] });

    it("writes daily spend, and an updated figure for the day is a restatement", async () => {
      const key = `spend:act_1:campaign:c1:${YESTERDAY}`;
      const first = await send(delivery([spend("10.00")]));
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ inserted: 1, deduped: 0, ignored: 0 });
      expect(await send(delivery([spend("10.00")])).then((r) => r.body.data)).toMatchObject({ inserted: 0, deduped: 1 });
      const update = await send(delivery([spend("12.50")]));
      expect(update.body.data).toMatchObject({ inserted: 1, deduped: 0 });
      const rows = await api.db.financialEvent.findMany({
        where: { integrationId: integrations.social_ads, chainExternalId: key },
      });
      const byKey = Object.fromEntries(rows.map((r) => [r.externalId, r]));
      expect(byKey[key]).toMatchObject({ status: "voided", type: "ad_spend", sourceType: "SOCIAL_ADS_API" });
      expect(byKey[`${key}:v2`]).toMatchObject({ status: "confirmed", supersedesEventId: byKey[key]!.id });
      expect(Number(byKey[`${key}:v2`]!.amountMinor)).toBe(1250);
      expect(byKey[`${key}:v2`]!.payload).toMatchObject({
        platform: "social_ads",
        account_id: "act_1",
        campaign_id: "c1",
        metrics: { spend: "12.50", impressions: 100 },
        supersedes_external_id: key,
      });
    });

    it("turns a paused campaign into an alert and counts unread changes as ignored", async () => {
      const response = await send(
        delivery([
          { field: "campaign_status", value: { campaign_id: "c1", status: "PAUSED" } },
          { field: "campaign_status", value: { campaign_id: "c1", status: "ACTIVE" } },
        ]),
      );
      expect(response.body.data).toMatchObject({ signals_accepted: 1, ignored: 1 });
      expect(
        await api.db.alert.count({ where: { code: "integration.campaign_paused", integrationId: integrations.social_ads } }),
      ).toBe(1);
    });

    it("writes a delivery spanning two owners' accounts in one go, and none of it when one account is unconnected", async () => {
      const both = {
        object: "ad_account",
        entry: [
          { id: "act_1", time, changes: [spend("3.00", "c7")] },
          { id: "act_bob", time, changes: [spend("4.00", "c8"), spend("1.234", "c9")] },
        ],
      };
      const response = await send(both);
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        inserted: 2,
        rejected: [expect.objectContaining({ index: 2, code: "validation_error" })],
      });
      const bobRow = await api.db.financialEvent.findFirstOrThrow({ where: { integrationId: integrations.social_ads_bob } });
      expect(bobRow.ownerId).toBe(otherOwnerId);

      await expectRefused(() =>
        send({ object: "ad_account", entry: [...both.entry, { id: "act_nobody", time, changes: [spend("1.00", "c10")] }] }),
      );
    });

    it("refuses a bad signature, an unconnected account and the server-wide secret with 401", async () => {
      await expectRefused(() => send(delivery([spend("99.00", "c99")]), (raw) => socialAdsHeaders("wrong", raw)));
      await expectRefused(() => send(delivery([spend("99.00", "c99")]), () => ({ "content-type": "application/json" })));
      await expectRefused(() => send(delivery([spend("99.00", "c99")], "act_unknown")));
      await expectRefused(() =>
        send(delivery([spend("99.00", "c99")]), (raw) => socialAdsHeaders(SECRETS.WEBHOOK_SECRET_SOCIAL_ADS, raw)),
      );
      // An empty server-wide secret verifies nothing either.
      applyTestEnv({ WEBHOOK_SECRET_SOCIAL_ADS: "" });
      try {
        await expectRefused(() => send(delivery([spend("99.00", "c99")]), (raw) => socialAdsHeaders("", raw)));
      } finally {
        applyTestEnv({ WEBHOOK_SECRET_SOCIAL_ADS: SECRETS.WEBHOOK_SECRET_SOCIAL_ADS });
      }
    });
  });

  describe("search_ads", () => {
    const secret = SECRETS.WEBHOOK_SECRET_SEARCH_ADS;
    const send = (body: unknown, sign = (raw: string) => serviceHeaders(secret, raw)) => {
      const raw = JSON.stringify(body);
      return post("/v1/webhooks/search_ads", raw, sign(raw));
    };

    it("writes report rows as ad_spend, alerts as signals, and rejects micros that are not whole cents", async () => {
      const response = await send({
        customer_id: "123-456-7890",
        reports: [
          { date: YESTERDAY, campaign_id: "111", cost_micros: "12340000", currency: "EUR", clicks: 3 },
          { date: YESTERDAY, campaign_id: "222", cost_micros: 1_234_567, currency: "EUR" },
          { date: TODAY, campaign_id: "111", ad_group_id: "9", cost_minor: 250, currency: "USD" },
        ],
        alerts: [{ id: "al_1", type: "budget_limited", campaign_id: "111", occurred_at: new Date().toISOString() }],
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        inserted: 2,
        deduped: 0,
        rejected: [
          {
            index: 1,
            external_id: `cost:123-456-7890:222:${YESTERDAY}`,
            code: "validation_error",
            message: expect.stringMatching(/never rounded/),
          },
        ],
        signals_accepted: 1,
        signals_deduped: 0,
        ignored: 0,
      });
      const row = await api.db.financialEvent.findFirstOrThrow({
        where: { integrationId: integrations.search_ads, externalId: `cost:123-456-7890:111:${YESTERDAY}` },
      });
      expect(row).toMatchObject({ type: "ad_spend", sourceType: "SEARCH_ADS_API", currency: "EUR" });
      expect(Number(row.amountMinor)).toBe(1234);
      expect(
        await api.db.alert.count({ where: { code: "integration.budget_limited", integrationId: integrations.search_ads } }),
      ).toBe(1);
    });

    it("refuses a stale timestamp, a bad signature, an unconnected customer and an unset secret with 401", async () => {
      const body = {
        customer_id: "123-456-7890",
        reports: [{ date: YESTERDAY, campaign_id: "333", cost_minor: 1, currency: "EUR" }],
      };
      await expectRefused(() => send(body, (raw) => serviceHeaders(secret, raw, nowSeconds() - 301)));
      await expectRefused(() => send(body, (raw) => serviceHeaders("wrong", raw)));
      await expectRefused(() => send({ ...body, customer_id: "999" }));
      applyTestEnv({ WEBHOOK_SECRET_SEARCH_ADS: undefined });
      try {
        await expectRefused(() => send(body));
      } finally {
        applyTestEnv({ WEBHOOK_SECRET_SEARCH_ADS: secret });
      }
    });
  });

  describe("billing_a", () => {
    const secret = CONNECTION_SECRETS.billing_a!;
    const subscription = { id: "sub_a1", customer_id: "ctm_1", status: "active", currency_code: "EUR" };
    const yearly = [{ plan: "Pro", unit_price_minor: 29_000, quantity: 1, interval: "year" }];
    const event = (event_id: string, event_type: string, data: Record<string, unknown>, seller_id = "sel_1") => ({
      event_id,
      event_type,
      occurred_at: new Date().toISOString(),
      seller_id,
      data,
    });
    const send = (body: unknown, sign = (raw: string) => billingAHeaders(secret, raw)) => {
      const raw = JSON.stringify(body);
      return post("/v1/webhooks/billing_a", raw, sign(raw));
    };

    it("writes subscription_change events with the MRR change, and a churn signal", async () => {
      const created = await send(event("bevt_1", "subscription.created", { ...subscription, items: yearly }));
      expect(created.body.data).toMatchObject({ inserted: 1 });
      const upgraded = await send(
        event("bevt_2", "subscription.updated", {
          ...subscription,
          items: [{ plan: "Team", unit_price_minor: 6000, quantity: 1, interval: "month" }],
          previous_items: yearly,
        }),
      );
      expect(upgraded.body.data).toMatchObject({ inserted: 1 });
      const cancelled = await send(
        event("bevt_3", "subscription.canceled", {
          ...subscription,
          status: "canceled",
          items: [{ plan: "Team", unit_price_minor: 6000, quantity: 1, interval: "month" }],
        }),
      );
      expect(cancelled.body.data).toMatchObject({ inserted: 1, signals_accepted: 1 });
      const rows = await api.db.financialEvent.findMany({
        where: { integrationId: integrations.billing_a, type: "subscription_change" },
        orderBy: { externalId: "asc" },
      });
      expect(
        rows.map((r) => [r.externalId, Number(r.amountMinor), (r.payload as any).change, (r.payload as any).mrr_minor]),
      ).toEqual([
        ["bevt_1", 2416, "new", 2416],
        ["bevt_2", 3584, "expansion", 6000],
        ["bevt_3", -6000, "churn", 0],
      ]);
      expect(rows[0]!.payload).toMatchObject({ mrr_remainder_minor: 8, billing_interval: "year", subscription_id: "sub_a1" });
      expect(rows.every((r) => r.sourceType === "PAYMENTS_API")).toBe(true);
      expect(
        await api.db.alert.count({ where: { code: "integration.subscription_churned", integrationId: integrations.billing_a } }),
      ).toBe(1);
    });

    it("refuses a bad signature, an unconnected seller and the server-wide secret with 401", async () => {
      const body = event("bevt_x", "subscription.created", { ...subscription, id: "sub_x", items: yearly });
      await expectRefused(() => send(body, (raw) => billingAHeaders("wrong", raw)));
      await expectRefused(() => send(body, (raw) => paymentsAHeaders(secret, raw)));
      await expectRefused(() => send({ ...body, seller_id: "sel_unknown" }));
      await expectRefused(() => send(body, (raw) => billingAHeaders(SECRETS.WEBHOOK_SECRET_BILLING_A, raw)));
    });
  });

  describe("billing_b", () => {
    const secret = CONNECTION_SECRETS.billing_b!;
    const subscription = (mrr: number) => ({ id: "sub_b1", customer_id: "cus_b1", status: "active", currency_code: "USD", mrr });
    const event = (id: string, event_type: string, content: Record<string, unknown>, site = "acme") => ({
      id,
      event_type,
      occurred_at: nowSeconds(),
      site,
      content,
    });
    const send = (body: unknown, sign = (raw: string) => billingBHeaders(secret, raw)) => {
      const raw = JSON.stringify(body);
      return post("/v1/webhooks/billing_b", raw, sign(raw));
    };

    it("writes subscription_change events from the platform's MRR, and signals past due", async () => {
      expect((await send(event("ev_1", "subscription_created", { subscription: subscription(5000) }))).body.data).toMatchObject({
        inserted: 1,
      });
      expect(
        (await send(event("ev_2", "subscription_changed", { subscription: subscription(3000), previous_mrr: 5000 }))).body.data,
      ).toMatchObject({ inserted: 1 });
      expect((await send(event("ev_3", "subscription_past_due", { subscription: subscription(3000) }))).body.data).toMatchObject({
        inserted: 0,
        signals_accepted: 1,
      });
      const rows = await api.db.financialEvent.findMany({
        where: { integrationId: integrations.billing_b },
        orderBy: { externalId: "asc" },
      });
      expect(rows.map((r) => [r.externalId, r.type, Number(r.amountMinor), r.currency, (r.payload as any).change])).toEqual([
        ["ev_1", "subscription_change", 5000, "USD", "new"],
        ["ev_2", "subscription_change", -2000, "USD", "contraction"],
      ]);
      expect(
        await api.db.alert.count({ where: { code: "integration.subscription_past_due", integrationId: integrations.billing_b } }),
      ).toBe(1);
    });

    it("refuses a bad signature, an unconnected site and the server-wide secret with 401", async () => {
      const body = event("ev_x", "subscription_created", { subscription: subscription(1) });
      await expectRefused(() => send(body, (raw) => billingBHeaders("wrong", raw)));
      await expectRefused(() =>
        send(body, (raw) => ({ ...billingBHeaders(secret, raw), "x-billingb-timestamp": String(nowSeconds() - 1) })),
      );
      await expectRefused(() => send({ ...body, site: "other-site" }));
      await expectRefused(() => send(body, (raw) => billingBHeaders(SECRETS.WEBHOOK_SECRET_BILLING_B, raw)));
    });
  });
});

// --- social_ads subscription check ---

describe("GET /v1/webhooks/social_ads", () => {
  const check = (token: string, challenge = "1158201444") =>
    api.call(
      "GET",
      `/v1/webhooks/social_ads?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=${challenge}`,
      {
        token: null,
      },
    );

  it("echoes hub.challenge as text/plain when the verify token matches", async () => {
    const response = await check(SECRETS.SOCIAL_ADS_VERIFY_TOKEN);
    expect(response.status).toBe(200);
    expect(response.text).toBe("1158201444");
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("answers 401 for a wrong token or when no token is configured, 400 without a challenge", async () => {
    expect((await check("wrong")).status).toBe(401);
    expectApiError(await check(`${SECRETS.SOCIAL_ADS_VERIFY_TOKEN}x`), 401, "unauthenticated");
    expect((await api.call("GET", "/v1/webhooks/social_ads?hub.mode=subscribe", { token: null })).status).toBe(401);
    const noChallenge = await api.call(
      "GET",
      `/v1/webhooks/social_ads?hub.mode=subscribe&hub.verify_token=${SECRETS.SOCIAL_ADS_VERIFY_TOKEN}`,
      { token: null },
    );
    expect(noChallenge.status).toBe(400);
    applyTestEnv({ SOCIAL_ADS_VERIFY_TOKEN: undefined });
    try {
      expect((await check(SECRETS.SOCIAL_ADS_VERIFY_TOKEN)).status).toBe(401);
    } finally {
      applyTestEnv({ SOCIAL_ADS_VERIFY_TOKEN: SECRETS.SOCIAL_ADS_VERIFY_TOKEN });
    }
  });
});
