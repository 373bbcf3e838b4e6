// Goals' progress and goal proposals (pinned-wave2 §3.6) on books made through the API and
// computed by hand below; both engines.
//
// The owner keeps the books in EUR, in UTC (FX_SOURCE=mock: 1 EUR = 1.0842 USD). Goals are
// set on 2027-06-10 09:00 UTC; everything is read on 2027-06-15 10:00 UTC (today 06-15).
//
// Atlas (project Web inside):
//   cash: 100 000 (06-14); reserved 10 000; planned out 6 000 (06-20), 1 000 (08-01, beyond 30 days).
//   revenue 1 000 (03-10, before every window), 5 000 (06-09, before the goals), 30 000 (06-12),
//   12 000 (06-15); Web 7 000 (06-11).
//   expense 60 000 (04-01), 20 000 (05-20), 8 000 (06-01), 4 500 (06-14), 3 000 (06-13, voided);
//   Web 2 000 (06-12).
//   Free capital (30 d, [06-15, 07-14]) = 100 000 − 10 000 − 6 000 = 84 000; in USD: cash 108 420,
//   reserved 10 842, planned 6 505.2 → 6 505: 91 073.
//   Net revenue since 06-10 = 30 000 + 12 000 + 7 000 = 49 000 (Web alone: 7 000); in USD 53 125.8 → 53 126.
//   This month's outflow (06-01 to 06-15) = 8 000 + 4 500 + 2 000 = 14 500 (Web alone: 2 000).
//   Burn [03-18, 06-15]: in 5 000 + 30 000 + 12 000 + 7 000 = 54 000; out 60 000 + 20 000 + 8 000 +
//   4 500 + 2 000 = 94 500; net 40 500, monthly 13 500. Runway floor(100 000 × 90 / 40 500) = 222 days.
//   Last 30 days [05-17, 06-15]: net revenue 54 000, outflow 34 500.
// Thin: cash 10 000 (06-14); expense 9 000 (05-01). Monthly net burn 3 000; runway floor(900 000 / 9 000)
//   = 100 days; nothing in the last 30 days.
// Dry: no cash, no events. Personal: cash 5 000 (06-14); revenue 12 335 (06-01): not burning.
// Longrun: a revenue goal set on 2026-01-01; revenue 4 000 (2025-12-31), 10 000 (2026-01-02),
//   5 000 (2027-06-01): 15 000 since creation, 531 days (over the read models' 366-day query limit).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { createdData, seedBusiness, seedOwner, seedProject, seedReservation, staticOwner } from "../../test/helpers/seed";
import { fixedClock } from "../shared/clock";

const SET_AT = "2027-06-10T09:00:00Z";
const NOW = "2027-06-15T10:00:00Z";
const clock = fixedClock(SET_AT);

let api: TTestApi;
let atlas: string;
let web: string;
let thin: string;
let dry: string;
let longrun: string;
const goals: Record<string, string> = {};

async function event(path: "/v1/revenues" | "/v1/expenses" | "/v1/planned-expenses", scope: object, amount: number, on: string) {
  const body = { ...scope, amount_minor: amount, currency: "EUR", occurred_on: on };
  return createdData<{ id: string }>(await api.call("POST", path, { body }), `${path} ${on}`).id;
}
const revenue = (scope: object, amount: number, on: string) => event("/v1/revenues", scope, amount, on);
const expense = (scope: object, amount: number, on: string) => event("/v1/expenses", scope, amount, on);

async function cash(scope: object, amount: number) {
  const body = {
    ...scope,
    amount_minor: amount,
    currency: "EUR",
    as_of: "2027-06-14T08:00:00Z",
    payload: { account_id: "main" },
  };
  createdData(await api.call("POST", "/v1/cash-snapshots", { body }), "a cash snapshot");
}

async function setGoal(name: string, body: Record<string, unknown>) {
  const response = await api.call("POST", "/v1/goals", { body: { name, ...body } });
  goals[name] = createdData<{ id: string }>(response, `the goal ${name}`).id;
}

