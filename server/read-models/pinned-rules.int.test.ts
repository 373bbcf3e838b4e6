// Read models on their own rules (issue 32, item 4; pinned-wave3 §1.4), on both engines:
//   K4  subscription_change and agent_action move no money: no summary lists, counts or weighs
//       them (by_type, events_counted, fx.currencies, estimated_share), nor does any other
//       aggregate's envelope;
//   K5  a forecast's display components are the window's totals (and cash, reserved, opening),
//       each converted once from the base; its days are converted one by one; the derived
//       figures are recomputed from the converted components.
// The owner's base is EUR; the mock rates are fixed (1 EUR = 1.0842 USD = 162.45 JPY).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/days";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { insertEventRow } from "../../test/helpers/event-rows";
import { expectForecastIdentities } from "../../test/helpers/forecast-identities";
import { createdData } from "../../test/helpers/seed";
import { convertMany } from "../fx/fx-service";
import { openOwnerSession } from "../sessions/session-service";
import { fixedClock } from "../shared/clock";

const NOW = new Date("2026-05-10T12:00:00Z");
const TODAY = "2026-05-10";

let api: TTestApi;
let owner: { ownerId: string; token: string };

beforeAll(async () => {
  api = await createTestApi({ clock: fixedClock(NOW), env: { FX_SOURCE: "mock" } });
  const row = await api.db.owner.create({
    data: {
      plan: "business",
      email: `rules-${randomUUID()}@example.test`,
      baseCurrency: "EUR",
      baseCurrencyConfirmed: true,
      // Before the clock's today, so the daily brief has a day to tell.
      createdAt: new Date("2026-01-01T00:00:00Z"),
    },
  });
  owner = { ownerId: row.id, token: (await openOwnerSession(api.db, { ownerId: row.id, channel: "api" })).token };
});
afterAll(async () => api?.close());

const get = async (path: string) => {
  const response = await api.call("GET", path, { token: owner.token });
  expect(response.status, `${path}: ${response.text}`).toBe(200);
  return response.body;
};
const post = async (path: string, body: object) => createdData(await api.call("POST", path, { token: owner.token, body }), path);

/** A business's bank balance this morning (account "main"). */
const recordCash = (businessId: string, amount: number, currency: string) =>
  post("/v1/cash-snapshots", {
    business_id: businessId,
    amount_minor: amount,
    currency,
    as_of: "2026-05-10T08:00:00Z",
    payload: { account_id: "main" },
  });

/** EUR cents in another currency at today's mock rate, each amount converted on its own (half even). */
async function converted(amounts: number[], to: string): Promise<number[]> {
  const results = await convertMany(
    api.db,
    amounts.map((a) => ({ amountMinor: BigInt(a), from: "EUR", to, on: TODAY, kind: "current" as const })),
    { today: TODAY },
  );
  return results.map((r) => Number(r.amountMinor));
}

describe("K4: subscription_change and agent_action in no aggregate", () => {
  let businessId: string;

  beforeAll(async () => {
    businessId = (await post("/v1/businesses", { name: "K4", currency: "EUR" })).id;
    // Recorded the day they occurred, so the daily brief (as known at the end of today) sees them.
    const event = (type: string, amount: bigint, currency: string, on: string) =>
      insertEventRow(api, owner.ownerId, { businessId, type, amount, currency, on, createdAt: `${on}T09:00:00Z` });
    await event("revenue", 1_000n, "EUR", addDays(TODAY, -1));
    await event("expense", 500n, "USD", addDays(TODAY, -2));
    // Before the summary's 30 days, within its burn's 90: behind a figure too.
    await event("expense", 700n, "EUR", addDays(TODAY, -60));
    // Counted actuals with no direction, in currencies nothing else uses.
    await event("subscription_change", 700n, "GBP", addDays(TODAY, -1));
    await event("agent_action", 300n, "CHF", TODAY);
    // Cash at a current rate: 1 000 USD cents → 922 EUR cents, the estimated part of each envelope.
    await recordCash(businessId, 1_000, "USD");
  });

  // 922 estimated of 922 + 1 000 + 500 + 700 (the events that move money, each once): 0.2953.
  const SHARE = 0.2953;

  it("the financial summary lists, counts and weighs only the events that move money", async () => {
    const body = await get(`/v1/businesses/${businessId}/financial-summary`);
    expect(body.data.by_type.map((r: { type: string }) => r.type)).toEqual(["expense", "revenue"]);
    expect(body.data.events_counted).toBe(2);
    expect(body.provenance_summary.events).toBe(2);
    // Every aggregate weighs the rows behind its figures: here the burn's 90 days too.
    expect(body.fx.currencies).toEqual(["EUR", "USD"]);
    expect(body.fx.estimated_share).toBe(SHARE);
    expect(body.data.by_category.every((c: { in_minor: number; out_minor: number }) => c.in_minor + c.out_minor > 0)).toBe(true);
    expect(body.data.net_minor).toBe(500);
  });

  it("the forecast, overview, daily brief, project health and context weigh no currency of them either", async () => {
    for (const path of [`/v1/businesses/${businessId}/forecast`, "/v1/forecast", "/v1/overview", "/v1/daily-brief"]) {
      const body = await get(path);
      expect(body.fx.currencies, path).toEqual(["EUR", "USD"]);
      expect(body.fx.estimated_share, path).toBe(SHARE);
    }
    // The context is its parts' components together: the summary's, the forecast's and free
    // capital's (each counts the 922 of cash, the first two the 2 200 of events): 2 766 / 7 166.
    const context = await get(`/v1/businesses/${businessId}/context`);
    expect(context.fx.currencies).toEqual(["EUR", "USD"]);
    expect(context.fx.estimated_share).toBe(0.386);
    const health = await get(`/v1/businesses/${businessId}/project-health`);
    expect(health.fx.currencies).toEqual(["EUR", "USD"]);
    expect(health.fx.estimated_share).toBe(0);
    // A display currency other than the base: all of it is an estimate.
    expect((await get(`/v1/businesses/${businessId}/financial-summary?display_currency=USD`)).fx.estimated_share).toBe(1);
  });
});

