// The three forecasts (§2.5) on the books of test/helpers/commitments-world.ts, whose comments
// give every figure by hand; both engines.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/days";
import { applyTestEnv, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { expectForecastIdentities } from "../../test/helpers/forecast-identities";
import { createCommitmentsWorld, insertEvent, UNKNOWN_ID, type TCommitmentsWorld } from "../../test/helpers/commitments-world";
import { seedAgent, seedBusiness, seedOwner, staticOwner } from "../../test/helpers/seed";
import { fixedClock } from "../shared/clock";

let world: TCommitmentsWorld;
let api: TTestApi;

beforeAll(async () => {
  world = await createCommitmentsWorld();
  api = world.api;
});
afterAll(async () => api?.close());

const get = (path: string, token?: string) => api.call("GET", path, { token });

describe("GET /v1/businesses/{id}/forecast", () => {
  it("30 days by default: cash, reserved, commitments, run rate, both balance lines, hand-computed", async () => {
    const response = await get(`/v1/businesses/${world.atlas}/forecast`);
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data).toMatchObject({
      currency: "EUR",
      base_currency: "EUR",
      scope: { business_id: world.atlas },
      today: "2027-06-15",
      from: "2027-06-15",
      to: "2027-07-14",
      horizon_days: 30,
      starting_cash: { amount_minor: 109_223, as_of: "2027-06-10T08:00:00.000Z" },
      reserved_minor: 8_500,
      opening: { committed_in_minor: 0, committed_out_minor: 0, run_rate_in_minor: 0, run_rate_out_minor: 0 },
      totals: {
        planned_in_minor: 30_000,
        planned_out_minor: 26_700,
        subscriptions_minor: 2_759,
        committed_in_minor: 30_000,
        committed_out_minor: 29_459,
        run_rate_in_minor: 30_150,
        run_rate_out_minor: 18_300,
      },
      ending_balance_committed_minor: 101_264,
      ending_balance_with_run_rate_minor: 113_114,
      lowest_balance: { date: "2027-06-30", amount_minor: 72_448 },
      run_rate: { window_from: "2027-03-18", window_to: "2027-06-15", in_minor: 90_450, out_minor: 54_900 },
    });
    expect(data.days).toHaveLength(30);
    // Day 0: the overdue planned 1 000 and S-week's 92; run rate floor(90 450/90) = 1 005, floor(54 900/90) = 610.
    expect(data.days[0]).toEqual({
      date: "2027-06-15",
      committed_in_minor: 0,
      committed_out_minor: 1_092,
      run_rate_in_minor: 1_005,
      run_rate_out_minor: 610,
      balance_committed_minor: 99_631,
      balance_with_run_rate_minor: 100_026,
    });
    const balances = Object.fromEntries(data.days.map((d: any) => [d.date, d.balance_committed_minor]));
    expect(balances).toMatchObject({
      "2027-06-16": 99_331,
      "2027-06-18": 98_631,
      "2027-06-20": 73_631,
      "2027-06-30": 72_448,
      "2027-07-01": 101_448,
      "2027-07-14": 101_264,
    });
    // The days add up to the totals exactly.
    for (const key of ["committed_in_minor", "committed_out_minor", "run_rate_in_minor", "run_rate_out_minor"]) {
      expect(data.days.reduce((sum: number, d: any) => sum + d[key], 0)).toBe(data.totals[key]);
    }
    expect(data.fx_used).toEqual([expect.objectContaining({ from: "USD", to: "EUR", rate: "0.92233905", source: "mock" })]);
    expect(response.body.fx).toMatchObject({ base_currency: "EUR", display_currency: "EUR", currencies: ["EUR", "USD"] });
    expect(Object.keys(response.body.coverage).sort()).toEqual(["cash", "expenses", "overall", "revenue"]);
  });

  it("lists each commitment once: the overdue one today, the recurring expense's first charge as its event, no fulfilled or voided", async () => {
    const { data } = (await get(`/v1/businesses/${world.atlas}/forecast`)).body;
    const items = data.items.map((i: any) => [
      i.date,
      i.kind,
      i.name,
      i.direction,
      i.amount_minor,
      i.currency,
      i.base_amount_minor,
      i.overdue,
      i.share_bps,
    ]);
    expect(items).toEqual([
      ["2027-06-15", "planned", "P-overdue", "out", 1_000, "EUR", 1_000, true, null],
      ["2027-06-15", "subscription", "S-week", "out", 100, "USD", 92, false, null],
      ["2027-06-16", "subscription", "S-web", "out", 300, "EUR", 300, false, null],
      ["2027-06-18", "planned", "P-web", "out", 700, "EUR", 700, false, null],
      ["2027-06-20", "planned", "P-rent", "out", 20_000, "EUR", 20_000, false, null],
      ["2027-06-20", "planned", "S-rec first charge", "out", 5_000, "EUR", 5_000, false, null],
      ["2027-06-22", "subscription", "S-week", "out", 100, "USD", 92, false, null],
      ["2027-06-29", "subscription", "S-week", "out", 100, "USD", 92, false, null],
      ["2027-06-30", "subscription", "S-month", "out", 999, "EUR", 999, false, null],
      ["2027-07-01", "planned", "P-deal", "in", 30_000, "EUR", 30_000, false, null],
      ["2027-07-01", "subscription", "S-shared", "out", 1_000, "EUR", 1_000, false, null],
      ["2027-07-06", "subscription", "S-week", "out", 100, "USD", 92, false, null],
      ["2027-07-13", "subscription", "S-week", "out", 100, "USD", 92, false, null],
    ]);
    expect(data.items[0].id).toBe(world.ids["P-overdue"]);
    expect(data.items[1].id).toBe(world.ids["S-week"]);
  });

  it("horizon 7 and 90: the window, the run rate over 90 days sums to T exactly, S-rec charges on 07-20", async () => {
    const seven = (await get(`/v1/businesses/${world.atlas}/forecast?horizon=7`)).body.data;
    expect(seven).toMatchObject({ from: "2027-06-15", to: "2027-06-21", horizon_days: 7 });
    expect(seven.days).toHaveLength(7);
    const ninety = (await get(`/v1/businesses/${world.atlas}/forecast?horizon=90`)).body.data;
    expect(ninety).toMatchObject({ to: "2027-09-12", horizon_days: 90 });
    expect(ninety.totals.run_rate_in_minor).toBe(90_450);
    expect(ninety.totals.run_rate_out_minor).toBe(54_900);
    const rec = ninety.items.filter((i: any) => i.id === world.ids["S-rec"]).map((i: any) => i.date);
    expect(rec).toEqual(["2027-07-20", "2027-08-20"]);
    // S-month anchored on 31 Jan: 30 Jun, 31 Jul, 31 Aug (clamped per month, from the anchor).
    const month = ninety.items.filter((i: any) => i.id === world.ids["S-month"]).map((i: any) => i.date);
    expect(month).toEqual(["2027-06-30", "2027-07-31", "2027-08-31"]);
    // 13 weekly charges in 90 days.
    expect(ninety.items.filter((i: any) => i.id === world.ids["S-week"])).toHaveLength(13);
  });

  it("from&to: the days before from are the opening; the balances continue from it", async () => {
    const { data } = (await get(`/v1/businesses/${world.atlas}/forecast?from=2027-06-20&to=2027-06-21`)).body;
    expect(data).toMatchObject({ from: "2027-06-20", to: "2027-06-21", horizon_days: 2 });
    // 06-15..06-19: out 1 092 + 300 + 700; run rate floor(5 × 90 450 / 90) = 5 025, floor(5 × 54 900 / 90) = 3 050.
    expect(data.opening).toEqual({
      committed_in_minor: 0,
      committed_out_minor: 2_092,
      run_rate_in_minor: 5_025,
      run_rate_out_minor: 3_050,
    });
    expect(data.days[0]).toMatchObject({ date: "2027-06-20", committed_out_minor: 25_000, balance_committed_minor: 73_631 });
    expect(data.items.map((i: any) => i.date)).toEqual(["2027-06-20", "2027-06-20"]);
  });

  it("display_currency: the totals, cash, reserved and T converted once, the ending balances recomputed from them", async () => {
    const response = await get(`/v1/businesses/${world.atlas}/forecast?display_currency=USD`);
    expect(response.status).toBe(200);
    const { data, fx } = response.body;
    expect(data.currency).toBe("USD");
    expect(data.base_currency).toBe("EUR");
    // 109 223 × 1.0842 = 118 419.58 → 118 420; 8 500 × 1.0842 = 9 215.7 → 9 216; T_in 90 450 → 98 065.89 → 98 066.
    expect(data.starting_cash.amount_minor).toBe(118_420);
    expect(data.reserved_minor).toBe(9_216);
    expect(data.run_rate.in_minor).toBe(98_066);
    // The days are each converted on their own (pinned-wave3 §1.4, tested in pinned-rules.int.test.ts);
    // the top-level identities hold on the converted components.
    expectForecastIdentities(data);
    // Items stay a base-currency breakdown.
    expect(data.items[0]).toMatchObject({ amount_minor: 1_000, currency: "EUR", base_amount_minor: 1_000 });
    expect(fx).toMatchObject({ display_currency: "USD", estimated_share: 1 });
    expect(data.fx_used).toContainEqual(expect.objectContaining({ from: "EUR", to: "USD", rate: "1.08420000" }));
  });

  it("refuses bad parameters with 400 naming the field", async () => {
    const cases: Array<[string, string]> = [
      ["horizon=14", "horizon"],
      ["horizon=abc", "horizon"],
      ["from=2027-06-20", "to"],
      ["to=2027-06-20", "from"],
      ["horizon=30&from=2027-06-20&to=2027-06-21", "horizon"],
      ["from=2027-06-14&to=2027-06-20", "from"],
      ["from=2027-06-21&to=2027-06-20", "to"],
      ["from=2027-06-15&to=2028-06-15", "to"],
      ["from=2027-02-30&to=2027-06-20", "from"],
      ["display_currency=usd", "display_currency"],
    ];
    for (const [query, field] of cases) {
      const response = await get(`/v1/businesses/${world.atlas}/forecast?${query}`);
      expectApiError(response, 400, "validation_error");
      expect(response.body.error.details.issues.map((i: any) => i.path).join(","), query).toContain(field);
    }
    // 365 days apart is the longest.
    expect((await get(`/v1/businesses/${world.atlas}/forecast?from=2027-06-15&to=2028-06-14`)).status).toBe(200);
    expectApiError(await get(`/v1/businesses/not-a-uuid/forecast`), 400, "validation_error");
    // The window is checked before the business is looked up (they are read together).
    expectApiError(await get(`/v1/businesses/${UNKNOWN_ID}/forecast?horizon=14`), 400, "validation_error");
  });

  it("another owner's business and an unknown one are 404; an agent is 403", async () => {
    const bob = await seedOwner(api);
    const theirs = (await seedBusiness(api, { name: "Theirs" }, bob.token)).id;
    expectApiError(await get(`/v1/businesses/${theirs}/forecast`), 404, "not_found");
    expectApiError(await get(`/v1/businesses/${UNKNOWN_ID}/forecast`), 404, "not_found");
    // Bob sees his own business, never Atlas.
    expect((await get(`/v1/businesses/${theirs}/forecast`, bob.token)).status).toBe(200);
    expectApiError(await get(`/v1/businesses/${world.atlas}/forecast`, bob.token), 404, "not_found");
    // Agents read forecasts with forecast:observe covering the scope (pinned-wave3 §2.1), not finances:observe.
    const agent = await seedAgent(api, { grants: [{ scope: "finances:observe", resource: "*", level: "execute" }] });
    for (const path of [`/v1/businesses/${world.atlas}/forecast`, "/v1/personal/forecast", "/v1/forecast"]) {
      expectApiError(await get(path, agent.token), 403, "scope_denied");
    }
  });
});

