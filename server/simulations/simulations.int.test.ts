// POST /v1/simulations (pinned-wave2 §3.5) on the books of test/helpers/commitments-world.ts
// (today 2027-06-15; its comments give every figure), both engines. Atlas's 30-day forecast, by
// hand: cash 109 223, reserved 8 500, committed in 30 000 and out 29 459, run rate 30 150 / 18 300,
// ending 101 264, lowest 72 448 on 06-30 (06-20 73 631, 06-22 73 539, 06-29 73 447), free capital
// 109 223 − 8 500 − 29 459 = 71 264.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { createCommitmentsWorld, UNKNOWN_ID, type TCommitmentsWorld } from "../../test/helpers/commitments-world";
import { tableState } from "../../test/helpers/fuzz";
import { seedAgent, seedBusiness, seedIntegration, seedOwner, seedSubscription } from "../../test/helpers/seed";

let world: TCommitmentsWorld;
let api: TTestApi;
/** Atlas's reservations by what remains: 5 000, the partly released 3 000 (2 000 left), the released 9 000. */
let reservations: { full: string; partial: string; released: string; web: string };
let ads: string;
let generic: string;

beforeAll(async () => {
  world = await createCommitmentsWorld();
  api = world.api;
  const byAmount = async (amountMinor: bigint, projectId: string | null = null) =>
    (await api.db.budgetReservation.findFirstOrThrow({ where: { ownerId: world.ownerId, amountMinor, projectId } })).id;
  reservations = {
    full: await byAmount(5_000n),
    partial: await byAmount(3_000n),
    released: await byAmount(9_000n),
    web: await byAmount(1_500n, world.web),
  };
  ads = await seedIntegration(api.db, { ownerId: world.ownerId, provider: "social_ads", businessId: world.atlas });
  generic = await seedIntegration(api.db, { ownerId: world.ownerId, provider: "generic", businessId: world.atlas });
});
afterAll(async () => api?.close());

type TBody = Record<string, unknown> & { changes?: unknown[] };
const simulate = (body: TBody, token?: string) =>
  api.call("POST", "/v1/simulations", { body: { changes: [], ...body }, token, idempotencyKey: null });
const atlas = (changes: unknown[], extra: TBody = {}) => simulate({ business_id: world.atlas, changes, ...extra });
async function data(body: Promise<{ status: number; text: string; body: any }>) {
  const response = await body;
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}
/** baseline − simulated balance on each day listed (what the changes cost by then). */
const costByDay = (days: any[]) =>
  Object.fromEntries(days.map((d) => [d.date, d.baseline_balance_minor - d.simulated_balance_minor]));

const BASELINE_30 = {
  committed_in_minor: 30_000,
  committed_out_minor: 29_459,
  reserved_minor: 8_500,
  run_rate_in_minor: 30_150,
  run_rate_out_minor: 18_300,
  ending_balance_committed_minor: 101_264,
  lowest_balance_minor: 72_448,
  lowest_balance_on: "2027-06-30",
  first_negative_on: null,
  free_capital_minor: 71_264,
};
const ZERO_DELTA = {
  committed_in_minor: 0,
  committed_out_minor: 0,
  reserved_minor: 0,
  run_rate_in_minor: 0,
  run_rate_out_minor: 0,
  ending_balance_committed_minor: 0,
  lowest_balance_minor: 0,
  free_capital_minor: 0,
};

