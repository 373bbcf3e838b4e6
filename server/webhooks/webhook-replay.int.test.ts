// Replay memory (issue #11, item 3): the contract's generic and relay signatures cover the
// body only, so a captured delivery re-sent later with a fresh timestamp must not revert a
// restatement made since. End to end through the REST layer with real HMAC signatures.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { seedBusiness, seedIntegration, seedOwner, staticOwner } from "../../test/helpers/seed";
import { postDelivery, YESTERDAY } from "../../test/helpers/webhooks";
import { inTransaction } from "../db/transaction";
import { runMaintenance } from "../jobs/maintenance";
import { deliveryDigest, rememberDelivery, WEBHOOK_REPLAY_RETENTION_DAYS } from "./replay-guard";
import { nowSeconds, paymentsAHeaders, serviceHeaders, socialAdsHeaders } from "../../test/helpers/webhook-signing";

const SECRETS = {
  WEBHOOK_SECRET_PAYMENTS_A: "whsec_payments_a_replay",
  WEBHOOK_SECRET_SOCIAL_ADS: "social-app-secret-replay",
  WEBHOOK_SECRET_SEARCH_ADS: "search-relay-secret-replay",
};
const GENERIC_SECRET = "generic-secret-replay-0123456789";
// What the platforms sign each connected account's deliveries with (search_ads' relay uses the server's).
const ACCOUNT_SECRETS: Record<string, string> = {
  payments_a: "payments-a-account-secret-replay",
  social_ads: "social-ads-app-secret-replay",
};

let api: TTestApi;
let ownerId: string;
let businessId: string;

beforeAll(async () => {
  api = await createTestApi({ env: SECRETS });
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
});
afterAll(async () => api?.close());

const genericIntegration = () => seedIntegration(api.db, { ownerId, provider: "generic", businessId, secret: GENERIC_SECRET });
const connect = (provider: string, accountId: string, owner = ownerId, secret = ACCOUNT_SECRETS[provider]) =>
  seedIntegration(api.db, { ownerId: owner, provider, businessId, accountId, secret });

const post = (path: string, body: string, headers: Record<string, string>) => postDelivery(api, path, body, headers);

/** The amounts that count (confirmed) for an integration's key chain. */
async function confirmedAmounts(integrationId: string, chain: string): Promise<number[]> {
  const rows = await api.db.financialEvent.findMany({
    where: { integrationId, chainExternalId: chain, status: "confirmed" },
  });
  return rows.map((r) => Number(r.amountMinor));
}

async function counts() {
  return {
    events: await api.db.financialEvent.count(),
    signals: await api.db.integrationSignal.count(),
    audit: await api.db.auditEntry.count(),
  };
}

const invoice = (amount: number) => ({
  external_id: "inv-77",
  type: "revenue",
  state: "actual",
  amount_minor: amount,
  currency: "EUR",
  occurred_on: YESTERDAY,
});