const progressOf = async (name: string) => {
  const response = await api.call("GET", `/v1/goals/${goals[name]}`);
  expect(response.status, response.text).toBe(200);
  return response.body.data.progress;
};

const propose = (body: unknown, token?: string) => api.call("POST", "/v1/goal-proposals", { body, token });

beforeAll(async () => {
  api = await createTestApi({ clock, env: { FX_SOURCE: "mock" } });
  const { ownerId } = await staticOwner(api);
  await api.db.owner.update({ where: { id: ownerId }, data: { baseCurrency: "EUR", timezone: "UTC" } });
  atlas = (await seedBusiness(api, { name: "Atlas" })).id;
  web = (await seedProject(api, atlas, { name: "Web" })).id;
  thin = (await seedBusiness(api, { name: "Thin" })).id;
  dry = (await seedBusiness(api, { name: "Dry" })).id;
  longrun = (await seedBusiness(api, { name: "Longrun" })).id;

  clock.set("2026-01-01T12:00:00Z");
  await setGoal("longrun revenue", { business_id: longrun, kind: "revenue", target_amount_minor: 30_000, currency: "EUR" });

  clock.set(SET_AT);
  const money = (amount: number, currency = "EUR") => ({ target_amount_minor: amount, currency });
  await setGoal("atlas save", { business_id: atlas, kind: "save", ...money(100_000) });
  await setGoal("atlas save USD", { business_id: atlas, kind: "save", ...money(100_000, "USD") });
  await setGoal("atlas save BRL", { business_id: atlas, kind: "save", ...money(100_000, "BRL") });
  await setGoal("atlas revenue", { business_id: atlas, kind: "revenue", ...money(50_000) });
  await setGoal("atlas revenue USD", { business_id: atlas, kind: "revenue", ...money(60_000, "USD") });
  await setGoal("atlas spend_cap", { business_id: atlas, kind: "spend_cap", ...money(40_000) });
  await setGoal("atlas runway", { business_id: atlas, kind: "runway", target_days: 365 });
  await setGoal("web save", { project_id: web, kind: "save", ...money(100_000) });
  await setGoal("web revenue", { project_id: web, kind: "revenue", ...money(10_000) });
  await setGoal("web spend_cap", { project_id: web, kind: "spend_cap", ...money(5_000) });
  await setGoal("web runway", { project_id: web, kind: "runway", target_days: 200 });
  await setGoal("dry save", { business_id: dry, kind: "save", ...money(1_000) });
  await setGoal("dry runway", { business_id: dry, kind: "runway", target_days: 90 });
  await setGoal("personal runway", { personal: true, kind: "runway", target_days: 90 });

  clock.set(NOW);
  await cash({ business_id: atlas }, 100_000);
  await seedReservation(api, { business_id: atlas, amount_minor: 10_000, currency: "EUR" });
  await event("/v1/planned-expenses", { business_id: atlas }, 6_000, "2027-06-20");
  await event("/v1/planned-expenses", { business_id: atlas }, 1_000, "2027-08-01");
  for (const [amount, on] of [
    [1_000, "2027-03-10"],
    [5_000, "2027-06-09"],
    [30_000, "2027-06-12"],
    [12_000, "2027-06-15"],
  ] as const)
    await revenue({ business_id: atlas }, amount, on);
  await revenue({ project_id: web }, 7_000, "2027-06-11");
  for (const [amount, on] of [
    [60_000, "2027-04-01"],
    [20_000, "2027-05-20"],
    [8_000, "2027-06-01"],
    [4_500, "2027-06-14"],
  ] as const)
    await expense({ business_id: atlas }, amount, on);
  const voided = await expense({ business_id: atlas }, 3_000, "2027-06-13");
  createdData(await api.call("POST", `/v1/events/${voided}/void`, { body: {} }), "a void");
  await expense({ project_id: web }, 2_000, "2027-06-12");

  await cash({ business_id: thin }, 10_000);
  await expense({ business_id: thin }, 9_000, "2027-05-01");
  await cash({ personal: true }, 5_000);
  await revenue({ personal: true }, 12_335, "2027-06-01");
  await revenue({ business_id: longrun }, 4_000, "2025-12-31");
  await revenue({ business_id: longrun }, 10_000, "2026-01-02");
  await revenue({ business_id: longrun }, 5_000, "2027-06-01");
});
afterAll(async () => api?.close());