describe("no changes: the baseline is the forecast", () => {
  it("Atlas, 30 days: SimTotals by hand, simulated = baseline, every delta 0, no Idempotency-Key needed", async () => {
    const response = await atlas([]);
    expect(response.status, response.text).toBe(200);
    const { data: sim, fx, coverage } = response.body;
    expect(sim).toMatchObject({
      currency: "EUR",
      base_currency: "EUR",
      scope: { business_id: world.atlas },
      from: "2027-06-15",
      to: "2027-07-14",
      horizon_days: 30,
      baseline: BASELINE_30,
      simulated: BASELINE_30,
      delta: ZERO_DELTA,
    });
    expect(sim.days).toHaveLength(30);
    expect(sim.days.every((d: any) => d.baseline_balance_minor === d.simulated_balance_minor)).toBe(true);
    expect(fx).toMatchObject({ base_currency: "EUR", display_currency: "EUR" });
    expect(Object.keys(coverage).sort()).toEqual(["cash", "expenses", "overall", "revenue"]);
  });

  const cases: Array<[string, string, TBody]> = [
    ["Atlas, 30 days", `/v1/businesses/{atlas}/forecast`, { business_id: "{atlas}" }],
    ["Atlas, 90 days", `/v1/businesses/{atlas}/forecast?horizon=90`, { business_id: "{atlas}", horizon: 90 }],
    [
      "Atlas, from&to",
      `/v1/businesses/{atlas}/forecast?from=2027-06-20&to=2027-07-02`,
      { business_id: "{atlas}", from: "2027-06-20", to: "2027-07-02" },
    ],
    [
      "Atlas in USD",
      `/v1/businesses/{atlas}/forecast?display_currency=USD&horizon=7`,
      { business_id: "{atlas}", display_currency: "USD", horizon: 7 },
    ],
    ["personal", "/v1/personal/forecast?horizon=7", { personal: true, horizon: 7 }],
    ["the whole owner", "/v1/forecast?horizon=90", { horizon: 90 }],
  ];
  for (const [name, path, body] of cases) {
    it(`${name}: the baseline equals GET forecast (totals, balances, fx, coverage)`, async () => {
      const fill = (text: string) => text.replace("{atlas}", world.atlas);
      const forecast = await api.call("GET", fill(path));
      expect(forecast.status, forecast.text).toBe(200);
      const simulation = await simulate(JSON.parse(fill(JSON.stringify(body))));
      expect(simulation.status, simulation.text).toBe(200);
      const f = forecast.body.data;
      const s = simulation.body.data;
      expect(s.baseline).toEqual({
        committed_in_minor: f.totals.committed_in_minor,
        committed_out_minor: f.totals.committed_out_minor,
        reserved_minor: f.reserved_minor,
        run_rate_in_minor: f.totals.run_rate_in_minor,
        run_rate_out_minor: f.totals.run_rate_out_minor,
        ending_balance_committed_minor: f.ending_balance_committed_minor,
        lowest_balance_minor: f.lowest_balance?.amount_minor ?? null,
        lowest_balance_on: f.lowest_balance?.date ?? null,
        first_negative_on:
          f.days.find((d: any) => d.balance_committed_minor !== null && d.balance_committed_minor < 0)?.date ?? null,
        free_capital_minor:
          f.starting_cash === null
            ? null
            : f.starting_cash.amount_minor - f.reserved_minor - f.opening.committed_out_minor - f.totals.committed_out_minor,
      });
      expect(s.simulated).toEqual(s.baseline);
      expect(s.delta).toEqual(ZERO_DELTA);
      expect(s).toMatchObject({ currency: f.currency, base_currency: f.base_currency, scope: f.scope, from: f.from, to: f.to });
      expect(s.horizon_days).toBe(f.horizon_days);
      expect(s.days).toEqual(
        f.days.map((d: any) => ({
          date: d.date,
          baseline_balance_minor: d.balance_committed_minor,
          simulated_balance_minor: d.balance_committed_minor,
        })),
      );
      expect(s.fx_used).toEqual(f.fx_used);
      expect(simulation.body.fx).toEqual(forecast.body.fx);
      expect(simulation.body.coverage).toEqual(forecast.body.coverage);
    });
  }

  it("free capital equals GET /v1/free-capital over the same days (business and the whole owner)", async () => {
    for (const [scope, query] of [
      [{ business_id: world.atlas }, `business_id=${world.atlas}&`],
      [{}, ""],
    ] as const) {
      const sim = await data(simulate({ ...scope, horizon: 90 }));
      const free = (await api.call("GET", `/v1/free-capital?${query}horizon_days=90`)).body.data;
      expect(sim.baseline.free_capital_minor).toBe(free.free_capital_minor);
    }
  });
});