describe("K5: a forecast's totals converted once, its days one by one", () => {
  let businessId: string;

  beforeAll(async () => {
    businessId = (await post("/v1/businesses", { name: "K5", currency: "EUR" })).id;
    await recordCash(businessId, 100_000, "EUR");
    // T_out = 9 000: 100 a day of run rate. Three planned costs of 100.
    await insertEventRow(api, owner.ownerId, { businessId, type: "expense", amount: 9_000n, on: addDays(TODAY, -10) });
    for (const k of [1, 2, 3]) {
      await insertEventRow(api, owner.ownerId, {
        businessId,
        type: "planned_expense",
        state: "planned",
        amount: 100n,
        on: addDays(TODAY, k),
      });
    }
  });

  it("in a 0-digit display currency (JPY) converts the window's totals once, not each day", async () => {
    const base = (await get(`/v1/businesses/${businessId}/forecast`)).data;
    const jpy = (await get(`/v1/businesses/${businessId}/forecast?display_currency=JPY`)).data;
    expect(jpy.currency).toBe("JPY");
    // The construction: 100 EUR cents a day show as 162 yen (162.45), 30 days as 4 860; the
    // window's 3 000 show as 4 874 (4 873.5, half even). Three planned 100s: 3 × 162 = 486, but 300 → 487.
    expect(base.totals).toMatchObject({ planned_out_minor: 300, run_rate_out_minor: 3_000 });
    expect(jpy.totals).toMatchObject({
      planned_out_minor: 487,
      subscriptions_minor: 0,
      committed_out_minor: 487,
      run_rate_out_minor: 4_874,
    });
    expect(jpy.days.reduce((sum: number, d: { run_rate_out_minor: number }) => sum + d.run_rate_out_minor, 0)).toBe(4_860);

    // Every total, opening figure, cash, reserved and T: its base figure converted once.
    const totalsKeys = [
      "planned_in_minor",
      "planned_out_minor",
      "subscriptions_minor",
      "run_rate_in_minor",
      "run_rate_out_minor",
    ];
    const openingKeys = Object.keys(base.opening);
    const once = await converted(
      [
        ...totalsKeys.map((k) => base.totals[k]),
        ...openingKeys.map((k) => base.opening[k]),
        base.starting_cash.amount_minor,
        base.reserved_minor,
        base.run_rate.in_minor,
        base.run_rate.out_minor,
      ],
      "JPY",
    );
    let at = 0;
    for (const k of totalsKeys) expect(jpy.totals[k], `totals.${k}`).toBe(once[at++]);
    for (const k of openingKeys) expect(jpy.opening[k], `opening.${k}`).toBe(once[at++]);
    expect(jpy.starting_cash.amount_minor).toBe(once[at++]);
    expect(jpy.reserved_minor).toBe(once[at++]);
    expect(jpy.run_rate).toMatchObject({ in_minor: once[at++], out_minor: once[at++] });

    // Each day: its base figures converted one by one.
    const dayKeys = Object.keys(base.days[0]).filter((k) => k !== "date");
    const days = await converted(
      base.days.flatMap((d: Record<string, number>) => dayKeys.map((k) => d[k]!)),
      "JPY",
    );
    base.days.forEach((d: Record<string, unknown>, i: number) => {
      for (const [j, k] of dayKeys.entries()) expect(jpy.days[i][k], `days.${i}.${k}`).toBe(days[i * dayKeys.length + j]);
    });

    // The derived figures, recomputed from the converted components: the top-level identities hold.
    expectForecastIdentities(jpy);
    const lowest = jpy.days.find((d: { date: string }) => d.date === jpy.lowest_balance.date);
    expect(jpy.lowest_balance).toEqual({ date: base.lowest_balance.date, amount_minor: lowest.balance_committed_minor });

    // In the base the days still add up to the totals exactly.
    for (const key of ["committed_in_minor", "committed_out_minor", "run_rate_in_minor", "run_rate_out_minor"]) {
      expect(base.days.reduce((sum: number, d: Record<string, number>) => sum + d[key]!, 0)).toBe(base.totals[key]);
    }
  });

  it("a simulation shows the same figures as the forecast in that currency", async () => {
    const forecast = (await get(`/v1/businesses/${businessId}/forecast?display_currency=JPY`)).data;
    const simulation = await api.call("POST", "/v1/simulations", {
      token: owner.token,
      idempotencyKey: null,
      body: { business_id: businessId, display_currency: "JPY", changes: [] },
    });
    expect(simulation.status, simulation.text).toBe(200);
    const s = simulation.body.data;
    expect(s.baseline).toMatchObject({
      committed_out_minor: forecast.totals.committed_out_minor,
      run_rate_out_minor: forecast.totals.run_rate_out_minor,
      ending_balance_committed_minor: forecast.ending_balance_committed_minor,
      lowest_balance_minor: forecast.lowest_balance.amount_minor,
    });
    expect(s.days.map((d: { baseline_balance_minor: number }) => d.baseline_balance_minor)).toEqual(
      forecast.days.map((d: { balance_committed_minor: number }) => d.balance_committed_minor),
    );
  });
});