describe("generic: a replayed delivery never reverts a restatement", () => {
  it("inv-77 100, restated to 120, then the first delivery again with a fresh timestamp: the ledger keeps 120", async () => {
    const id = await genericIntegration();
    const path = `/v1/webhooks/generic/${id}`;
    const first = JSON.stringify({ events: [invoice(100)] });
    const restated = JSON.stringify({ events: [invoice(120)] });

    expect((await post(path, first, serviceHeaders(GENERIC_SECRET, first, nowSeconds() - 60))).body.data.inserted).toBe(1);
    expect((await post(path, restated, serviceHeaders(GENERIC_SECRET, restated))).body.data.inserted).toBe(1);
    expect(await confirmedAmounts(id, "inv-77")).toEqual([120]);

    const before = await counts();
    const replay = await post(path, first, serviceHeaders(GENERIC_SECRET, first));
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({
      data: { inserted: 0, deduped: 1, rejected: [], signals_accepted: 0, signals_deduped: 0 },
      request_id: expect.stringMatching(/^req_/),
    });
    expect(await confirmedAmounts(id, "inv-77")).toEqual([120]);
    expect(await counts()).toEqual(before);

    // The same signature written in upper case is the same delivery.
    const upper = serviceHeaders(GENERIC_SECRET, first);
    upper["x-service-signature"] = `sha256=${upper["x-service-signature"]!.slice(7).toUpperCase()}`;
    const shouting = await post(path, first, upper);
    expect(shouting.status).toBe(200);
    expect(shouting.body.data).toMatchObject({ inserted: 0, deduped: 1 });
    expect(await confirmedAmounts(id, "inv-77")).toEqual([120]);
  });

  it("counts every item of a replay as deduped, signals included, and writes nothing", async () => {
    const id = await genericIntegration();
    const path = `/v1/webhooks/generic/${id}`;
    const raw = JSON.stringify({
      events: [
        { ...invoice(500), external_id: "r-1" },
        { ...invoice(700), external_id: "r-2" },
      ],
      signals: [{ external_id: "r-sig", code: "payout_paid", occurred_at: new Date().toISOString() }],
    });
    expect((await post(path, raw, serviceHeaders(GENERIC_SECRET, raw))).body.data).toEqual({
      inserted: 2,
      deduped: 0,
      rejected: [],
      signals_accepted: 1,
      signals_deduped: 0,
    });
    const before = await counts();
    const lastSync = (await api.db.integration.findUniqueOrThrow({ where: { id } })).lastSyncAt;
    expect((await post(path, raw, serviceHeaders(GENERIC_SECRET, raw))).body.data).toEqual({
      inserted: 0,
      deduped: 2,
      rejected: [],
      signals_accepted: 0,
      signals_deduped: 1,
    });
    expect(await counts()).toEqual(before);
    expect((await api.db.integration.findUniqueOrThrow({ where: { id } })).lastSyncAt).toEqual(lastSync);
  });

  it("remembers a delivery per integration: the same body signed for another integration is new", async () => {
    const a = await genericIntegration();
    const b = await genericIntegration();
    const raw = JSON.stringify({ events: [{ ...invoice(300), external_id: "per-integration" }] });
    expect((await post(`/v1/webhooks/generic/${a}`, raw, serviceHeaders(GENERIC_SECRET, raw))).body.data.inserted).toBe(1);
    expect((await post(`/v1/webhooks/generic/${b}`, raw, serviceHeaders(GENERIC_SECRET, raw))).body.data.inserted).toBe(1);
  });

  it("lets concurrent identical deliveries write once", async () => {
    const id = await genericIntegration();
    const raw = JSON.stringify({ events: [{ ...invoice(900), external_id: "race" }] });
    const results = await Promise.all(
      [1, 2, 3].map(() => post(`/v1/webhooks/generic/${id}`, raw, serviceHeaders(GENERIC_SECRET, raw))),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results.reduce((n, r) => n + r.body.data.inserted, 0)).toBe(1);
    expect(await api.db.webhookDelivery.count({ where: { integrationId: id } })).toBe(1);
  });
});