describe("each change on its hand-computed case", () => {
  it("cancel_subscription: S-month's charges go (30 days: 06-30; 90 days: 06-30, 07-31, 08-31), from a day on", async () => {
    const thirty = await data(atlas([{ kind: "cancel_subscription", subscription_id: world.ids["S-month"] }]));
    expect(thirty.simulated).toMatchObject({
      committed_out_minor: 29_459 - 999,
      ending_balance_committed_minor: 101_264 + 999,
      // 06-29 (73 447) and 06-30 now tie: the earliest.
      lowest_balance_minor: 73_447,
      lowest_balance_on: "2027-06-29",
      free_capital_minor: 71_264 + 999,
    });
    expect(thirty.delta).toMatchObject({
      committed_out_minor: -999,
      ending_balance_committed_minor: 999,
      lowest_balance_minor: 999,
    });
    expect(costByDay(thirty.days)).toMatchObject({ "2027-06-29": 0, "2027-06-30": -999, "2027-07-14": -999 });

    const ninety = await data(atlas([{ kind: "cancel_subscription", subscription_id: world.ids["S-month"] }], { horizon: 90 }));
    expect(ninety.delta.committed_out_minor).toBe(-2_997);
    const later = await data(
      atlas([{ kind: "cancel_subscription", subscription_id: world.ids["S-month"], from: "2027-07-01" }], { horizon: 90 }),
    );
    expect(later.delta.committed_out_minor).toBe(-1_998);
    expect(costByDay(later.days)).toMatchObject({ "2027-06-30": 0, "2027-07-31": -999, "2027-08-31": -1_998 });
  });

  it("cancel_subscription keeps planned events: S-rec's first charge (a planned event) stays, its 07-20 charge goes", async () => {
    const sim = await data(atlas([{ kind: "cancel_subscription", subscription_id: world.ids["S-rec"] }], { horizon: 90 }));
    // S-rec charges 07-20 and 08-20 in 90 days (06-20 is its event's).
    expect(sim.delta.committed_out_minor).toBe(-10_000);
    expect(costByDay(sim.days)["2027-06-20"]).toBe(0);
  });

  it("change_subscription: each charge from `from` costs the new amount; a project pays its share of the new one", async () => {
    const sim = await data(atlas([{ kind: "change_subscription", subscription_id: world.ids["S-month"], amount_minor: 1_499 }]));
    expect(sim.delta).toMatchObject({ committed_out_minor: 500, ending_balance_committed_minor: -500, free_capital_minor: -500 });
    // Web's part of S-shared (3 333 of 10 000 bps): 333 of 1 000; of 2 000, 666.6 and App's 1 333.4 → the
    // odd unit to the larger remainder: 667.
    const web = await data(
      simulate({
        project_id: world.web,
        changes: [{ kind: "change_subscription", subscription_id: world.ids["S-shared"], amount_minor: 2_000 }],
      }),
    );
    expect(web.scope).toEqual({ project_id: world.web, business_id: world.atlas });
    expect(web.delta.committed_out_minor).toBe(667 - 333);
    expect(costByDay(web.days)).toMatchObject({ "2027-06-30": 0, "2027-07-01": 334 });
  });

  it("add_expense: once on its day (USD at today's rate), or monthly on the anchor day clamped to the month end", async () => {
    const once = await data(atlas([{ kind: "add_expense", amount_minor: 100, currency: "USD", on: "2027-06-25" }]));
    // 100 USD × 0.92233905 = 92.23 → 92.
    expect(once.delta).toMatchObject({ committed_out_minor: 92, ending_balance_committed_minor: -92, free_capital_minor: -92 });
    expect(costByDay(once.days)).toMatchObject({ "2027-06-24": 0, "2027-06-25": 92, "2027-07-14": 92 });
    expect(once.fx_used).toEqual([expect.objectContaining({ from: "USD", to: "EUR", rate: "0.92233905" })]);

    // Anchored on 31 Aug: 08-31, 09-30, 10-31, 11-30, 12-31 (never drifting to the 30th).
    const monthly = await data(
      atlas([{ kind: "add_expense", amount_minor: 1_000, currency: "EUR", on: "2027-08-31", billing_interval: "month" }], {
        from: "2027-06-15",
        to: "2027-12-31",
      }),
    );
    expect(monthly.delta.committed_out_minor).toBe(5_000);
    expect(costByDay(monthly.days)).toMatchObject({
      "2027-08-30": 0,
      "2027-08-31": 1_000,
      "2027-09-29": 1_000,
      "2027-09-30": 2_000,
      "2027-10-30": 2_000,
      "2027-10-31": 3_000,
      "2027-11-30": 4_000,
      "2027-12-30": 4_000,
      "2027-12-31": 5_000,
    });
    // Beyond the window: nothing.
    const beyond = await data(atlas([{ kind: "add_expense", amount_minor: 1_000, currency: "EUR", on: "2027-07-15" }]));
    expect(beyond.delta).toEqual(ZERO_DELTA);
  });

  it("add_expense before from counts in the opening: every listed balance moves, the listed out does not", async () => {
    const sim = await data(
      atlas([{ kind: "add_expense", amount_minor: 400, currency: "EUR", on: "2027-06-16" }], {
        from: "2027-06-20",
        to: "2027-06-21",
      }),
    );
    expect(sim.delta).toMatchObject({ committed_out_minor: 0, ending_balance_committed_minor: -400, free_capital_minor: -400 });
    expect(costByDay(sim.days)).toEqual({ "2027-06-20": 400, "2027-06-21": 400 });
  });

  it("add_revenue: a committed in; weekly it rolls every 7 days", async () => {
    const once = await data(atlas([{ kind: "add_revenue", amount_minor: 5_000, currency: "EUR", on: "2027-06-25" }]));
    // Inflows never count in free capital.
    expect(once.delta).toMatchObject({ committed_in_minor: 5_000, ending_balance_committed_minor: 5_000, free_capital_minor: 0 });
    const weekly = await data(
      atlas([{ kind: "add_revenue", amount_minor: 100, currency: "EUR", on: "2027-06-15", billing_interval: "week" }]),
    );
    // 06-15, 06-22, 06-29, 07-06, 07-13.
    expect(weekly.delta.committed_in_minor).toBe(500);
  });

  it("first_negative_on and the lowest balance: an 80 000 cost on 06-20 takes the line below 0 from that day", async () => {
    const sim = await data(atlas([{ kind: "add_expense", amount_minor: 80_000, currency: "EUR", on: "2027-06-20" }]));
    expect(sim.baseline.first_negative_on).toBeNull();
    expect(sim.simulated).toMatchObject({
      first_negative_on: "2027-06-20",
      lowest_balance_minor: 72_448 - 80_000,
      lowest_balance_on: "2027-06-30",
      ending_balance_committed_minor: 101_264 - 80_000,
    });
    expect(sim.days.find((d: any) => d.date === "2027-06-20").simulated_balance_minor).toBe(73_631 - 80_000);
  });

  it("ad_budget_change: delta × the days from `from` to the end (25 days from 06-20), negative lowers the out", async () => {
    const up = await data(
      atlas([{ kind: "ad_budget_change", integration_id: ads, delta_daily_minor: 500, currency: "EUR", from: "2027-06-20" }]),
    );
    expect(up.delta).toMatchObject({ committed_out_minor: 500 * 25, ending_balance_committed_minor: -500 * 25 });
    expect(costByDay(up.days)).toMatchObject({ "2027-06-19": 0, "2027-06-20": 500, "2027-06-21": 1_000, "2027-07-14": 12_500 });
    const down = await data(
      atlas([{ kind: "ad_budget_change", integration_id: ads, delta_daily_minor: -200, currency: "EUR", from: "2027-07-01" }]),
    );
    expect(down.delta).toMatchObject({ committed_out_minor: -200 * 14, free_capital_minor: 200 * 14 });
  });

  it("release_reservation: all that remains by default, or a part; add_reservation at today's rate", async () => {
    const all = await data(atlas([{ kind: "release_reservation", reservation_id: reservations.partial }]));
    expect(all.simulated.reserved_minor).toBe(8_500 - 2_000);
    expect(all.delta).toMatchObject({
      reserved_minor: -2_000,
      ending_balance_committed_minor: 2_000,
      lowest_balance_minor: 2_000,
    });
    expect(Object.values(costByDay(all.days)).every((cost) => cost === -2_000)).toBe(true);

    const part = await data(atlas([{ kind: "release_reservation", reservation_id: reservations.full, amount_minor: 500 }]));
    expect(part.delta.reserved_minor).toBe(-500);
    // Two releases of one reservation: 1 500, then the rest (500).
    const twice = await data(
      atlas([
        { kind: "release_reservation", reservation_id: reservations.partial, amount_minor: 1_500 },
        { kind: "release_reservation", reservation_id: reservations.partial },
      ]),
    );
    expect(twice.delta.reserved_minor).toBe(-2_000);
    // A released reservation counts nothing: releasing "all" of it changes nothing.
    expect((await data(atlas([{ kind: "release_reservation", reservation_id: reservations.released }]))).delta).toEqual(
      ZERO_DELTA,
    );
    // 1 000 USD → 922.34 → 922 EUR.
    const more = await data(atlas([{ kind: "add_reservation", amount_minor: 1_000, currency: "USD" }]));
    expect(more.delta).toMatchObject({ reserved_minor: 922, free_capital_minor: -922, ending_balance_committed_minor: -922 });
  });

  it("several changes add up; in another display currency the identities still hold", async () => {
    const changes = [
      { kind: "cancel_subscription", subscription_id: world.ids["S-month"] },
      { kind: "add_expense", amount_minor: 1_000, currency: "EUR", on: "2027-06-16" },
      { kind: "release_reservation", reservation_id: reservations.partial },
    ];
    const sim = await data(atlas(changes));
    expect(sim.delta).toMatchObject({ committed_out_minor: 1, reserved_minor: -2_000, ending_balance_committed_minor: 1_999 });
    const usd = await data(atlas(changes, { display_currency: "USD" }));
    expect(usd.currency).toBe("USD");
    for (const totals of [usd.baseline, usd.simulated]) {
      expect(totals.free_capital_minor).not.toBeNull();
    }
    expect(usd.delta.reserved_minor).toBe(usd.simulated.reserved_minor - usd.baseline.reserved_minor);
    // Free capital and the ending balance come from the same converted components (the days are
    // each converted on their own, pinned-wave3 §1.4): ending = free capital + committed in.
    for (const totals of [usd.baseline, usd.simulated]) {
      expect(totals.ending_balance_committed_minor).toBe(totals.free_capital_minor + totals.committed_in_minor);
    }
  });

  it("writes nothing: every table, the audit log and idempotency records alike", async () => {
    const before = await tableState(api);
    const audit = await api.db.auditEntry.count();
    const agent = await seedAgent(api, {
      grants: [
        { scope: "finances:observe", resource: "*", level: "execute" },
        { scope: "forecast:observe", resource: "*", level: "execute" },
      ],
    });
    const afterSeed = await tableState(api);
    const auditAfterSeed = await api.db.auditEntry.count();
    const keys = await api.db.idempotencyRecord.count();
    const every = [
      { kind: "add_expense", amount_minor: 100, currency: "USD", on: "2027-06-25", billing_interval: "month" },
      { kind: "add_revenue", amount_minor: 100, currency: "EUR", on: "2027-06-25" },
      { kind: "cancel_subscription", subscription_id: world.ids["S-week"] },
      { kind: "change_subscription", subscription_id: world.ids["S-month"], amount_minor: 10 },
      { kind: "add_reservation", amount_minor: 100, currency: "EUR" },
      { kind: "release_reservation", reservation_id: reservations.full },
      { kind: "ad_budget_change", integration_id: ads, delta_daily_minor: 10, currency: "EUR", from: "2027-06-15" },
    ];
    expect((await atlas(every)).status).toBe(200);
    expect((await simulate({ business_id: world.atlas, changes: every }, agent.token)).status).toBe(200);
    // An Idempotency-Key sent anyway is ignored: nothing stored for it.
    expect(
      (await api.call("POST", "/v1/simulations", { body: { business_id: world.atlas, changes: every }, idempotencyKey: "sim-1" }))
        .status,
    ).toBe(200);
    expect(await tableState(api)).toEqual(afterSeed);
    expect(await api.db.auditEntry.count()).toBe(auditAfterSeed);
    expect(await api.db.idempotencyRecord.count()).toBe(keys);
    expect(before.size).toBe(afterSeed.size);
    expect(audit).toBeLessThan(auditAfterSeed); // the agent's creation was audited; the simulations were not
  });
});

