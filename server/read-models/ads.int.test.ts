// GET /v1/ads and GET /v1/businesses/{id}/ads (§2.8) on both engines: accounts of three
// integrations in three currencies, spend descending; ctr and cpc half even on hand-computed
// figures; every day of a period across a month end; campaigns; the accounts' advertising
// signals of the period (owner-timezone days, newest first, at most 20) and each campaign's
// last; integration status; display currency; the business filter; tenants (404), agents (403,
// audited) and the period's 400s.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/days";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { businessGrant, createdData, seedAgent, seedIntegration } from "../../test/helpers/seed";
import { divideHalfEven } from "../fx/money";
import { ratio } from "./read-model.schema";
import { ingestEvents, ingestSignals } from "../ingest/ingest-service";
import type { TIntegrationSignal } from "../ingest/ingest.schema";
import { openOwnerSession } from "../sessions/session-service";
import { fixedClock } from "../shared/clock";

// 07:00 on 2026-03-03 in New York, the owner's zone.
const NOW = new Date("2026-03-03T12:00:00Z");
const PERIOD = "from=2026-02-25&to=2026-03-03";
let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi({ clock: fixedClock(NOW) });
});
afterAll(async () => api?.close());

type TOwner = { ownerId: string; token: string; shop: string; studio: string };

async function newOwner(timezone = "America/New_York"): Promise<TOwner> {
  const owner = await api.db.owner.create({
    data: { email: `ads-${randomUUID()}@example.test`, baseCurrency: "EUR", baseCurrencyConfirmed: true, timezone },
  });
  const { token } = await openOwnerSession(api.db, { ownerId: owner.id, channel: "api" });
  const business = async (name: string, currency: string) =>
    createdData<{ id: string }>(await api.call("POST", "/v1/businesses", { token, body: { name, currency } }), name).id;
  return { ownerId: owner.id, token, shop: await business("Shop", "EUR"), studio: await business("Studio", "USD") };
}

type TSpend = {
  id: string;
  amount: number;
  currency: string;
  on: string;
  campaign?: string;
  metrics?: Record<string, unknown>;
  platform?: string | null;
  account?: string;
};

async function spend(
  o: TOwner,
  integrationId: string,
  sourceType: string,
  items: TSpend[],
  defaults: { platform: string; account: string },
) {
  const result = await ingestEvents(
    api.db,
    o.ownerId,
    items.map((item) => ({
      integration_id: integrationId,
      external_id: item.id,
      type: "ad_spend",
      state: "actual",
      amount_minor: item.amount,
      currency: item.currency,
      occurred_on: item.on,
      source_type: sourceType,
      payload: {
        ...(item.platform === null ? {} : { platform: item.platform ?? defaults.platform }),
        account_id: item.account ?? defaults.account,
        ...(item.campaign ? { campaign_id: item.campaign } : {}),
        ...(item.metrics ? { metrics: item.metrics } : {}),
      },
    })),
    { now: NOW },
  );
  expect(result.rejected, JSON.stringify(result.rejected)).toEqual([]);
}

function signal(
  integrationId: string,
  code: TIntegrationSignal["code"],
  at: string,
  ref?: Record<string, string>,
): TIntegrationSignal {
  return { integration_id: integrationId, external_id: randomUUID(), code, occurred_at: at, ...(ref ? { ref } : {}) };
}

