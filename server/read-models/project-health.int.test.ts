// Project health (§2.9) over the REST layer on both engines: a known ledger through a live
// generic integration (revenue and expenses coverage accurate), each row's figures, allocated
// costs by largest remainder, capacity items, score, status and reasons; the rows' margins add
// up to the financial summary's net; a manual-only business (coverage_gap, at_risk); the
// display currency; the period's 400s; owner only (agents 403, audited), tenants (404).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { businessGrant, createdData, seedAgent, seedIntegration, type TSeedOwner } from "../../test/helpers/seed";
import { ingestEvents } from "../ingest/ingest-service";
import { openOwnerSession } from "../sessions/session-service";
import { fixedClock } from "../shared/clock";

const NOW = new Date("2026-05-10T12:00:00Z");
let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi({ clock: fixedClock(NOW) });
});
afterAll(async () => api?.close());

/** An owner whose base currency is EUR (every amount below is EUR: base = amount). */
async function seedOwner(_api: TTestApi): Promise<TSeedOwner> {
  const owner = await api.db.owner.create({
    data: { email: `ph-${randomUUID()}@example.test`, baseCurrency: "EUR", baseCurrencyConfirmed: true },
  });
  const { token } = await openOwnerSession(api.db, { ownerId: owner.id, channel: "api" });
  return { ownerId: owner.id, token };
}

type TWorld = TSeedOwner & {
  businessId: string;
  projects: Record<"alpha" | "beta" | "gamma" | "delta" | "omega", string>;
  shared: string;
  seats: string;
  ci: string;
  wifi: string;
  generic: string;
};

async function post(o: TSeedOwner, path: string, body: unknown) {
  return createdData(await api.call("POST", path, { token: o.token, body }), path);
}

async function put(o: TSeedOwner, path: string, body: unknown) {
  const response = await api.call("PUT", path, { token: o.token, body });
  expect(response.status, response.text).toBe(200);
}

type TEvent = {
  type: "revenue" | "refund" | "expense" | "recurring_expense" | "ad_spend" | "subscription_change";
  amount: number;
  on: string;
  project?: string;
  subscription?: string;
  direction?: "in" | "out";
  state?: "actual" | "planned";
};

async function ingest(w: TWorld, events: TEvent[]) {
  const result = await ingestEvents(
    api.db,
    w.ownerId,
    events.map((e) => ({
      integration_id: w.generic,
      external_id: `ev_${randomUUID()}`,
      type: e.type,
      state: e.state ?? "actual",
      amount_minor: e.amount,
      currency: "EUR",
      occurred_on: e.on,
      source_type: "PAYMENTS_API",
      business_id: w.businessId,
      ...(e.project ? { project_id: e.project } : {}),
      ...(e.subscription ? { subscription_id: e.subscription } : {}),
      ...(e.direction ? { payload: { direction: e.direction } } : {}),
    })),
    { now: NOW },
  );
  expect(result.rejected, JSON.stringify(result.rejected)).toEqual([]);
}

/**
 * Default period [2026-04-11, 2026-05-10], previous [2026-03-12, 2026-04-10]. Projects: Alpha
 * (healthy but for a nearly full seat plan), Beta (a loss after a good month), Gamma (no events:
 * insufficient data), Delta (archived, empty: not listed), Omega (archived with an expense).
 */