describe("GET /v1/personal/forecast and GET /v1/forecast", () => {
  it("personal: its own cash and commitments only", async () => {
    const { data } = (await get("/v1/personal/forecast?horizon=7")).body;
    expect(data).toMatchObject({
      scope: { personal: true },
      starting_cash: { amount_minor: 5_000 },
      reserved_minor: 0,
      totals: { planned_out_minor: 400, subscriptions_minor: 0, committed_out_minor: 400, run_rate_in_minor: 0 },
      ending_balance_committed_minor: 4_600,
      lowest_balance: { date: "2027-06-17", amount_minor: 4_600 },
    });
    expect(data.items.map((i: any) => i.name)).toEqual(["P-home"]);
  });

  it("owner: every scope together", async () => {
    const { data } = (await get("/v1/forecast")).body;
    // Cash 109 223 + 20 000 + 5 000; out 29 459 + 400; in 30 000.
    expect(data).toMatchObject({
      scope: { owner: true },
      starting_cash: { amount_minor: 134_223 },
      reserved_minor: 8_500,
      totals: { committed_out_minor: 29_859, committed_in_minor: 30_000 },
      ending_balance_committed_minor: 134_223 - 8_500 + 30_000 - 29_859,
      // T_out adds Beacon's expense: 54 900 + 27 000.
      run_rate: { in_minor: 90_450, out_minor: 81_900 },
    });
  });

  it("no cash: the balances are null, the sums still there", async () => {
    const carol = await seedOwner(api);
    await api.db.owner.update({ where: { id: carol.ownerId }, data: { baseCurrency: "EUR" } });
    await insertEvent(api, carol.ownerId, {
      personal: true,
      type: "planned_expense",
      state: "planned",
      amount: 10n,
      on: "2027-06-16",
    });
    const { data } = (await get("/v1/forecast?horizon=7", carol.token)).body;
    expect(data).toMatchObject({ starting_cash: null, ending_balance_committed_minor: null, lowest_balance: null });
    expect(data.totals.committed_out_minor).toBe(10);
    expect(data.days.every((d: any) => d.balance_committed_minor === null && d.balance_with_run_rate_minor === null)).toBe(true);
  });
});