describe("refusals", () => {
  it("every problem of the body at once (400): scope, horizon, amounts, currencies, kinds", async () => {
    const response = await simulate({
      business_id: world.atlas,
      personal: true,
      horizon: 14,
      changes: [
        { kind: "add_expense", amount_minor: 0, currency: "eur", on: "2027-06-20" },
        { kind: "nope" },
        { kind: "ad_budget_change", integration_id: "x", delta_daily_minor: 0, currency: "EUR", from: "2027-06-20" },
        { kind: "change_subscription", subscription_id: world.ids["S-month"], amount_minor: 15 },
      ],
    });
    const error = expectApiError(response, 400, "validation_error");
    expect(error.details.issues.map((i: any) => i.path).sort()).toEqual([
      "business_id",
      "changes.0.amount_minor",
      "changes.0.currency",
      "changes.1.kind",
      "changes.2.delta_daily_minor",
      "changes.2.integration_id",
      "horizon",
    ]);
    expectApiError(
      await atlas([{ kind: "change_subscription", subscription_id: world.ids["S-month"], amount_minor: 1.5 }]),
      400,
      "validation_error",
      { issue: "changes.0.amount_minor" },
    );
  });

  it("days before today and the window's own rules (400, all at once); horizon with from; from alone; 51 changes", async () => {
    const days = await simulate({
      business_id: world.atlas,
      from: "2027-06-14",
      to: "2027-06-20",
      changes: [
        { kind: "add_expense", amount_minor: 1, currency: "EUR", on: "2027-06-10" },
        { kind: "cancel_subscription", subscription_id: world.ids["S-month"], from: "2027-06-01" },
        { kind: "ad_budget_change", integration_id: ads, delta_daily_minor: 1, currency: "EUR", from: "2027-06-14" },
        { kind: "add_revenue", amount_minor: 1, currency: "EUR", on: "2027-06-15" },
      ],
    });
    const error = expectApiError(days, 400, "validation_error");
    expect(error.details.issues.map((i: any) => i.path)).toEqual(["from", "changes.0.on", "changes.1.from", "changes.2.from"]);
    expectApiError(await simulate({ horizon: 30, from: "2027-06-20", to: "2027-06-21" }), 400, "validation_error", {
      issue: "horizon",
    });
    expectApiError(await simulate({ from: "2027-06-20" }), 400, "validation_error", { issue: "to" });
    expectApiError(await simulate({ from: "2027-06-15", to: "2028-06-15" }), 400, "validation_error", { issue: "to" });
    expectApiError(await api.call("POST", "/v1/simulations", { body: {}, idempotencyKey: null }), 400, "validation_error", {
      issue: "changes",
    });
    const change = { kind: "add_expense", amount_minor: 1, currency: "EUR", on: "2027-06-20" };
    expectApiError(await atlas(Array.from({ length: 51 }, () => change)), 400, "validation_error", { issue: "changes" });
    expect((await atlas(Array.from({ length: 50 }, () => change))).status).toBe(200);
  });

  it("unknown or another owner's ids are 404 (scope first, then the changes' records)", async () => {
    const bob = await seedOwner(api);
    const theirs = (await seedBusiness(api, { name: "Bob's" }, bob.token)).id;
    const theirSubscription = (await seedSubscription(api, { business_id: theirs }, bob.token)).id;
    expectApiError(await simulate({ business_id: theirs }), 404, "not_found");
    expectApiError(await simulate({ business_id: UNKNOWN_ID }), 404, "not_found");
    expectApiError(await simulate({ project_id: UNKNOWN_ID }), 404, "not_found");
    expectApiError(await atlas([{ kind: "cancel_subscription", subscription_id: theirSubscription }]), 404, "not_found", {
      message: /changes\.0\.subscription_id/,
    });
    expectApiError(await atlas([{ kind: "release_reservation", reservation_id: UNKNOWN_ID }]), 404, "not_found");
    expectApiError(
      await atlas([
        { kind: "ad_budget_change", integration_id: UNKNOWN_ID, delta_daily_minor: 1, currency: "EUR", from: "2027-06-20" },
      ]),
      404,
      "not_found",
    );
    // Bob simulates his own books and never sees Atlas's.
    const his = await data(
      simulate({ changes: [{ kind: "cancel_subscription", subscription_id: theirSubscription }] }, bob.token),
    );
    expect(his.baseline.reserved_minor).toBe(0);
    expectApiError(await simulate({ business_id: world.atlas }, bob.token), 404, "not_found");
    expectApiError(
      await simulate({ changes: [{ kind: "cancel_subscription", subscription_id: world.ids["S-month"] }] }, bob.token),
      404,
      "not_found",
    );
  });

  it("a record outside the scope is 400 naming changes.<i>, every one at once; a release beyond what remains too", async () => {
    const response = await simulate({
      business_id: world.beacon,
      changes: [
        { kind: "add_expense", amount_minor: 1, currency: "EUR", on: "2027-06-20" },
        { kind: "cancel_subscription", subscription_id: world.ids["S-month"] },
        { kind: "release_reservation", reservation_id: reservations.full },
        { kind: "ad_budget_change", integration_id: ads, delta_daily_minor: 1, currency: "EUR", from: "2027-06-20" },
      ],
    });
    const error = expectApiError(response, 400, "validation_error");
    expect(error.details.issues.map((i: any) => i.path)).toEqual(["changes.1", "changes.2", "changes.3"]);
    // Web: its own subscription and its share of S-shared are its; Atlas's S-month and reservations are not.
    expect(
      (
        await simulate({
          project_id: world.web,
          changes: [
            { kind: "cancel_subscription", subscription_id: world.ids["S-web"] },
            { kind: "cancel_subscription", subscription_id: world.ids["S-shared"] },
            { kind: "release_reservation", reservation_id: reservations.web },
          ],
        })
      ).status,
    ).toBe(200);
    const web = await simulate({
      project_id: world.web,
      changes: [
        { kind: "cancel_subscription", subscription_id: world.ids["S-month"] },
        { kind: "release_reservation", reservation_id: reservations.full },
        { kind: "ad_budget_change", integration_id: ads, delta_daily_minor: 1, currency: "EUR", from: "2027-06-20" },
      ],
    });
    expect(expectApiError(web, 400, "validation_error").details.issues.map((i: any) => i.path)).toEqual([
      "changes.0",
      "changes.1",
      "changes.2",
    ]);
    expectApiError(
      await simulate({ personal: true, changes: [{ kind: "release_reservation", reservation_id: reservations.full }] }),
      400,
      "validation_error",
      {
        issue: "changes.0",
      },
    );
    // The whole owner covers every record.
    expect((await simulate({ changes: [{ kind: "release_reservation", reservation_id: reservations.full }] })).status).toBe(200);
    // A generic webhook has no ad budget.
    expectApiError(
      await atlas([
        { kind: "ad_budget_change", integration_id: generic, delta_daily_minor: 1, currency: "EUR", from: "2027-06-20" },
      ]),
      400,
      "validation_error",
      { issue: "changes.0.integration_id" },
    );
    // 2 000 remain of the partial reservation: 2 001 is too much, and so are 1 500 then 501.
    expectApiError(
      await atlas([{ kind: "release_reservation", reservation_id: reservations.partial, amount_minor: 2_001 }]),
      400,
      "validation_error",
      { issue: "changes.0.amount_minor" },
    );
    expectApiError(
      await atlas([
        { kind: "release_reservation", reservation_id: reservations.partial, amount_minor: 1_500 },
        { kind: "release_reservation", reservation_id: reservations.partial, amount_minor: 501 },
      ]),
      400,
      "validation_error",
      { issue: "changes.1.amount_minor" },
    );
  });
});