const AS_OF = "2027-06-15T10:00:00.000Z";
const money = (current: number | null, ratio: number | null) => ({
  current_minor: current,
  current_days: null,
  ratio,
  as_of: AS_OF,
});
const days = (current: number | null, ratio: number | null) => ({
  current_minor: null,
  current_days: current,
  ratio,
  as_of: AS_OF,
});

describe("progress, computed on read", () => {
  it("save: free capital over the next 30 days of the scope, in the goal's currency", async () => {
    expect(await progressOf("atlas save")).toEqual(money(84_000, 0.84));
    expect(await progressOf("atlas save USD")).toEqual(money(91_073, 0.9107));
    // A project has no cash: its business's pool (as GET /v1/free-capital answers a project).
    expect(await progressOf("web save")).toEqual(money(84_000, 0.84));
    // No cash: free capital is unknown.
    expect(await progressOf("dry save")).toEqual(money(null, null));
  });

  it("save agrees with GET /v1/free-capital to the minor unit", async () => {
    const answer = await api.call("GET", `/v1/free-capital?business_id=${atlas}&display_currency=USD`);
    expect((await progressOf("atlas save USD")).current_minor).toBe(answer.body.data.free_capital_minor);
  });

  it("revenue: net revenue since the day the goal was set, in the goal's currency", async () => {
    expect(await progressOf("atlas revenue")).toEqual(money(49_000, 0.98));
    expect(await progressOf("atlas revenue USD")).toEqual(money(53_126, 0.8854));
    // The project's own events only.
    expect(await progressOf("web revenue")).toEqual(money(7_000, 0.7));
    // Set 531 days ago: every day since counts (not capped at 366).
    expect(await progressOf("longrun revenue")).toEqual(money(15_000, 0.5));
  });

  it("spend_cap: this month's outflow (voided events never count)", async () => {
    expect(await progressOf("atlas spend_cap")).toEqual(money(14_500, 0.3625));
    expect(await progressOf("web spend_cap")).toEqual(money(2_000, 0.4));
    // The same figure as the financial summary of the month.
    const summary = await api.call("GET", `/v1/businesses/${atlas}/financial-summary?from=2027-06-01&to=2027-06-15`);
    expect(summary.body.data.outflow_minor).toBe(14_500);
  });

  it("runway: the runway's days; not burning → ratio 1; unknown → null; a project counts its business's", async () => {
    // 222 / 365 = 0.608219… → 0.6082.
    expect(await progressOf("atlas runway")).toEqual(days(222, 0.6082));
    expect(await progressOf("web runway")).toEqual(days(222, 1.11));
    expect(await progressOf("personal runway")).toEqual(days(null, 1));
    expect(await progressOf("dry runway")).toEqual(days(null, null));
  });

  it("a currency the rate source does not cover: progress null, the goal still reads", async () => {
    const response = await api.call("GET", `/v1/goals/${goals["atlas save BRL"]}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toMatchObject({ currency: "BRL", progress: null });
  });

  it("is read, never stored, and follows the books", async () => {
    const id = await expense({ business_id: atlas }, 5_500, "2027-06-15");
    expect(await progressOf("atlas spend_cap")).toEqual(money(20_000, 0.5));
    createdData(await api.call("POST", `/v1/events/${id}/void`, { body: {} }), "a void");
    expect(await progressOf("atlas spend_cap")).toEqual(money(14_500, 0.3625));
  });
});

describe("POST /v1/goal-proposals", () => {
  it("proposes the pinned table's rows whose condition holds, in order, in the base currency", async () => {
    const response = await propose({ business_id: atlas });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.proposals).toEqual([
      {
        kind: "save",
        name: expect.any(String),
        target_amount_minor: 40_500,
        target_days: null,
        currency: "EUR",
        target_date: "2027-09-13",
        rationale: expect.stringContaining("€135.00"),
      },
      {
        kind: "spend_cap",
        name: expect.any(String),
        target_amount_minor: 34_500,
        target_days: null,
        currency: "EUR",
        target_date: "2027-07-31",
        rationale: expect.stringContaining("€345.00"),
      },
      {
        kind: "revenue",
        name: expect.any(String),
        target_amount_minor: 59_400,
        target_days: null,
        currency: "EUR",
        target_date: "2027-07-15",
        rationale: expect.stringContaining("€540.00"),
      },
    ]);
    // The runway (222 days) is not under 180: no runway proposal.
  });

  it("runway finite and under 180 days → target_days 180; nothing in the last 30 days → no spend_cap, no revenue", async () => {
    const { proposals } = (await propose({ business_id: thin })).body.data;
    expect(proposals.map((p: { kind: string }) => p.kind)).toEqual(["save", "runway"]);
    expect(proposals[0]).toMatchObject({ target_amount_minor: 9_000, currency: "EUR", target_date: "2027-09-13" });
    expect(proposals[1]).toEqual({
      kind: "runway",
      name: expect.any(String),
      target_amount_minor: null,
      target_days: 180,
      currency: null,
      target_date: "2027-09-13",
      rationale: expect.stringContaining("100 days"),
    });
  });

  it("revenue: divideHalfEven(net revenue × 110, 100); not burning → no save, no runway", async () => {
    // 12 335 × 110 / 100 = 13 568.5 → 13 568 (half to even).
    const { proposals } = (await propose({ personal: true })).body.data;
    expect(proposals).toEqual([
      expect.objectContaining({ kind: "revenue", target_amount_minor: 13_568, target_date: "2027-07-15" }),
    ]);
  });

  it("a project: its own events; its business's runway", async () => {
    const { proposals } = (await propose({ project_id: web })).body.data;
    // In 7 000, out 2 000 over 90 days: not burning, so no save; the business's runway is 222 days.
    expect(proposals).toEqual([
      expect.objectContaining({ kind: "spend_cap", target_amount_minor: 2_000 }),
      expect.objectContaining({ kind: "revenue", target_amount_minor: 7_700 }),
    ]);
  });

  it("a scope with no books: no proposals", async () => {
    expect((await propose({ business_id: dry })).body.data).toEqual({ proposals: [] });
  });

  it("stores nothing and audits nothing; a proposal posted to /v1/goals is a goal", async () => {
    const goalsBefore = await api.db.goal.count();
    const auditBefore = await api.db.auditEntry.count();
    const { proposals } = (await propose({ business_id: atlas })).body.data;
    expect(await api.db.goal.count()).toBe(goalsBefore);
    expect(await api.db.auditEntry.count()).toBe(auditBefore);
    for (const proposal of proposals) {
      const { rationale: _rationale, ...fields } = proposal;
      const created = await api.call("POST", "/v1/goals", { body: { business_id: atlas, ...fields } });
      expect(created.status, created.text).toBe(201);
      expect(created.body.data).toMatchObject({ ...fields, status: "active" });
    }
  });

  it("exactly one scope (400); another owner's or an unknown business or project 404", async () => {
    for (const body of [{}, { business_id: atlas, personal: true }, { business_id: atlas, project_id: web }]) {
      expectApiError(await propose(body), 400, "validation_error", { issue: "business_id", what: JSON.stringify(body) });
    }
    expectApiError(await propose({ personal: false }), 400, "validation_error", { issue: "personal" });
    const bob = await seedOwner(api);
    expectApiError(await propose({ business_id: atlas }, bob.token), 404, "not_found");
    expectApiError(await propose({ project_id: web }, bob.token), 404, "not_found");
    expectApiError(await propose({ business_id: "5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00" }), 404, "not_found");
  });
});
