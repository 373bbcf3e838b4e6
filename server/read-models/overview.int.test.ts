// GET /v1/overview (§2.10) on the books of test/helpers/commitments-world.ts; both engines.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/days";
import type { TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { createCommitmentsWorld, type TCommitmentsWorld } from "../../test/helpers/commitments-world";
import { seedAgent, seedBusiness, seedDataRequest, seedOwner, seedSubscription } from "../../test/helpers/seed";

let world: TCommitmentsWorld;
let api: TTestApi;

beforeAll(async () => {
  world = await createCommitmentsWorld();
  api = world.api;
  // 12 alerts, one a minute; the latest 10 are shown.
  for (let n = 1; n <= 12; n++) {
    await api.db.alert.create({
      data: {
        ownerId: world.ownerId,
        businessId: world.atlas,
        code: `integration.alert_${n}`,
        severity: "warning",
        message: `alert ${n}`,
        refType: "signal",
        refId: `sig_${n}`,
        occurredAt: new Date(Date.UTC(2027, 5, 15, 9, n)),
        createdAt: new Date(Date.UTC(2027, 5, 15, 9, n)),
      },
    });
  }
  const agent = await seedAgent(api, { grants: [{ scope: "finances:observe", resource: "*", level: "recommend" }] });
  await seedDataRequest(api, agent.token);
});
afterAll(async () => api?.close());

const get = (query = "", token?: string) => api.call("GET", `/v1/overview${query}`, { token });

describe("GET /v1/overview", () => {
  it("the whole owner: cash, free capital, runway, flows, upcoming costs, alerts, approvals, businesses", async () => {
    const response = await get();
    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data).toMatchObject({
      currency: "EUR",
      base_currency: "EUR",
      today: "2027-06-15",
      // 109 223 + 20 000 + 5 000, as of the oldest snapshot used.
      cash: { amount_minor: 134_223, as_of: "2027-06-10T08:00:00.000Z" },
      // 134 223 − 8 500 reserved − 29 859 committed out (Atlas 29 459, personal 400).
      free_capital_30d_minor: 95_864,
      // in90 90 450; out90 45 000 + 9 000 + 18 000 + 900 + 27 000 = 99 900; net burn 9 450:
      // floor(134 223 × 90 / 9 450) = 1 278 days.
      runway: { days: 1_278, runs_out_on: addDays("2027-06-15", 1_278), status: "finite" },
      // [05-17, 06-15]: in 450; out 9 000 + 900 + 27 000.
      last_30_days: { in_minor: 450, out_minor: 36_900, net_minor: -36_450 },
      month_to_date: { from: "2027-06-01", in_minor: 0, out_minor: 36_000, net_minor: -36_000 },
      upcoming_total_minor: 29_859,
      pending_approvals: 1,
      // The pending approval's notification (approval.pending); the alerts above are rows written directly.
      unread_notifications: 1,
      businesses: [
        { business_id: world.atlas, name: "Atlas", currency: "EUR", net_30d_minor: 450 - 9_900, cash_minor: 109_223 },
        { business_id: world.beacon, name: "Beacon", currency: "USD", net_30d_minor: -27_000, cash_minor: 20_000 },
      ],
    });
    expect(data.upcoming_costs.map((i: any) => [i.date, i.name, i.base_amount_minor])).toEqual([
      ["2027-06-15", "P-overdue", 1_000],
      ["2027-06-15", "S-week", 92],
      ["2027-06-16", "S-web", 300],
      ["2027-06-17", "P-home", 400],
      ["2027-06-18", "P-web", 700],
      ["2027-06-20", "P-rent", 20_000],
      ["2027-06-20", "S-rec first charge", 5_000],
      ["2027-06-22", "S-week", 92],
      ["2027-06-29", "S-week", 92],
      ["2027-06-30", "S-month", 999],
      ["2027-07-01", "S-shared", 1_000],
      ["2027-07-06", "S-week", 92],
      ["2027-07-13", "S-week", 92],
    ]);
    expect(data.upcoming_costs[0].overdue).toBe(true);
    expect(data.alerts.map((a: any) => a.message)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map((n) => `alert ${n}`));
    expect(Object.keys(response.body.coverage).sort()).toEqual(["ads", "billing", "cash", "expenses", "overall", "revenue"]);
    expect(response.body.fx).toMatchObject({ base_currency: "EUR", display_currency: "EUR", currencies: ["EUR", "USD"] });
  });

  it("display_currency: each component converted once, nets and free capital recomputed", async () => {
    const { data } = (await get("?display_currency=USD")).body;
    // × 1.0842, half even: 487.89 → 488; 40 006.98 → 40 007; cash 145 524.58 → 145 525.
    expect(data).toMatchObject({
      currency: "USD",
      last_30_days: { in_minor: 488, out_minor: 40_007, net_minor: 488 - 40_007 },
      cash: { amount_minor: 145_525 },
    });
    expect(data.free_capital_30d_minor).toBe(data.cash.amount_minor - Math.round(8_500 * 1.0842) - data.upcoming_total_minor);
    for (const business of data.businesses) expect(Number.isInteger(business.net_30d_minor)).toBe(true);
    expectApiError(await get("?display_currency=usd"), 400, "validation_error");
  });

  it("lists at most 20 upcoming costs; the total covers all", async () => {
    const frank = await seedOwner(api);
    await api.db.owner.update({ where: { id: frank.ownerId }, data: { baseCurrency: "EUR" } });
    const business = (await seedBusiness(api, { name: "Weekly" }, frank.token)).id;
    // 5 weekly subscriptions from today: 5 charges each in 30 days (days 0, 7, 14, 21, 28).
    for (let n = 0; n < 5; n++) {
      await seedSubscription(
        api,
        {
          business_id: business,
          name: `W${n}`,
          amount_minor: 10,
          currency: "EUR",
          billing_interval: "week",
          next_charge_on: "2027-06-15",
        },
        frank.token,
      );
    }
    const { data } = (await get("", frank.token)).body;
    expect(data.upcoming_costs).toHaveLength(20);
    expect(data.upcoming_total_minor).toBe(250);
    const dates = data.upcoming_costs.map((i: any) => i.date);
    expect([...dates].sort()).toEqual(dates);
    // Nothing else of frank's: no cash, so no free capital and an unknown runway.
    expect(data).toMatchObject({
      cash: null,
      free_capital_30d_minor: null,
      runway: { status: "unknown" },
      alerts: [],
      pending_approvals: 0,
    });
    expect(data.businesses).toEqual([
      { business_id: business, name: "Weekly", currency: "EUR", net_30d_minor: 0, cash_minor: null },
    ]);
  });

  it("an agent without finances:observe on * is 403 scope_denied (pinned-wave3 §2.1)", async () => {
    const agent = await seedAgent(api, { grants: [{ scope: "forecast:observe", resource: "*", level: "execute" }] });
    expectApiError(await get("", agent.token), 403, "scope_denied");
  });
});