describe("agents (real tokens)", () => {
  const observe = (scope: string, resource: string) => ({ scope, resource, level: "recommend" as const });

  it("both scopes covering the business → 200, the same answer as the owner's", async () => {
    const agent = await seedAgent(api, {
      grants: [observe("finances:observe", `business:${world.atlas}`), observe("forecast:observe", `business:${world.atlas}`)],
    });
    const changes = [{ kind: "cancel_subscription", subscription_id: world.ids["S-month"] }];
    const mine = await data(atlas(changes));
    expect(await data(simulate({ business_id: world.atlas, changes }, agent.token))).toEqual(mine);
    // A business grant covers its projects.
    expect((await simulate({ project_id: world.web }, agent.token)).status).toBe(200);
  });

  it("one scope missing altogether → 403 naming it before the body is read; audited", async () => {
    const agent = await seedAgent(api, { grants: [observe("finances:observe", "*")] });
    const response = await simulate({ business_id: world.atlas, horizon: "bad" }, agent.token);
    expectApiError(response, 403, "scope_denied", {
      details: { required_scope: "forecast:observe", required_scopes: ["forecast:observe"] },
    });
    expect(response.body.error.message).toContain("forecast:observe");
    const none = await seedAgent(api, { grants: [{ scope: "ads", resource: "*", level: "execute" }] });
    expectApiError(await simulate({ business_id: world.atlas }, none.token), 403, "scope_denied", {
      details: { required_scopes: ["finances:observe", "forecast:observe"] },
    });
    expect(await api.db.auditEntry.count({ where: { actorId: agent.id, action: "access.denied" } })).toBe(1);
  });

  it("a scope that does not cover the resource → 403 naming it and the resource; another owner's → 404 first", async () => {
    const agent = await seedAgent(api, {
      grants: [observe("finances:observe", "*"), observe("forecast:observe", `business:${world.beacon}`)],
    });
    expectApiError(await simulate({ business_id: world.atlas }, agent.token), 403, "scope_denied", {
      details: { required_scope: "forecast:observe", required_scopes: ["forecast:observe"], resource: `business:${world.atlas}` },
    });
    expect((await simulate({ business_id: world.beacon }, agent.token)).status).toBe(200);
    // The whole owner needs `*` of both; personal needs personal or `*`.
    expectApiError(await simulate({}, agent.token), 403, "scope_denied", { details: { resource: "*" } });
    expectApiError(await simulate({ personal: true }, agent.token), 403, "scope_denied", { details: { resource: "personal" } });
    const bob = await seedOwner(api);
    const theirs = (await seedBusiness(api, { name: "Bob's 2" }, bob.token)).id;
    expectApiError(await simulate({ business_id: theirs }, agent.token), 404, "not_found");
    expect(await api.db.auditEntry.count({ where: { actorId: agent.id, action: "access.denied" } })).toBe(3);
  });
});

it("is documented: experimental, both scopes, no Idempotency-Key parameter", async () => {
  const doc = (await api.call("GET", "/v1/openapi.json", { token: null })).body;
  const operation = doc.paths["/v1/simulations"].post;
  expect(operation["x-experimental"]).toBe(true);
  expect(operation["x-required-scopes"]).toEqual(["finances:observe", "forecast:observe"]);
  expect(JSON.stringify(operation.parameters)).not.toContain("IdempotencyKey");
  expect(operation.responses["200"]).toBeDefined();
});
