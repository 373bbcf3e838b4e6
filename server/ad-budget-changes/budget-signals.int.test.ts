// A budget_change_applied / _failed signal moves a planned ad budget change in the signal
// ingest's transaction (pinned-wave2 §3.1): by ref.budget_change_id, else the newest planned
// change of the integration and ref.campaign_id; audited (actor integration); announced by the
// signal's alert alone (§4.1). The ads read model lists the account's changes (§2.8).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { seedBusiness, seedIntegration, staticOwner } from "../../test/helpers/seed";
import { ingestEvents, ingestSignals } from "../ingest/ingest-service";
import type { TIntegrationSignal } from "../ingest/ingest.schema";
import { fixedClock } from "../shared/clock";
import { postDelivery } from "../../test/helpers/webhooks";
import { serviceHeaders, socialAdsHeaders } from "../../test/helpers/webhook-signing";

const NOW = new Date("2026-05-08T12:00:00Z");
const SECRETS = { WEBHOOK_SECRET_SEARCH_ADS: "search-secret-budget" };
// The social_ads app secret its connections were made with (search_ads' relay signs with the server's).
const SOCIAL_SECRET = "social-app-secret-budget";
let api: TTestApi;
let ownerId: string;
let businessId: string;
let socialId: string;
let otherSocialId: string;

beforeAll(async () => {
  api = await createTestApi({ clock: fixedClock(NOW), env: SECRETS });
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api, { name: "Atlas" })).id;
  const social = { ownerId, provider: "social_ads", businessId, secret: SOCIAL_SECRET };
  socialId = await seedIntegration(api.db, { ...social, accountId: "act_atlas" });
  otherSocialId = await seedIntegration(api.db, { ...social, accountId: "act_other" });
});
afterAll(async () => api?.close());