async function newWorld(): Promise<TWorld> {
  const owner = await seedOwner(api);
  const business = await post(owner, "/v1/businesses", { name: "Studio", currency: "EUR" });
  const project = async (name: string) => (await post(owner, `/v1/businesses/${business.id}/projects`, { name })).id as string;
  const projects = {
    alpha: await project("Alpha"),
    beta: await project("Beta"),
    gamma: await project("Gamma"),
    delta: await project("Delta"),
    omega: await project("Omega"),
  };
  const subscription = async (body: object) =>
    (
      await post(owner, "/v1/subscriptions", {
        amount_minor: 1000,
        currency: "EUR",
        billing_interval: "month",
        next_charge_on: "2026-06-01",
        ...body,
      })
    ).id as string;
  const shared = await subscription({ business_id: business.id, name: "Shared tool" });
  await put(owner, `/v1/subscriptions/${shared}/allocations`, {
    allocations: [
      { project_id: projects.alpha, share_bps: 5000 },
      { project_id: projects.beta, share_bps: 5000 },
    ],
  });
  await put(owner, `/v1/subscriptions/${shared}/capacity`, { unit: "licences", total: 10, used: 5 });
  const seats = await subscription({ project_id: projects.alpha, name: "Seats" });
  await put(owner, `/v1/subscriptions/${seats}/capacity`, { unit: "seats", total: 20, used: 19 });
  const ci = await subscription({ project_id: projects.gamma, name: "CI minutes" });
  await put(owner, `/v1/subscriptions/${ci}/capacity`, { unit: "minutes", total: 10, used: 1 });
  const wifi = await subscription({ business_id: business.id, name: "Office wifi" });
  await put(owner, `/v1/subscriptions/${wifi}/capacity`, { unit: "GB", total: 100, used: 50 });

  const generic = await seedIntegration(api.db, {
    ownerId: owner.ownerId,
    provider: "generic",
    businessId: business.id,
    lastSyncAt: new Date(NOW.getTime() - 3_600_000),
  });
  const w: TWorld = { ...owner, businessId: business.id, projects, shared, seats, ci, wifi, generic };
  const { alpha, beta, omega } = projects;
  await ingest(w, [
    // The period.
    { type: "revenue", amount: 50_000, on: "2026-04-20", project: alpha },
    { type: "refund", amount: 2_000, on: "2026-04-21", project: alpha, direction: "out" },
    { type: "expense", amount: 10_000, on: "2026-04-22", project: alpha },
    { type: "refund", amount: 500, on: "2026-04-23", project: alpha, direction: "in" },
    { type: "subscription_change", amount: 7_777, on: "2026-04-24", project: alpha },
    { type: "expense", amount: 88_888, on: "2026-04-25", project: alpha, state: "planned" },
    { type: "revenue", amount: 10_000, on: "2026-04-20", project: beta },
    { type: "ad_spend", amount: 12_000, on: "2026-05-10", project: beta },
    { type: "revenue", amount: 7_000, on: "2026-04-11" },
    { type: "expense", amount: 3_000, on: "2026-04-12" },
    { type: "recurring_expense", amount: 1_001, on: "2026-05-01", subscription: shared },
    { type: "expense", amount: 100, on: "2026-04-15", project: omega },
    // The previous period.
    { type: "revenue", amount: 40_000, on: "2026-03-12", project: alpha },
    { type: "expense", amount: 10_000, on: "2026-04-10", project: alpha },
    { type: "revenue", amount: 20_000, on: "2026-03-20", project: beta },
    { type: "expense", amount: 5_000, on: "2026-03-21", project: beta },
    { type: "recurring_expense", amount: 1_000, on: "2026-04-01", subscription: shared },
    // Before both.
    { type: "revenue", amount: 99_999, on: "2026-03-11", project: alpha },
  ]);
  // Archive the two last projects (Delta has nothing; Omega has an expense in the period).
  for (const id of [projects.delta, projects.omega]) {
    const response = await api.call("PATCH", `/v1/projects/${id}`, { token: owner.token, body: { status: "archived" } });
    expect(response.status, response.text).toBe(200);
  }
  return w;
}

const path = (businessId: string, query = "") => `/v1/businesses/${businessId}/project-health${query}`;