/** Alice's books: three accounts (social_ads EUR, search_ads USD, generic GBP + EUR) and their signals. */
async function aliceBooks() {
  const o = await newOwner();
  const social = await seedIntegration(api.db, {
    ownerId: o.ownerId,
    provider: "social_ads",
    businessId: o.shop,
    accountId: "act_1",
  });
  const search = await seedIntegration(api.db, {
    ownerId: o.ownerId,
    provider: "search_ads",
    businessId: o.studio,
    accountId: "cust_9",
  });
  const generic = await seedIntegration(api.db, {
    ownerId: o.ownerId,
    provider: "generic",
    businessId: o.shop,
    status: "disconnected",
  });
  // Account A (social_ads act_1, Shop, EUR): c1 3 000 over two days, c2 500 (restated from 400).
  // Clicks 1 400, impressions 5 600 000: cpc 3 500 / 1 400 = 2.5 → 2 and ctr 0.00025 → 0.0002 (half even).
  await spend(
    o,
    social,
    "SOCIAL_ADS_API",
    [
      {
        id: "a1",
        amount: 1_000,
        currency: "EUR",
        on: "2026-02-26",
        campaign: "c1",
        metrics: { impressions: 2_000_000, clicks: 600 },
      },
      {
        id: "a2",
        amount: 2_000,
        currency: "EUR",
        on: "2026-02-28",
        campaign: "c1",
        metrics: { impressions: 3_000_000, clicks: 700 },
      },
      {
        id: "a3",
        amount: 400,
        currency: "EUR",
        on: "2026-03-01",
        campaign: "c2",
        metrics: { impressions: 600_000, clicks: 100 },
      },
      // Before the period: not counted.
      { id: "a0", amount: 9_999, currency: "EUR", on: "2026-02-24", campaign: "c1", metrics: { impressions: 1, clicks: 1 } },
    ],
    { platform: "social_ads", account: "act_1" },
  );
  await spend(
    o,
    social,
    "SOCIAL_ADS_API",
    [
      {
        id: "a3",
        amount: 500,
        currency: "EUR",
        on: "2026-03-01",
        campaign: "c2",
        metrics: { impressions: 600_000, clicks: 100 },
      },
    ],
    { platform: "social_ads", account: "act_1" },
  );
  // Account B (search_ads cust_9, Studio): 1 000 USD.
  await spend(
    o,
    search,
    "SEARCH_ADS_API",
    [{ id: "b1", amount: 1_000, currency: "USD", on: "2026-03-02", campaign: "s1", metrics: { impressions: 500, clicks: 7 } }],
    { platform: "search_ads", account: "cust_9" },
  );
  // Account C (generic, platform social_ads act_2, Shop): 2 000 GBP, and 100 EUR with no campaign
  // and metrics that are not counts (counted 0).
  await spend(
    o,
    generic,
    "IMPORT",
    [
      { id: "c1", amount: 2_000, currency: "GBP", on: "2026-02-25", campaign: "g1", metrics: { impressions: 10, clicks: 0 } },
      { id: "c2", amount: 100, currency: "EUR", on: "2026-03-03", metrics: { impressions: "abc", clicks: 1.5 } },
    ],
    { platform: "social_ads", account: "act_2" },
  );

  const budgetLimited = Array.from({ length: 22 }, (_, n) =>
    signal(social, "budget_limited", `2026-02-27T10:${String(n).padStart(2, "0")}:00Z`, {
      account_id: "act_1",
      campaign_id: "c2",
    }),
  );
  await ingestSignals(
    api.db,
    o.ownerId,
    [
      signal(social, "campaign_paused", "2026-03-02T10:00:00Z", { account_id: "act_1", campaign_id: "c1" }),
      signal(social, "account_suspended", "2026-02-26T09:00:00Z", { account_id: "act_1" }),
      // No account named: the integration's, so every account of it.
      signal(social, "integration_auth_expired", "2026-03-01T08:00:00Z"),
      // 22:00 on 03-03 in New York: in the period; 23:00 on 02-24 there: not.
      signal(social, "ad_disapproved", "2026-03-04T03:00:00Z", { account_id: "act_1", campaign_id: "c1", ad_id: "ad_7" }),
      signal(social, "campaign_removed", "2026-02-25T04:00:00Z", { account_id: "act_1", campaign_id: "c2" }),
      // Not an advertising code; another account of the integration.
      signal(social, "payout_paid", "2026-03-01T09:00:00Z", { account_id: "act_1" }),
      signal(social, "campaign_paused", "2026-03-01T09:00:00Z", { account_id: "act_9", campaign_id: "c1" }),
      ...budgetLimited,
    ],
    { now: NOW },
  );
  const base = async (externalId: string) =>
    Number(
      (await api.db.financialEvent.findFirstOrThrow({
        where: { ownerId: o.ownerId, externalId, status: "confirmed" },
        select: { baseAmountMinor: true },
      }))!.baseAmountMinor,
    );
  return { o, social, search, generic, bBase: await base("b1"), cBase: (await base("c1")) + 100 };
}

let alice: Awaited<ReturnType<typeof aliceBooks>>;
beforeAll(async () => {
  alice = await aliceBooks();
});

const get = (o: { token: string }, path: string) => api.call("GET", path, { token: o.token });