describe("platform receivers whose signature does not bind a timestamp", () => {
  it("search_ads relay: a replayed report does not revert a restated cost", async () => {
    const customer = `rep-${randomUUID().slice(0, 8)}`;
    const id = await connect("search_ads", customer);
    const report = (cost: number) =>
      JSON.stringify({
        customer_id: customer,
        reports: [{ date: YESTERDAY, campaign_id: "111", cost_minor: cost, currency: "EUR" }],
      });
    const secret = SECRETS.WEBHOOK_SECRET_SEARCH_ADS;
    await post("/v1/webhooks/search_ads", report(100), serviceHeaders(secret, report(100), nowSeconds() - 60));
    await post("/v1/webhooks/search_ads", report(120), serviceHeaders(secret, report(120)));
    const replay = await post("/v1/webhooks/search_ads", report(100), serviceHeaders(secret, report(100)));
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual({
      inserted: 0,
      deduped: 1,
      rejected: [],
      signals_accepted: 0,
      signals_deduped: 0,
      ignored: 0,
    });
    expect(await confirmedAmounts(id, `cost:${customer}:111:${YESTERDAY}`)).toEqual([120]);
  });

  it("social_ads (no timestamp at all): a replayed spend does not revert a restated figure", async () => {
    const account = `act_${randomUUID().slice(0, 8)}`;
    const id = await connect("social_ads", account);
    const delivery = (spend: string) =>
      JSON.stringify({
        object: "ad_account",
        entry: [
          {
            id: account,
            time: nowSeconds(),
            changes: [
              { field: "spend", value: { date: YESTERDAY, level: "campaign", campaign_id: "c1", spend, currency: "EUR" } },
            ],
          },
        ],
      });
    const secret = ACCOUNT_SECRETS.social_ads!;
    const first = delivery("1.00");
    await post("/v1/webhooks/social_ads", first, socialAdsHeaders(secret, first));
    await post("/v1/webhooks/social_ads", delivery("1.20"), socialAdsHeaders(secret, delivery("1.20")));
    const replay = await post("/v1/webhooks/social_ads", first, socialAdsHeaders(secret, first));
    expect(replay.status).toBe(200);
    expect(replay.body.data).toMatchObject({ inserted: 0, deduped: 1, rejected: [] });
    expect(await confirmedAmounts(id, `spend:${account}:campaign:c1:${YESTERDAY}`)).toEqual([120]);
  });

  it("payments_a (timestamp bound): the same signed request within the window is a replay too", async () => {
    const account = `acct_${randomUUID().slice(0, 8)}`;
    await connect("payments_a", account);
    const raw = JSON.stringify({
      id: `evt_${randomUUID().slice(0, 8)}`,
      type: "charge.succeeded",
      account,
      created: nowSeconds(),
      data: {
        object: { id: `ch_${randomUUID().slice(0, 8)}`, object: "charge", amount: 1999, currency: "eur", created: nowSeconds() },
      },
    });
    const headers = paymentsAHeaders(ACCOUNT_SECRETS.payments_a!, raw);
    expect((await post("/v1/webhooks/payments_a", raw, headers)).body.data.inserted).toBe(1);
    expect(await api.db.webhookDelivery.count({ where: { integration: { accountId: account } } })).toBe(1);
    expect((await post("/v1/webhooks/payments_a", raw, headers)).body.data).toMatchObject({ inserted: 0, deduped: 1 });
  });

  it("remembers a delivery for each connection it reached, by the HMAC that verified it for that connection", async () => {
    // Two owners hold the same account, each with a secret of their own; the platform signs with both.
    const account = `acct_${randomUUID().slice(0, 8)}`;
    const other = await seedOwner(api);
    const otherBusiness = (await seedBusiness(api, { name: "Other holder" }, other.token)).id;
    const mine = await connect("payments_a", account, ownerId, "first-holder-secret-replay-01");
    const theirs = await seedIntegration(api.db, {
      ownerId: other.ownerId,
      provider: "payments_a",
      businessId: otherBusiness,
      accountId: account,
      secret: "second-holder-secret-replay-2",
    });
    const t = nowSeconds();
    const raw = JSON.stringify({
      id: `evt_${randomUUID().slice(0, 8)}`,
      type: "charge.succeeded",
      account,
      created: t,
      data: { object: { id: `ch_${randomUUID().slice(0, 8)}`, object: "charge", amount: 700, currency: "eur", created: t } },
    });
    const signed = (secret: string) => paymentsAHeaders(secret, raw, t)["x-paymentsa-signature"]!.split(",")[1]!;
    const both = {
      "content-type": "application/json",
      "x-paymentsa-signature": `t=${t},${signed("first-holder-secret-replay-01")},${signed("second-holder-secret-replay-2")}`,
    };
    const firstTime = await post("/v1/webhooks/payments_a", raw, both);
    expect(firstTime.body.data, firstTime.text).toMatchObject({ inserted: 2 });
    const remembered = await api.db.webhookDelivery.findMany({ where: { integrationId: { in: [mine, theirs] } } });
    expect(remembered.map((row) => row.integrationId).sort()).toEqual([mine, theirs].sort());
    expect(remembered[0]!.signatureDigest).not.toBe(remembered[1]!.signatureDigest);
    // The same request again is a replay; so is one holder's own signature of it alone.
    expect((await post("/v1/webhooks/payments_a", raw, both)).body.data).toMatchObject({ inserted: 0, deduped: 1 });
    const firstOnly = paymentsAHeaders("first-holder-secret-replay-01", raw, t);
    expect((await post("/v1/webhooks/payments_a", raw, firstOnly)).body.data).toMatchObject({ inserted: 0, deduped: 1 });
  });
});

describe("the replay memory's lifetime", () => {
  it("is written in the delivery's transaction: a delivery that fails is not remembered", async () => {
    const id = await genericIntegration();
    const digest = deliveryDigest(Buffer.from("failed delivery"));
    await expect(
      inTransaction(api.db, async (tx) => {
        expect(await rememberDelivery(tx, [{ integrationId: id, digest }], new Date())).toBe(true);
        throw new Error("the ingest failed");
      }),
    ).rejects.toThrow("the ingest failed");
    expect(await api.db.webhookDelivery.count({ where: { integrationId: id } })).toBe(0);
    expect(await inTransaction(api.db, (tx) => rememberDelivery(tx, [{ integrationId: id, digest }], new Date()))).toBe(true);
    expect(await inTransaction(api.db, (tx) => rememberDelivery(tx, [{ integrationId: id, digest }], new Date()))).toBe(false);
  });

  it("is swept by maintenance after the retention, and kept before it", async () => {
    const id = await genericIntegration();
    const now = new Date("2026-11-22T12:00:00Z");
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    await api.db.webhookDelivery.createMany({
      data: [
        { integrationId: id, signatureDigest: "a".repeat(64), receivedAt: daysAgo(WEBHOOK_REPLAY_RETENTION_DAYS + 1) },
        { integrationId: id, signatureDigest: "b".repeat(64), receivedAt: daysAgo(WEBHOOK_REPLAY_RETENTION_DAYS - 1) },
      ],
    });
    expect(WEBHOOK_REPLAY_RETENTION_DAYS).toBeGreaterThanOrEqual(30);
    const swept = await runMaintenance(api.db, now);
    expect(swept.webhookDeliveries).toBeGreaterThanOrEqual(1);
    expect((await api.db.webhookDelivery.findMany({ where: { integrationId: id } })).map((d) => d.signatureDigest)).toEqual([
      "b".repeat(64),
    ]);
  });
});
