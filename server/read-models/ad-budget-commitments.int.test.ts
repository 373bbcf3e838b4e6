// What agents commit shows in the forecast (pinned-wave3 §1.3), both engines: a campaign's known
// daily budget (its latest planned or applied ad budget change, from that change's effective_on;
// a failed one never counts; a newer change replaces an older from its own effective_on) is an
// out commitment of each day of the window, one ad_budget item per campaign, in the forecasts,
// free capital and the overview; the campaign's own ad_spend leaves the run rate's T_out.
//
// The books (USD, today 2026-05-08, UTC): Atlas has 10,000.00 cash and a social_ads account whose
// campaign cmp-a spent 80.00 a day on 05-01..05-06 (480.00) and cmp-b 30.00 on 05-05. Nothing else.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { businessGrant, seedAgent, seedBusiness, seedIntegration, staticOwner } from "../../test/helpers/seed";
import { ingestEvents, ingestSignals } from "../ingest/ingest-service";
import { fixedClock } from "../shared/clock";

const TODAY = "2026-05-08";
let api: TTestApi;
let ownerId: string;
let atlas: string;
let socialId: string;

beforeAll(async () => {
  api = await createTestApi({ clock: fixedClock(`${TODAY}T12:00:00Z`), env: { FX_SOURCE: "mock" } });
  ownerId = (await staticOwner(api)).ownerId;
  await api.db.owner.update({ where: { id: ownerId }, data: { baseCurrency: "USD", timezone: "UTC" } });
  atlas = (await seedBusiness(api, { name: "Atlas", currency: "USD" })).id;
  socialId = await seedIntegration(api.db, { ownerId, provider: "social_ads", businessId: atlas, accountId: "act_atlas" });
  await api.db.cashSnapshot.create({
    data: {
      ownerId,
      businessId: atlas,
      scope: `business:${atlas}`,
      amountMinor: 1_000_000n,
      currency: "USD",
      asOf: new Date(`${TODAY}T06:00:00Z`),
      accountId: "bank",
      externalId: `manual:bank:${TODAY}`,
      dataClass: "manual",
      sourceType: "MANUAL",
    },
  });
  const spend = (campaign: string, day: string, amount: number) => ({
    integration_id: socialId,
    external_id: `spend:${campaign}:${day}`,
    type: "ad_spend" as const,
    state: "actual" as const,
    amount_minor: amount,
    currency: "USD",
    occurred_on: day,
    source_type: "SOCIAL_ADS_API",
    payload: { platform: "social_ads", account_id: "act_atlas", campaign_id: campaign },
  });
  const days = ["2026-05-01", "2026-05-02", "2026-05-03", "2026-05-04", "2026-05-05", "2026-05-06"];
  const result = await ingestEvents(
    api.db,
    ownerId,
    [...days.map((d) => spend("cmp-a", d, 8000)), spend("cmp-b", "2026-05-05", 3000)],
    {
      now: new Date(`${TODAY}T12:00:00Z`),
    },
  );
  expect(result.rejected).toEqual([]);
});
afterAll(async () => api?.close());