describe("GET /v1/ads", () => {
  it("lists every account by spend descending with its campaigns, days, signals and integration", async () => {
    const { o, social, search, generic, bBase, cBase } = alice;
    // 1 000 USD and 2 000 GBP at the mock rates (1 EUR = 1.0842 USD = 0.8531 GBP).
    expect(bBase).toBe(922);
    expect(cBase).toBe(2_344 + 100);
    const response = await get(o, `/v1/ads?${PERIOD}`);
    expect(response.status, response.text).toBe(200);
    const { data } = response.body;
    expect(data).toMatchObject({ currency: "EUR", base_currency: "EUR", from: "2026-02-25", to: "2026-03-03" });
    expect(data.accounts.map((a: any) => [a.platform, a.account_id, a.business_id])).toEqual([
      ["social_ads", "act_1", o.shop],
      ["social_ads", "act_2", o.shop],
      ["search_ads", "cust_9", o.studio],
    ]);
    const [a, c, b] = data.accounts;
    expect(a).toMatchObject({
      integration_id: social,
      integration_status: "active",
      spend_minor: 3_500,
      currencies: ["EUR"],
      impressions: 5_600_000,
      clicks: 1_400,
      ctr: 0.0002,
      cpc_minor: 2,
      budget_changes: [],
    });
    expect(a.campaigns).toEqual([
      {
        campaign_id: "c1",
        spend_minor: 3_000,
        impressions: 5_000_000,
        clicks: 1_300,
        last_signal: { code: "ad_disapproved", occurred_at: "2026-03-04T03:00:00.000Z" },
      },
      {
        campaign_id: "c2",
        spend_minor: 500,
        impressions: 600_000,
        clicks: 100,
        last_signal: { code: "budget_limited", occurred_at: "2026-02-27T10:21:00.000Z" },
      },
    ]);
    // Every day of the period, across the end of February (2026: 28 days).
    expect(a.daily).toEqual([
      { date: "2026-02-25", spend_minor: 0 },
      { date: "2026-02-26", spend_minor: 1_000 },
      { date: "2026-02-27", spend_minor: 0 },
      { date: "2026-02-28", spend_minor: 2_000 },
      { date: "2026-03-01", spend_minor: 500 },
      { date: "2026-03-02", spend_minor: 0 },
      { date: "2026-03-03", spend_minor: 0 },
    ]);
    // Newest first, at most 20: the ad disapproval, the pause, the integration's expiry, then 17 of the 22 budget_limited.
    expect(a.signals).toHaveLength(20);
    expect(a.signals.slice(0, 3)).toEqual([
      {
        code: "ad_disapproved",
        severity: "warning",
        occurred_at: "2026-03-04T03:00:00.000Z",
        ref: { account_id: "act_1", campaign_id: "c1", ad_id: "ad_7" },
        message: null,
      },
      {
        code: "campaign_paused",
        severity: "warning",
        occurred_at: "2026-03-02T10:00:00.000Z",
        ref: { account_id: "act_1", campaign_id: "c1" },
        message: null,
      },
      { code: "integration_auth_expired", severity: "critical", occurred_at: "2026-03-01T08:00:00.000Z", ref: {}, message: null },
    ]);
    expect(a.signals.slice(3).map((s: any) => s.occurred_at)).toEqual(
      Array.from({ length: 17 }, (_, k) => `2026-02-27T10:${String(21 - k).padStart(2, "0")}:00.000Z`),
    );

    expect(c).toMatchObject({
      integration_id: generic,
      integration_status: "disconnected",
      spend_minor: cBase,
      currencies: ["EUR", "GBP"],
      impressions: 10,
      clicks: 0,
      ctr: 0,
      cpc_minor: null,
      signals: [],
    });
    // The 100 EUR without a campaign counts for the account only.
    expect(c.campaigns).toEqual([{ campaign_id: "g1", spend_minor: 2_344, impressions: 10, clicks: 0, last_signal: null }]);
    expect(c.daily.at(0)).toEqual({ date: "2026-02-25", spend_minor: 2_344 });
    expect(c.daily.at(-1)).toEqual({ date: "2026-03-03", spend_minor: 100 });

    expect(b).toMatchObject({
      integration_id: search,
      spend_minor: bBase,
      currencies: ["USD"],
      impressions: 500,
      clicks: 7,
      // 7 / 500 = 0.014; 922 / 7 = 131.71 → 132.
      ctr: 0.014,
      cpc_minor: 132,
      signals: [],
    });
    expect(data.totals).toEqual({
      spend_minor: 3_500 + cBase + bBase,
      impressions: 5_600_510,
      clicks: 1_407,
      ctr: 0.0003,
      cpc_minor: Number(divideHalfEven(BigInt(3_500 + cBase + bBase), 1_407n)),
    });
    for (const account of data.accounts) {
      expect(account.daily).toHaveLength(7);
      expect(account.daily.reduce((s: number, d: any) => s + d.spend_minor, 0)).toBe(account.spend_minor);
    }
    expect(response.body.provenance_summary).toEqual({
      events: 6,
      by_source_type: { SOCIAL_ADS_API: 3, SEARCH_ADS_API: 1, IMPORT: 2 },
      min_confidence: 1,
      low_confidence_events: 0,
    });
    expect(response.body.coverage).toEqual({ overall: expect.any(String), ads: expect.any(String) });
    // The frozen rates of the period's spend in EUR, GBP and USD (the scan's rate set): facts, not estimates.
    expect(response.body.fx).toMatchObject({
      source: "mock",
      currencies: ["EUR", "GBP", "USD"],
      estimated_share: 0,
      stale: false,
    });
  });

  it("the default period is the 30 days to today; days with nothing are zeros", async () => {
    const response = await get(alice.o, "/v1/ads");
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toMatchObject({ from: "2026-02-02", to: "2026-03-03" });
    const a = response.body.data.accounts[0];
    expect(a.daily).toHaveLength(30);
    // The event of 02-24 is in this period.
    expect(a.spend_minor).toBe(3_500 + 9_999);
    expect(a.daily.filter((d: any) => d.spend_minor !== 0).map((d: any) => d.date)).toEqual([
      "2026-02-24",
      "2026-02-26",
      "2026-02-28",
      "2026-03-01",
    ]);
  });

  it("display_currency: the total converted once, each listed amount at the same rate, cpc from the converted spend", async () => {
    const base = (await get(alice.o, `/v1/ads?${PERIOD}`)).body.data;
    const response = await get(alice.o, `/v1/ads?${PERIOD}&display_currency=USD`);
    expect(response.status, response.text).toBe(200);
    const { data } = response.body;
    expect(data).toMatchObject({ currency: "USD", base_currency: "EUR" });
    // 1 EUR = 1.0842 USD, half even.
    const usd = (eur: number) => Number(divideHalfEven(BigInt(eur) * 10_842n, 10_000n));
    expect(data.totals.spend_minor).toBe(usd(base.totals.spend_minor));
    expect(data.totals).toMatchObject({ impressions: base.totals.impressions, clicks: base.totals.clicks, ctr: base.totals.ctr });
    data.accounts.forEach((account: any, i: number) => {
      expect(account.spend_minor).toBe(usd(base.accounts[i].spend_minor));
      expect(account.cpc_minor).toBe(
        account.clicks === 0 ? null : Number(divideHalfEven(BigInt(account.spend_minor), BigInt(account.clicks))),
      );
      expect(account.daily.map((d: any) => d.spend_minor)).toEqual(base.accounts[i].daily.map((d: any) => usd(d.spend_minor)));
    });
    expect(response.body.fx.estimated_share).toBe(1);
    expectApiError(await get(alice.o, `/v1/ads?display_currency=usd`), 400, "validation_error", { issue: "display_currency" });
  });

  it("refuses a reversed or too long period, naming from", async () => {
    expectApiError(await get(alice.o, "/v1/ads?from=2026-03-02&to=2026-03-01"), 400, "validation_error", { issue: "from" });
    expectApiError(await get(alice.o, "/v1/ads?from=2025-01-01&to=2026-03-01"), 400, "validation_error", { issue: "from" });
  });

  it("an owner without ad spend: zeros, no accounts", async () => {
    const o = await newOwner("UTC");
    const response = await get(o, "/v1/ads");
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toMatchObject({
      totals: { spend_minor: 0, impressions: 0, clicks: 0, ctr: null, cpc_minor: null },
      accounts: [],
    });
    expect(response.body.coverage).toEqual({ overall: "missing", ads: "missing" });
  });
});