async function health(w: TSeedOwner & { businessId: string }, query = "") {
  const response = await api.call("GET", path(w.businessId, query), { token: w.token });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe("GET /v1/businesses/{id}/project-health", () => {
  let w: TWorld;
  beforeAll(async () => {
    w = await newWorld();
  });

  it("answers each project's figures, capacity, score and reasons, then the business-level row", async () => {
    const body = await health(w);
    expect(body.coverage).toEqual({ overall: "accurate", revenue: "accurate", expenses: "accurate" });
    expect(body.fx).toMatchObject({ base_currency: "EUR", display_currency: "EUR", currencies: ["EUR"] });
    const data = body.data;
    expect(data).toMatchObject({
      currency: "EUR",
      base_currency: "EUR",
      business_id: w.businessId,
      from: "2026-04-11",
      to: "2026-05-10",
      previous: { from: "2026-03-12", to: "2026-04-10" },
    });
    expect(data.projects.map((p: any) => p.name)).toEqual(["Alpha", "Beta", "Gamma", "Omega", null]);
    const [alpha, beta, gamma, omega, business] = data.projects;

    // 1001 over 5000/5000: 500.5 each; the unit goes to the first in the split's order (equal
    // shares: the smaller project id). Previous period: 1000 → 500 each.
    const alphaFirst = w.projects.alpha < w.projects.beta;
    const alphaShare = alphaFirst ? 501 : 500;
    const betaShare = 1001 - alphaShare;

    // Alpha: in 50 000 + refund in 500, refund out 2 000 → revenue 48 500; direct 10 000; planned
    // and subscription_change events never count.
    expect(alpha).toMatchObject({
      project_id: w.projects.alpha,
      revenue_minor: 48_500,
      direct_costs_minor: 10_000,
      allocated_costs_minor: alphaShare,
      margin_minor: 38_500 - alphaShare,
      margin_ratio: Number(((38_500 - alphaShare) / 48_500).toFixed(4)),
      previous_margin_minor: 29_500,
      margin_change_minor: 38_500 - alphaShare - 29_500,
      score: 90,
      status: "healthy",
    });
    expect(alpha.reasons).toEqual([
      { code: "capacity_near_full", detail: "Nearly full (90% or more): Seats: 19 of 20 seats used (95%)." },
    ]);
    expect(alpha.capacity).toEqual({
      max_utilization: 0.95,
      items: [
        { subscription_id: w.seats, name: "Seats", unit: "seats", total: 20, used: 19, utilization: 0.95 },
        { subscription_id: w.shared, name: "Shared tool", unit: "licences", total: 10, used: 5, utilization: 0.5 },
      ],
    });

    // Beta: 10 000 − 12 000 − its share < 0, and far below its previous 14 500: −40 −20 = 40, watch.
    expect(beta).toMatchObject({
      revenue_minor: 10_000,
      direct_costs_minor: 12_000,
      allocated_costs_minor: betaShare,
      margin_minor: -2_000 - betaShare,
      previous_margin_minor: 14_500,
      margin_change_minor: -2_000 - betaShare - 14_500,
      score: 40,
      status: "watch",
    });
    expect(beta.reasons.map((r: any) => r.code)).toEqual(["negative_margin", "margin_drop"]);
    expect(beta.reasons[0].detail).toBe(
      `Costs of ${((12_000 + betaShare) / 100).toFixed(2)} EUR exceeded revenue of 100.00 EUR: margin ${(
        (-2_000 - betaShare) /
        100
      ).toFixed(2)} EUR.`,
    );

    // Gamma: nothing counted in either period → insufficient_data, its capacity still shown.
    expect(gamma).toMatchObject({
      revenue_minor: 0,
      margin_minor: 0,
      margin_ratio: null,
      score: null,
      status: "insufficient_data",
      capacity: { max_utilization: 0.1 },
    });
    expect(gamma.reasons.map((r: any) => r.code)).toEqual(["insufficient_data"]);

    // Omega is archived but has an expense: listed, negative margin.
    expect(omega).toMatchObject({ project_id: w.projects.omega, margin_minor: -100, score: 60, status: "watch" });

    // The business-level row: revenue 7 000, its own costs 3 000 (the allocated charge moved to
    // the projects), the unallocated subscription's capacity, no score.
    expect(business).toEqual({
      project_id: null,
      name: null,
      revenue_minor: 7_000,
      direct_costs_minor: 3_000,
      allocated_costs_minor: 0,
      margin_minor: 4_000,
      margin_ratio: 0.5714,
      previous_margin_minor: 0,
      margin_change_minor: 4_000,
      capacity: {
        max_utilization: 0.5,
        items: [{ subscription_id: w.wifi, name: "Office wifi", unit: "GB", total: 100, used: 50, utilization: 0.5 }],
      },
      score: null,
      status: null,
      reasons: [],
    });
  });

  it("adds up: the rows' margins are the financial summary's net, per period; allocated costs the charges", async () => {
    for (const query of ["", "?from=2026-03-12&to=2026-04-10", "?from=2026-01-01&to=2026-05-10"]) {
      const data = (await health(w, query)).data;
      const summary = await api.call("GET", `/v1/businesses/${w.businessId}/financial-summary${query}`, { token: w.token });
      expect(summary.status, summary.text).toBe(200);
      const margins = data.projects.reduce((sum: number, p: any) => sum + p.margin_minor, 0);
      expect(margins, query).toBe(summary.body.data.net_minor);
      for (const row of data.projects) {
        expect(row.margin_minor).toBe(row.revenue_minor - row.direct_costs_minor - row.allocated_costs_minor);
        expect(row.margin_change_minor).toBe(row.margin_minor - row.previous_margin_minor);
      }
    }
    const current = (await health(w)).data.projects;
    expect(current.reduce((sum: number, p: any) => sum + p.allocated_costs_minor, 0)).toBe(1_001);
  });

  it("the previous period has the same length and ends the day before from", async () => {
    const data = (await health(w, "?from=2026-05-01&to=2026-05-10")).data;
    expect(data.previous).toEqual({ from: "2026-04-21", to: "2026-04-30" });
    // Only to: from = to − 29.
    expect((await health(w, "?to=2026-04-10")).data).toMatchObject({
      from: "2026-03-12",
      previous: { from: "2026-02-10", to: "2026-03-11" },
    });
  });

  it("converts the amounts into display_currency; the score stays the base's", async () => {
    const base = (await health(w)).data;
    const shown = await health(w, "?display_currency=USD");
    expect(shown.data.currency).toBe("USD");
    expect(shown.fx).toMatchObject({ display_currency: "USD", estimated_share: 1 });
    // The same rate as the summary's base → display conversion (each component once, half even).
    const summary = await api.call("GET", `/v1/businesses/${w.businessId}/financial-summary?display_currency=USD`, {
      token: w.token,
    });
    const rate = summary.body.data.fx_used.find((u: any) => u.from === "EUR" && u.to === "USD").rate as string;
    const [alpha] = shown.data.projects;
    expect(alpha.revenue_minor).toBe(Math.round(48_500 * Number(rate)));
    expect(alpha.margin_minor).toBe(alpha.revenue_minor - alpha.direct_costs_minor - alpha.allocated_costs_minor);
    expect(shown.data.projects.map((p: any) => [p.score, p.status])).toEqual(base.projects.map((p: any) => [p.score, p.status]));
  });

  it("400 for a bad period, display currency or id", async () => {
    expectApiError(
      await api.call("GET", path(w.businessId, "?from=2026-05-11&to=2026-05-10"), { token: w.token }),
      400,
      "validation_error",
      {
        issue: "from",
      },
    );
    expectApiError(
      await api.call("GET", path(w.businessId, "?from=2025-01-01&to=2026-05-10"), { token: w.token }),
      400,
      "validation_error",
      {
        issue: "from",
      },
    );
    expectApiError(
      await api.call("GET", path(w.businessId, "?display_currency=usd"), { token: w.token }),
      400,
      "validation_error",
      {
        issue: "display_currency",
      },
    );
    expectApiError(await api.call("GET", path("not-a-uuid"), { token: w.token }), 400, "validation_error", { issue: "id" });
  });
});

describe("a business known only from manual entries", () => {
  it("coverage_gap on every project; a loss after a good month is at_risk", async () => {
    const owner = await seedOwner(api);
    const business = await post(owner, "/v1/businesses", { name: "Manual", currency: "EUR" });
    const loss = (await post(owner, `/v1/businesses/${business.id}/projects`, { name: "Loss" })).id;
    const steady = (await post(owner, `/v1/businesses/${business.id}/projects`, { name: "Steady" })).id;
    await post(owner, "/v1/revenues", { project_id: loss, amount_minor: 10_000, currency: "EUR", occurred_on: "2026-04-01" });
    await post(owner, "/v1/expenses", { project_id: loss, amount_minor: 500, currency: "EUR", occurred_on: "2026-05-01" });
    await post(owner, "/v1/revenues", { project_id: steady, amount_minor: 900, currency: "EUR", occurred_on: "2026-05-01" });
    const body = await health({ ...owner, businessId: business.id });
    expect(body.coverage).toEqual({ overall: "incomplete", revenue: "incomplete", expenses: "incomplete" });
    const [lossRow, steadyRow] = body.data.projects;
    // −40 negative margin, −20 drop from 10 000, −20 coverage gap: 20, at_risk.
    expect(lossRow).toMatchObject({
      name: "Loss",
      margin_minor: -500,
      previous_margin_minor: 10_000,
      score: 20,
      status: "at_risk",
    });
    expect(lossRow.reasons.map((r: any) => r.code)).toEqual(["negative_margin", "margin_drop", "coverage_gap"]);
    expect(lossRow.reasons[2].detail).toMatch(/revenue data is incomplete and expenses data is incomplete/);
    expect(steadyRow).toMatchObject({ name: "Steady", score: 80, status: "healthy" });
  });

  it("a business without projects answers the business-level row alone", async () => {
    const owner = await seedOwner(api);
    const business = await post(owner, "/v1/businesses", { name: "Solo", currency: "EUR" });
    const body = await health({ ...owner, businessId: business.id });
    expect(body.coverage).toEqual({ overall: "missing", revenue: "missing", expenses: "missing" });
    expect(body.data.projects).toEqual([
      expect.objectContaining({ project_id: null, revenue_minor: 0, margin_minor: 0, margin_ratio: null, score: null }),
    ]);
  });
});

describe("access", () => {
  it("an agent without finances:observe on the business is 403 scope_denied (audited), with it 200; tenants 404", async () => {
    const alice = await seedOwner(api);
    const business = await post(alice, "/v1/businesses", { name: "Alice's", currency: "EUR" });
    const bob = await seedOwner(api);
    const theirs = await post(bob, "/v1/businesses", { name: "Bob's", currency: "EUR" });

    expectApiError(await api.call("GET", path(theirs.id), { token: alice.token }), 404, "not_found");
    expectApiError(await api.call("GET", path(randomUUID()), { token: alice.token }), 404, "not_found");
    expectApiError(await api.call("GET", path(business.id), { token: null }), 401, "unauthenticated");

    const reader = await seedAgent(api, { grants: [businessGrant(business.id, { scope: "finances:observe" })] }, alice.token);
    expect((await api.call("GET", path(business.id), { token: reader.token })).status).toBe(200);
    const agent = await seedAgent(api, { grants: [businessGrant(business.id)] }, alice.token);
    expectApiError(await api.call("GET", path(business.id), { token: agent.token }), 403, "scope_denied");
    const denial = await api.db.auditEntry.findFirst({ where: { actorId: agent.id, action: "access.denied" } });
    expect(denial?.details).toMatchObject({ code: "scope_denied", required_scope: "finances:observe" });
  });
});