const ok = async (path: string) => {
  const response = await api.call("GET", path);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
};
const forecast = () => ok(`/v1/businesses/${atlas}/forecast`);
const freeCapital = () => ok(`/v1/free-capital?business_id=${atlas}`);
/** An ad budget change of the owner's, answered 201. */
const plan = async (campaign: string, budget: number, effectiveOn: string) => {
  const response = await api.call("POST", "/v1/ad-budget-changes", {
    body: {
      integration_id: socialId,
      campaign_id: campaign,
      new_daily_budget_minor: budget,
      currency: "USD",
      effective_on: effectiveOn,
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.data.id as string;
};
const signal = (code: "budget_change_applied" | "budget_change_failed", changeId: string) =>
  ingestSignals(api.db, ownerId, [
    {
      integration_id: socialId,
      external_id: randomUUID(),
      code,
      occurred_at: `${TODAY}T11:00:00.000Z`,
      ref: { budget_change_id: changeId },
    },
  ]);

describe("ad budgets as commitments (pinned-wave3 §1.3)", () => {
  it("before any change: nothing committed, both campaigns' spend in the run rate", async () => {
    const data = await forecast();
    expect(data.totals).toMatchObject({ ad_budgets_minor: 0, committed_out_minor: 0 });
    expect(data.run_rate.out_minor).toBe(51_000);
    expect((await freeCapital()).committed).toEqual({
      planned_minor: 0,
      subscriptions_minor: 0,
      ad_budgets_minor: 0,
      total_minor: 0,
    });
  });

  it("after approving an 80 → 250 raise, committed costs and free capital move by 250 a day from its effective_on", async () => {
    const agent = await seedAgent(api, { grants: [businessGrant(atlas, { level: "recommend" })] });
    const held = await api.call("POST", "/v1/ad-budget-changes", {
      token: agent.token,
      body: {
        integration_id: socialId,
        campaign_id: "cmp-a",
        previous_daily_budget_minor: 8000,
        new_daily_budget_minor: 25_000,
        currency: "USD",
        effective_on: "2026-05-10",
        reason: "ROAS twice the target",
      },
    });
    expect(held.status, held.text).toBe(202);
    // Held, it commits nothing yet.
    expect((await forecast()).totals.ad_budgets_minor).toBe(0);
    const approved = await api.call("POST", `/v1/approvals/${held.body.data.approval.id}/approve`, { body: {} });
    expect(approved.status, approved.text).toBe(200);
    const changeId = approved.body.data.result.data.id as string;

    // The window is 05-08..06-06: 250.00 on each of the 28 days from 05-10.
    const data = await forecast();
    expect(data.totals).toMatchObject({ ad_budgets_minor: 700_000, committed_out_minor: 700_000 });
    const days = Object.fromEntries(
      data.days.map((d: { date: string; committed_out_minor: number }) => [d.date, d.committed_out_minor]),
    );
    expect([days["2026-05-08"], days["2026-05-09"], days["2026-05-10"], days["2026-06-06"]]).toEqual([0, 0, 25_000, 25_000]);
    expect(data.ending_balance_committed_minor).toBe(1_000_000 - 700_000);
    expect(data.items).toEqual([
      {
        kind: "ad_budget",
        id: changeId,
        name: "Ad budget cmp-a",
        date: "2026-05-10",
        direction: "out",
        amount_minor: 700_000,
        currency: "USD",
        base_amount_minor: 700_000,
        overdue: false,
        share_bps: null,
        from: "2026-05-10",
        to: "2026-06-06",
        campaign_id: "cmp-a",
        integration_id: socialId,
        daily_budget_minor: 25_000,
      },
    ]);
    // cmp-a's own 480.00 of spend leaves T_out; cmp-b's 30.00 stays.
    expect(data.run_rate.out_minor).toBe(3000);

    const capital = await freeCapital();
    expect(capital.committed).toEqual({
      planned_minor: 0,
      subscriptions_minor: 0,
      ad_budgets_minor: 700_000,
      total_minor: 700_000,
    });
    expect(capital.free_capital_minor).toBe(1_000_000 - 700_000);
    expect(capital.items).toEqual([expect.objectContaining({ kind: "ad_budget", campaign_id: "cmp-a", amount_minor: 700_000 })]);

    // The same in the owner's forecast and the overview (its 30 days are free capital's); none personal.
    expect((await ok("/v1/forecast")).totals.ad_budgets_minor).toBe(700_000);
    expect((await ok("/v1/personal/forecast")).totals.ad_budgets_minor).toBe(0);
    const overview = await ok("/v1/overview");
    expect(overview.upcoming_total_minor).toBe(700_000);
    expect(overview.upcoming_costs).toEqual([
      expect.objectContaining({ kind: "ad_budget", from: "2026-05-10", daily_budget_minor: 25_000 }),
    ]);

    // Applied by the platform, it still counts.
    await signal("budget_change_applied", changeId);
    expect((await forecast()).totals.ad_budgets_minor).toBe(700_000);
  });

  it("a failed change commits nothing, and its campaign's spend stays in the run rate", async () => {
    const failed = await plan("cmp-b", 5000, TODAY);
    expect((await forecast()).totals.ad_budgets_minor).toBe(700_000 + 30 * 5000);
    await signal("budget_change_failed", failed);
    const data = await forecast();
    expect(data.totals.ad_budgets_minor).toBe(700_000);
    expect(data.items.map((i: { campaign_id: string }) => i.campaign_id)).toEqual(["cmp-a"]);
    expect(data.run_rate.out_minor).toBe(3000);
  });

  it("a newer change replaces an older one from its own effective_on", async () => {
    const newer = await plan("cmp-a", 10_000, "2026-05-20");
    // 250.00 on 05-10..05-19 (10 days), 100.00 on 05-20..06-06 (18 days).
    const data = await forecast();
    expect(data.totals.ad_budgets_minor).toBe(10 * 25_000 + 18 * 10_000);
    expect(data.items).toEqual([
      expect.objectContaining({
        id: newer,
        from: "2026-05-10",
        to: "2026-06-06",
        amount_minor: 430_000,
        daily_budget_minor: 10_000,
      }),
    ]);
    const days = Object.fromEntries(
      data.days.map((d: { date: string; committed_out_minor: number }) => [d.date, d.committed_out_minor]),
    );
    expect([days["2026-05-19"], days["2026-05-20"]]).toEqual([25_000, 10_000]);
    expect((await freeCapital()).committed.ad_budgets_minor).toBe(430_000);
    // A window from 05-25 lists only its own days; the days before it are in the opening.
    const later = await ok(`/v1/businesses/${atlas}/forecast?from=2026-05-25&to=2026-05-31`);
    expect(later.opening.committed_out_minor).toBe(10 * 25_000 + 5 * 10_000);
    expect(later.items).toEqual([
      expect.objectContaining({ from: "2026-05-25", to: "2026-05-31", amount_minor: 70_000, date: "2026-05-25" }),
    ]);
  });

  it("converts a campaign's budget at the current rate, once per day, in another display currency too", async () => {
    const eur = await ok(`/v1/businesses/${atlas}/forecast?display_currency=EUR`);
    const base = await forecast();
    expect(eur.currency).toBe("EUR");
    expect(eur.totals.ad_budgets_minor).toBeGreaterThan(0);
    expect(eur.totals.ad_budgets_minor).not.toBe(base.totals.ad_budgets_minor);
    expect(eur.totals.committed_out_minor).toBe(eur.totals.ad_budgets_minor);
  });
});