describe("rates", () => {
  let ecb: TTestApi;
  beforeAll(async () => {
    ecb = await createTestApi({ clock: fixedClock("2027-06-15T10:00:00Z"), env: { FX_SOURCE: "ecb" } });
    const { ownerId } = await staticOwner(ecb);
    await ecb.db.owner.update({ where: { id: ownerId }, data: { baseCurrency: "EUR" } });
    await insertEvent(ecb, ownerId, {
      personal: true,
      type: "planned_expense",
      state: "planned",
      amount: 10n,
      currency: "USD",
      on: "2027-06-16",
    });
  });
  afterAll(async () => {
    await ecb?.close();
    applyTestEnv({ FX_SOURCE: "mock" });
  });

  it("a missing rate is 422 fx_unavailable, never 1:1; a currency the source lacks is 422 currency_unsupported", async () => {
    expectApiError(await ecb.call("GET", "/v1/personal/forecast"), 422, "fx_unavailable");
    applyTestEnv({ FX_SOURCE: "mock" });
    expectApiError(await api.call("GET", "/v1/forecast?display_currency=XTS"), 422, "currency_unsupported");
  });
});

it("a day in the owner's timezone: today moves with it", async () => {
  await api.db.owner.update({ where: { id: world.ownerId }, data: { timezone: "Pacific/Kiritimati" } });
  try {
    // 10:00 UTC is 00:00 the next day at UTC+14.
    const { data } = (await get("/v1/personal/forecast?horizon=7")).body;
    expect(data.today).toBe(addDays("2027-06-15", 1));
  } finally {
    await api.db.owner.update({ where: { id: world.ownerId }, data: { timezone: "UTC" } });
  }
});