describe("GET /v1/businesses/{id}/ads", () => {
  it("the business's accounts only, in the same shape", async () => {
    const { o } = alice;
    const all = (await get(o, `/v1/ads?${PERIOD}`)).body.data;
    const shop = await get(o, `/v1/businesses/${o.shop}/ads?${PERIOD}`);
    expect(shop.status, shop.text).toBe(200);
    expect(shop.body.data.accounts).toEqual(all.accounts.filter((a: any) => a.business_id === o.shop));
    expect(shop.body.data.totals).toMatchObject({ spend_minor: 3_500 + alice.cBase, impressions: 5_600_010, clicks: 1_400 });
    const studio = await get(o, `/v1/businesses/${o.studio}/ads?${PERIOD}`);
    expect(studio.body.data.accounts.map((a: any) => a.account_id)).toEqual(["cust_9"]);
    expect(studio.body.provenance_summary).toMatchObject({ events: 1, by_source_type: { SEARCH_ADS_API: 1 } });
  });

  it("another owner's or an unknown business → 404; a malformed id → 400", async () => {
    const bob = await newOwner("UTC");
    expectApiError(await get(bob, `/v1/businesses/${alice.o.shop}/ads`), 404, "not_found");
    expectApiError(await get(alice.o, `/v1/businesses/${randomUUID()}/ads`), 404, "not_found");
    expectApiError(await get(alice.o, "/v1/businesses/not-a-uuid/ads"), 400, "validation_error", { issue: "id" });
  });
});