async function plan(campaign: string, newBudget = 7000, integrationId = socialId): Promise<string> {
  const response = await api.call("POST", "/v1/ad-budget-changes", {
    body: { integration_id: integrationId, campaign_id: campaign, new_daily_budget_minor: newBudget, currency: "EUR" },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.data.id;
}

const signal = (
  code: TIntegrationSignal["code"],
  ref: Record<string, string>,
  extra: Partial<TIntegrationSignal> = {},
): TIntegrationSignal => ({
  integration_id: socialId,
  external_id: randomUUID(),
  code,
  occurred_at: "2026-05-08T09:30:00.000Z",
  ref,
  ...extra,
});
const changeOf = (id: string) => api.db.adBudgetChange.findUniqueOrThrow({ where: { id } });

/** A signed social_ads delivery of campaign_budget changes of act_atlas, sent `secondsAgo` before now: 200. */
async function deliverCampaignBudgets(values: object[], secondsAgo: number) {
  const raw = JSON.stringify({
    object: "ad_account",
    entry: [
      {
        id: "act_atlas",
        time: Math.floor(NOW.getTime() / 1000) - secondsAgo,
        changes: values.map((value) => ({ field: "campaign_budget", value })),
      },
    ],
  });
  const delivered = await postDelivery(api, "/v1/webhooks/social_ads", raw, socialAdsHeaders(SOCIAL_SECRET, raw));
  expect(delivered.status, delivered.text).toBe(200);
}

/** A signed search_ads relay delivery of alerts for `customer`: 200. */
async function relayAlerts(customer: string, alerts: object[]) {
  const relay = JSON.stringify({ customer_id: customer, alerts });
  const relayed = await postDelivery(
    api,
    "/v1/webhooks/search_ads",
    relay,
    serviceHeaders(SECRETS.WEBHOOK_SECRET_SEARCH_ADS, relay),
  );
  expect(relayed.status, relayed.text).toBe(200);
}

describe("budget signals", () => {
  it("applies the change ref.budget_change_id names, audited, announced by the signal's alert only", async () => {
    const first = await plan("sig-1");
    const second = await plan("sig-1");
    const notificationsBefore = await api.db.notification.count({ where: { ownerId } });
    await ingestSignals(api.db, ownerId, [signal("budget_change_applied", { budget_change_id: first, campaign_id: "sig-1" })]);
    expect(await changeOf(first)).toMatchObject({ status: "applied", appliedAt: new Date("2026-05-08T09:30:00.000Z") });
    expect((await changeOf(second)).status).toBe("planned");
    const audit = await api.db.auditEntry.findFirstOrThrow({ where: { action: "ad_budget_change.applied", targetId: first } });
    expect(audit).toMatchObject({ actorType: "integration", actorId: socialId });
    const notifications = await api.db.notification.findMany({ where: { ownerId }, skip: notificationsBefore });
    expect(await api.db.notification.count({ where: { ownerId } })).toBe(notificationsBefore + 1);
    expect(notifications.map((n) => n.code)).toEqual(["integration.budget_change_applied"]);
  });

  it("fails the newest planned change of the integration's campaign without an id, with the signal's message", async () => {
    const older = await plan("sig-2");
    const newer = await plan("sig-2");
    await ingestSignals(api.db, ownerId, [
      signal("budget_change_failed", { campaign_id: "sig-2" }, { message: "Budget below minimum" }),
    ]);
    expect(await changeOf(newer)).toMatchObject({
      status: "failed",
      failureCode: "platform_failed",
      failureMessage: "Budget below minimum",
    });
    expect((await changeOf(older)).status).toBe("planned");
    const audit = await api.db.auditEntry.findFirstOrThrow({ where: { action: "ad_budget_change.failed", targetId: newer } });
    expect(audit.details).toMatchObject({ failure: { code: "platform_failed", message: "Budget below minimum" } });
    // The next one moves the older, and a third finds nothing planned: the signal is kept, nothing moves.
    await ingestSignals(api.db, ownerId, [signal("budget_change_applied", { campaign_id: "sig-2" })]);
    expect((await changeOf(older)).status).toBe("applied");
    const result = await ingestSignals(api.db, ownerId, [signal("budget_change_applied", { campaign_id: "sig-2" })]);
    expect(result.accepted).toBe(1);
    expect(await changeOf(newer)).toMatchObject({ status: "failed", appliedAt: null });
  });

  it("moves nothing of another integration, and a batch moves each change once, set-based", async () => {
    const theirs = await plan("sig-3", 100, otherSocialId);
    const a = await plan("sig-4");
    const b = await plan("sig-5");
    await ingestSignals(api.db, ownerId, [
      signal("budget_change_applied", { budget_change_id: theirs }),
      signal("budget_change_applied", { campaign_id: "sig-3" }),
      signal("budget_change_applied", { budget_change_id: a }),
      signal("budget_change_failed", { budget_change_id: a }, { occurred_at: "2026-05-08T10:00:00.000Z" }),
      signal("budget_change_failed", { campaign_id: "sig-5" }),
    ]);
    expect((await changeOf(theirs)).status).toBe("planned");
    expect((await changeOf(a)).status).toBe("applied");
    expect(await changeOf(b)).toMatchObject({
      status: "failed",
      failureMessage: "The platform did not apply the budget change.",
    });
    expect(
      await api.db.auditEntry.count({ where: { targetId: { in: [theirs, a, b] }, action: { not: "ad_budget_change.created" } } }),
    ).toBe(2);
  });

  it("arrives from the platforms themselves: a signed social_ads campaign_budget change and a search_ads relay alert", async () => {
    const social = await plan("hook-1");
    await deliverCampaignBudgets([{ campaign_id: "hook-1", status: "APPLIED", daily_budget: "70.00" }], 60);
    expect(await changeOf(social)).toMatchObject({ status: "applied", appliedAt: new Date(NOW.getTime() - 60_000) });

    const searchId = await seedIntegration(api.db, { ownerId, provider: "search_ads", businessId, accountId: "123-456-7890" });
    const search = await plan("hook-2", 7000, searchId);
    await relayAlerts("123-456-7890", [
      {
        id: "al-budget-1",
        type: "budget_change_failed",
        campaign_id: "hook-2",
        budget_change_id: search,
        occurred_at: "2026-05-08T11:00:00Z",
        message: "Below the account's minimum",
      },
    ]);
    expect(await changeOf(search)).toMatchObject({ status: "failed", failureMessage: "Below the account's minimum" });
  });

  it("keeps the daily budget a signed delivery reports: what the service knows of the campaign next (pinned-wave3 §1.1)", async () => {
    await deliverCampaignBudgets([{ campaign_id: "hook-3", status: "APPLIED", daily_budget: "80.00", currency: "EUR" }], 30);
    expect(await api.db.campaignBudgetReport.findMany({ where: { campaignId: "hook-3" } })).toEqual([
      expect.objectContaining({
        integrationId: socialId,
        dailyBudgetMinor: 8000n,
        currency: "EUR",
        reportedAt: new Date(NOW.getTime() - 30_000),
      }),
    ]);
    const next = await api.call("POST", "/v1/ad-budget-changes", {
      body: { integration_id: socialId, campaign_id: "hook-3", new_daily_budget_minor: 25000, currency: "EUR" },
    });
    expect(next.body.data).toMatchObject({
      previous_daily_budget_minor: 8000,
      delta_daily_minor: 17000,
      counted_daily_minor: 17000,
    });

    const searchId = await seedIntegration(api.db, { ownerId, provider: "search_ads", businessId, accountId: "555-000-1111" });
    await relayAlerts("555-000-1111", [
      {
        id: "al-budget-2",
        type: "budget_change_applied",
        campaign_id: "hook-4",
        occurred_at: "2026-05-08T11:00:00Z",
        daily_budget_minor: 12000,
        currency: "EUR",
      },
    ]);
    const search = await api.call("POST", "/v1/ad-budget-changes", {
      body: { integration_id: searchId, campaign_id: "hook-4", new_daily_budget_minor: 10000, currency: "EUR" },
    });
    expect(search.body.data).toMatchObject({
      previous_daily_budget_minor: 12000,
      delta_daily_minor: -2000,
      counted_daily_minor: 0,
    });
  });

  it("the ads read model lists the account's changes, newest first", async () => {
    const result = await ingestEvents(
      api.db,
      ownerId,
      [
        {
          integration_id: socialId,
          external_id: "spend-1",
          type: "ad_spend",
          state: "actual",
          amount_minor: 1200,
          currency: "EUR",
          occurred_on: "2026-05-07",
          source_type: "SOCIAL_ADS_API",
          payload: { platform: "meta", account_id: "act_atlas", campaign_id: "sig-1" },
        },
      ],
      { now: NOW },
    );
    expect(result.rejected).toEqual([]);
    const response = await api.call("GET", `/v1/businesses/${businessId}/ads?from=2026-05-01&to=2026-05-08`);
    expect(response.status, response.text).toBe(200);
    const account = response.body.data.accounts.find((a: { integration_id: string }) => a.integration_id === socialId);
    const rows = await api.db.adBudgetChange.findMany({
      where: { integrationId: socialId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    expect(account.budget_changes).toEqual(
      rows.map((r) => ({
        id: r.id,
        campaign_id: r.campaignId,
        status: r.status,
        new_daily_budget_minor: Number(r.newDailyBudgetMinor),
        currency: "EUR",
        effective_on: "2026-05-08",
      })),
    );
    expect(account.budget_changes.length).toBeGreaterThan(3);
  });
});