describe("tenants and agents", () => {
  it("another owner never sees Alice's accounts or signals, even with the same account ids", async () => {
    const bob = await newOwner("UTC");
    const theirs = await seedIntegration(api.db, {
      ownerId: bob.ownerId,
      provider: "social_ads",
      businessId: bob.shop,
      accountId: "act_bob",
    });
    await spend(bob, theirs, "SOCIAL_ADS_API", [{ id: "x1", amount: 70, currency: "EUR", on: "2026-03-01", campaign: "c1" }], {
      platform: "social_ads",
      account: "act_1",
    });
    const response = await get(bob, `/v1/ads?${PERIOD}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.accounts).toHaveLength(1);
    expect(response.body.data.accounts[0]).toMatchObject({
      account_id: "act_1",
      business_id: bob.shop,
      integration_id: theirs,
      spend_minor: 70,
      signals: [],
      campaigns: [{ campaign_id: "c1", last_signal: null }],
    });
    // And Alice's answer is unchanged by Bob's.
    expect((await get(alice.o, `/v1/ads?${PERIOD}`)).body.data.totals.spend_minor).toBe(3_500 + alice.cBase + alice.bBase);
  });

  it("an agent with ads or finances:observe on the business reads its ads; the owner's need *; 404 first; no bearer 401", async () => {
    const { o } = alice;
    // pinned-wave3 §2.1: a business's ads with ads (any level) or finances:observe covering it.
    const agent = await seedAgent(api, { grants: [businessGrant(o.shop, { scope: "finances:observe" })] }, o.token);
    expect((await get(agent, `/v1/businesses/${o.shop}/ads`)).status).toBe(200);
    expectApiError(await get(agent, "/v1/ads"), 403, "scope_denied", { details: { resource: "*" } });
    // Another owner's or an unknown business: 404 before the grant's coverage is checked.
    expectApiError(await get(agent, `/v1/businesses/${randomUUID()}/ads`), 404, "not_found");
    const denials = await api.db.auditEntry.findMany({ where: { actorId: agent.id, action: "access.denied" } });
    expect(denials).toHaveLength(1);
    expect(denials[0]!.details).toMatchObject({ code: "scope_denied", required_scope: "ads", resource: "*" });
    // Neither scope at all: refused before anything is read.
    const none = await seedAgent(api, { grants: [businessGrant(o.shop, { scope: "forecast:observe" })] }, o.token);
    expectApiError(await get(none, `/v1/businesses/${randomUUID()}/ads`), 403, "scope_denied");
    expectApiError(await api.call("GET", "/v1/ads", { token: null }), 401, "unauthenticated");
  });
});

describe("property: the answer is the counted ad_spend of the period, to the minor unit", () => {
  const zItem = fc.record({
    platform: fc.constantFrom("social_ads", "search_ads"),
    account: fc.constantFrom("acc_1", "acc_2"),
    campaign: fc.constantFrom("k1", "k2", undefined),
    day: fc.integer({ min: -3, max: 9 }),
    amount: fc.integer({ min: -500, max: 200_000 }),
    currency: fc.constantFrom("EUR", "USD", "GBP", "JPY"),
    impressions: fc.option(fc.nat(1_000_000), { nil: undefined }),
    clicks: fc.option(fc.nat(5_000), { nil: undefined }),
  });

  it("per account, campaign and day; totals; order; ctr and cpc", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(zItem, { minLength: 1, maxLength: 25 }), async (items) => {
        const o = await newOwner("UTC");
        const integration = await seedIntegration(api.db, { ownerId: o.ownerId, provider: "generic", businessId: o.shop });
        // 2026-01-26 … 2026-02-07; the period is [01-29, 02-04], across the end of January.
        const days = Array.from({ length: 13 }, (_, k) => addDays("2026-01-26", k));
        await spend(
          o,
          integration,
          "IMPORT",
          items.map((item, n) => ({
            id: `p${n}`,
            amount: item.amount,
            currency: item.currency,
            on: days[item.day + 3]!,
            campaign: item.campaign,
            platform: item.platform,
            account: item.account,
            metrics: {
              ...(item.impressions === undefined ? {} : { impressions: item.impressions }),
              ...(item.clicks === undefined ? {} : { clicks: item.clicks }),
            },
          })),
          { platform: "social_ads", account: "acc_1" },
        );
        const rows = await api.db.financialEvent.findMany({
          where: {
            ownerId: o.ownerId,
            type: "ad_spend",
            state: "actual",
            status: "confirmed",
            reconciled: false,
            occurredOn: { gte: new Date("2026-01-29"), lte: new Date("2026-02-04") },
          },
          select: { baseAmountMinor: true, payload: true, occurredOn: true },
        });
        const response = await get(o, "/v1/ads?from=2026-01-29&to=2026-02-04");
        expect(response.status, response.text).toBe(200);
        const { data } = response.body;
        const key = (platform: string, account: string) => `${platform}/${account}`;
        const expected = new Map<
          string,
          { spend: bigint; impressions: bigint; clicks: bigint; byDay: Map<string, bigint>; byCampaign: Map<string, bigint> }
        >();
        for (const row of rows) {
          const payload = row.payload as any;
          const k = key(payload.platform, payload.account_id);
          const e = expected.get(k) ?? { spend: 0n, impressions: 0n, clicks: 0n, byDay: new Map(), byCampaign: new Map() };
          e.spend += row.baseAmountMinor!;
          e.impressions += BigInt(payload.metrics?.impressions ?? 0);
          e.clicks += BigInt(payload.metrics?.clicks ?? 0);
          const date = row.occurredOn.toISOString().slice(0, 10);
          e.byDay.set(date, (e.byDay.get(date) ?? 0n) + row.baseAmountMinor!);
          if (payload.campaign_id)
            e.byCampaign.set(payload.campaign_id, (e.byCampaign.get(payload.campaign_id) ?? 0n) + row.baseAmountMinor!);
          expected.set(k, e);
        }
        expect(data.accounts).toHaveLength(expected.size);
        let total = 0n;
        for (const account of data.accounts) {
          const e = expected.get(key(account.platform, account.account_id))!;
          expect(BigInt(account.spend_minor)).toBe(e.spend);
          expect(BigInt(account.impressions)).toBe(e.impressions);
          expect(BigInt(account.clicks)).toBe(e.clicks);
          expect(account.ctr).toBe(ratio(e.clicks, e.impressions));
          expect(account.cpc_minor).toBe(e.clicks === 0n ? null : Number(divideHalfEven(e.spend, e.clicks)));
          expect(account.daily.map((d: any) => d.date)).toEqual(days.slice(3, 10));
          for (const d of account.daily) expect(BigInt(d.spend_minor)).toBe(e.byDay.get(d.date) ?? 0n);
          expect(new Map(account.campaigns.map((c: any) => [c.campaign_id, BigInt(c.spend_minor)]))).toEqual(e.byCampaign);
          total += e.spend;
        }
        const spends = data.accounts.map((a: any) => a.spend_minor);
        expect(spends).toEqual([...spends].sort((a, b) => b - a));
        expect(BigInt(data.totals.spend_minor)).toBe(total);
      }),
      { numRuns: 6 },
    );
  });
});
