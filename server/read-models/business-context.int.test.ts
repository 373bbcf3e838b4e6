// The business context (§2.12) over the REST layer on both engines: every figure equals the
// answer of the operation it comes from (financial summary, forecast, free capital), in the
// base and in a display currency; the bounded lists (top subscriptions by monthly cost, the
// next 7 days, the latest alerts, approvals about the business, integrations, agents with
// covering grants); owner only (agents 403, audited), tenants (404), a malformed id (400).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/days";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { businessGrant, createdData, seedAgent, seedIntegration, type TSeedOwner } from "../../test/helpers/seed";
import { ingestEvents } from "../ingest/ingest-service";
import { openOwnerSession } from "../sessions/session-service";
import { fixedClock } from "../shared/clock";
import { monthlyCost } from "./business-context";

const NOW = new Date("2026-05-10T12:00:00Z");
const TODAY = "2026-05-10";
let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi({ clock: fixedClock(NOW) });
});
afterAll(async () => api?.close());

async function newOwner(): Promise<TSeedOwner> {
  const owner = await api.db.owner.create({
    data: { plan: "business", email: `ctx-${randomUUID()}@example.test`, baseCurrency: "EUR", baseCurrencyConfirmed: true },
  });
  const { token } = await openOwnerSession(api.db, { ownerId: owner.id, channel: "api" });
  return { ownerId: owner.id, token };
}

async function post(o: TSeedOwner, path: string, body: unknown) {
  return createdData(await api.call("POST", path, { token: o.token, body }), path);
}

async function get(o: TSeedOwner, path: string) {
  const response = await api.call("GET", path, { token: o.token });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

type TWorld = TSeedOwner & {
  businessId: string;
  otherBusinessId: string;
  projects: { web: string; app: string; old: string };
  integrations: { payments: string; disconnected: string };
  agents: { observer: string; root: string };
  subscriptions: Record<string, string>;
};

async function newWorld(): Promise<TWorld> {
  const owner = await newOwner();
  const business = await post(owner, "/v1/businesses", { name: "Atlas", currency: "EUR" });
  const other = await post(owner, "/v1/businesses", { name: "Other", currency: "EUR" });
  const project = async (name: string) => (await post(owner, `/v1/businesses/${business.id}/projects`, { name })).id as string;
  const projects = { web: await project("Web"), app: await project("App"), old: await project("Old") };
  const archived = await api.call("PATCH", `/v1/projects/${projects.old}`, { token: owner.token, body: { status: "archived" } });
  expect(archived.status, archived.text).toBe(200);

  await post(owner, "/v1/cash-snapshots", {
    business_id: business.id,
    amount_minor: 500_000,
    currency: "EUR",
    as_of: "2026-05-09T09:00:00Z",
    payload: { account_id: "main" },
  });
  await post(owner, "/v1/revenues", {
    business_id: business.id,
    amount_minor: 80_000,
    currency: "EUR",
    occurred_on: "2026-05-01",
  });
  await post(owner, "/v1/expenses", {
    project_id: projects.web,
    amount_minor: 30_000,
    currency: "EUR",
    occurred_on: "2026-04-20",
  });
  await post(owner, "/v1/expenses", {
    business_id: business.id,
    amount_minor: 9_000,
    currency: "EUR",
    occurred_on: "2026-03-01",
  });
  // Commitments: two in the next 7 days (one in, one out), one on day 10.
  await post(owner, "/v1/planned-expenses", {
    business_id: business.id,
    amount_minor: 4_000,
    currency: "EUR",
    occurred_on: addDays(TODAY, 3),
    description: "Accountant",
  });
  await post(owner, "/v1/planned-expenses", {
    business_id: business.id,
    amount_minor: 7_000,
    currency: "EUR",
    occurred_on: addDays(TODAY, 9),
    description: "Insurance",
  });
  const payments = await seedIntegration(api.db, {
    ownerId: owner.ownerId,
    provider: "payments_a",
    businessId: business.id,
    lastSyncAt: new Date("2026-05-10T10:00:00Z"),
  });
  const planned = await ingestEvents(
    api.db,
    owner.ownerId,
    [
      {
        integration_id: payments,
        external_id: "inv_42",
        type: "revenue",
        state: "planned",
        amount_minor: 12_000,
        currency: "EUR",
        occurred_on: addDays(TODAY, 5),
        description: "Invoice 42",
        source_type: "PAYMENTS_API",
      },
    ],
    { now: NOW },
  );
  expect(planned.rejected).toEqual([]);

  // Subscriptions: 12 active ones of every interval (one in USD, one of a project), a cancelled one.
  const subscriptions: Record<string, string> = {};
  const subscription = async (key: string, body: object) => {
    subscriptions[key] = (
      await post(owner, "/v1/subscriptions", {
        business_id: business.id,
        currency: "EUR",
        next_charge_on: addDays(TODAY, 2),
        ...body,
        name: key,
      })
    ).id;
  };
  await subscription("Weekly", { amount_minor: 1_001, billing_interval: "week" }); // 1001 × 52 / 12 = 4337.67 → 4338
  await subscription("Quarterly", { amount_minor: 10_000, billing_interval: "quarter" }); // 3333.33 → 3333
  await subscription("Yearly", { amount_minor: 60_006, billing_interval: "year" }); // 5000.5 → 5000 (half even)
  await subscription("Dollars", { amount_minor: 2_000, currency: "USD", billing_interval: "month" });
  for (let i = 1; i <= 8; i++) await subscription(`Monthly ${i}`, { amount_minor: 100 * i, billing_interval: "month" });
  subscriptions.Project = (
    await post(owner, "/v1/subscriptions", {
      project_id: projects.app,
      name: "Project tool",
      amount_minor: 4_500,
      currency: "EUR",
      billing_interval: "month",
      next_charge_on: "2026-06-20",
    })
  ).id;
  await subscription("Cancelled", { amount_minor: 999_999, billing_interval: "month" });
  const cancel = await api.call("PATCH", `/v1/subscriptions/${subscriptions.Cancelled}`, {
    token: owner.token,
    body: { status: "cancelled" },
  });
  expect(cancel.status, cancel.text).toBe(200);

  const disconnected = await seedIntegration(api.db, {
    ownerId: owner.ownerId,
    provider: "social_ads",
    businessId: business.id,
    status: "disconnected",
  });
  await seedIntegration(api.db, { ownerId: owner.ownerId, provider: "billing_a", businessId: other.id });

  // Alerts: 12 of this business, one of the other.
  for (let i = 0; i < 12; i++) {
    await api.db.alert.create({
      data: {
        ownerId: owner.ownerId,
        businessId: business.id,
        integrationId: payments,
        code: "integration.payment_failed",
        severity: "warning",
        message: `Payment failed #${i}`,
        refType: "integration",
        refId: payments,
        occurredAt: new Date(NOW.getTime() - (12 - i) * 60_000),
        createdAt: new Date(NOW.getTime() - (12 - i) * 60_000),
      },
    });
  }
  await api.db.alert.create({
    data: {
      ownerId: owner.ownerId,
      businessId: other.id,
      code: "integration.payout_failed",
      severity: "critical",
      message: "Other business",
      refType: "integration",
      refId: "x",
      occurredAt: NOW,
      createdAt: NOW,
    },
  });

  // Agents: an observer of the business (and of a project), one with *, one of the other
  // business only, a revoked one.
  const observer = await seedAgent(
    api,
    {
      name: "Observer",
      grants: [
        businessGrant(business.id, { scope: "finances:observe", level: "recommend" }),
        { scope: "ads", resource: `project:${projects.web}`, level: "execute" },
      ],
    },
    owner.token,
  );
  const root = await seedAgent(
    api,
    {
      name: "Root",
      grants: [{ scope: "ads", resource: "*", level: "execute", daily_limit_minor: 5_000, currency: "EUR", over_limit: "deny" }],
    },
    owner.token,
  );
  await seedAgent(api, { name: "Elsewhere", grants: [businessGrant(other.id)] }, owner.token);
  const revoked = await seedAgent(api, { name: "Gone", grants: [businessGrant(business.id)] }, owner.token);
  const revoke = await api.call("POST", `/v1/agents/${revoked.id}/revoke`, { token: owner.token });
  expect(revoke.status, revoke.text).toBe(200);

  // Approvals: pending ones naming the business, a project, an integration or a grant on it
  // (4), one naming the other business, a decided one.
  const approval = (status: string, params: object) =>
    api.db.approval.create({
      data: { ownerId: owner.ownerId, kind: "write", action: "test.write", status, trigger: "level_recommend", params },
    });
  await approval("pending", { business_id: business.id, amount_minor: 100 });
  await approval("pending", { project_id: projects.app });
  await approval("pending", { integration_id: payments });
  await approval("pending", { grant: { scope: "ads", resource: `business:${business.id}` } });
  await approval("pending", { business_id: other.id });
  await approval("approved", { business_id: business.id });

  return {
    ...owner,
    businessId: business.id,
    otherBusinessId: other.id,
    projects,
    integrations: { payments, disconnected },
    agents: { observer: observer.id, root: root.id },
    subscriptions,
  };
}

const path = (id: string, query = "") => `/v1/businesses/${id}/context${query}`;

describe("GET /v1/businesses/{id}/context", () => {
  let w: TWorld;
  beforeAll(async () => {
    w = await newWorld();
  });

  for (const query of ["", "?display_currency=USD"]) {
    it(`holds the same numbers as the operations it reads${query ? " (display currency)" : ""}`, async () => {
      const amp = query ? `&${query.slice(1)}` : "";
      const [context, summary, forecast, free] = await Promise.all([
        get(w, path(w.businessId, query)),
        get(w, `/v1/businesses/${w.businessId}/financial-summary${query}`),
        get(w, `/v1/businesses/${w.businessId}/forecast?horizon=30${amp}`),
        get(w, `/v1/free-capital?business_id=${w.businessId}&horizon_days=30${amp}`),
      ]);
      const data = context.data;
      expect(data.currency).toBe(query ? "USD" : "EUR");
      expect(data.base_currency).toBe("EUR");
      expect(data.summary_30d).toEqual({
        net_revenue_minor: summary.data.net_revenue_minor,
        outflow_minor: summary.data.outflow_minor,
        net_minor: summary.data.net_minor,
      });
      expect(data.forecast_30d_totals).toEqual({
        committed_in_minor: forecast.data.totals.committed_in_minor,
        committed_out_minor: forecast.data.totals.committed_out_minor,
        run_rate_in_minor: forecast.data.totals.run_rate_in_minor,
        run_rate_out_minor: forecast.data.totals.run_rate_out_minor,
        ending_balance_committed_minor: forecast.data.ending_balance_committed_minor,
      });
      expect(data.free_capital_30d_minor).toBe(free.data.free_capital_minor);
      expect(data.runway).toEqual(summary.data.runway);
      expect(data.upcoming_7_days).toEqual(forecast.data.items.filter((i: any) => i.date <= addDays(TODAY, 6)));
      // One FxSummary over every part's conversions: their sources and currencies, the oldest
      // current rate, and the share of the parts' amounts at a current rate (all of it in USD).
      const parts = [summary.fx, forecast.fx, free.fx];
      expect(context.fx.currencies).toEqual(expect.arrayContaining([...new Set(parts.flatMap((p) => p.currencies))]));
      expect(context.fx.display_currency).toBe(summary.fx.display_currency);
      expect(context.fx.as_of <= parts.reduce((oldest, p) => (p.as_of < oldest ? p.as_of : oldest), "9999")).toBe(true);
      if (query) expect(context.fx.estimated_share).toBe(1);
      else expect(context.fx.estimated_share).toBeGreaterThan(0);
      if (!query) {
        // The known ledger in the base: 80 000 in, 30 000 out over the last 30 days.
        expect(data.summary_30d).toEqual({ net_revenue_minor: 80_000, outflow_minor: 30_000, net_minor: 50_000 });
        expect(data.free_capital_30d_minor).not.toBeNull();
      }
    });
  }

  it("lists the business, its active projects, the next 7 days, alerts, approvals, integrations and agents", async () => {
    const body = await get(w, path(w.businessId));
    expect(body.coverage).toMatchObject({ revenue: "accurate", ads: "missing", billing: "missing" });
    expect(Object.keys(body.coverage).sort()).toEqual(["ads", "billing", "cash", "expenses", "overall", "revenue"]);
    const data = body.data;
    expect(data.business).toEqual({ id: w.businessId, name: "Atlas", currency: "EUR" });
    expect(data.projects).toEqual([
      { id: w.projects.app, name: "App" },
      { id: w.projects.web, name: "Web" },
    ]);
    // Today + 3 (Accountant, out), today + 5 (Invoice 42, in), and the subscriptions charging on
    // today + 2 (the weekly one also on today + 9: beyond 7 days); Insurance (day 10) is not listed.
    const names = data.upcoming_7_days.map((i: any) => `${i.date} ${i.name} ${i.direction}`);
    expect(names).toContain(`${addDays(TODAY, 3)} Accountant out`);
    expect(names).toContain(`${addDays(TODAY, 5)} Invoice 42 in`);
    expect(names.filter((n: string) => n.includes("Insurance"))).toEqual([]);
    expect(data.upcoming_7_days.every((i: any) => i.date >= TODAY && i.date <= addDays(TODAY, 6))).toBe(true);

    expect(data.open_alerts).toHaveLength(10);
    expect(data.open_alerts[0].message).toBe("Payment failed #11");
    expect(data.open_alerts.every((a: any) => a.business_id === w.businessId)).toBe(true);
    expect(data.pending_approvals).toBe(4);
    expect(data.integrations).toEqual([
      { id: w.integrations.payments, provider: "payments_a", status: "active", last_sync_at: NOW.toISOString() },
    ]);
    expect(data.agents).toEqual([
      {
        id: w.agents.observer,
        name: "Observer",
        status: "active",
        grants: [
          {
            scope: "finances:observe",
            resource: `business:${w.businessId}`,
            level: "recommend",
            daily_limit_minor: null,
            monthly_limit_minor: null,
            currency: null,
            over_limit: "approval",
          },
        ],
      },
      {
        id: w.agents.root,
        name: "Root",
        status: "active",
        grants: [
          {
            scope: "ads",
            resource: "*",
            level: "execute",
            daily_limit_minor: 5_000,
            monthly_limit_minor: null,
            currency: "EUR",
            over_limit: "deny",
          },
        ],
      },
    ]);
  });

  it("top_subscriptions: the 10 active ones with the highest monthly cost in the base, converted as pinned", async () => {
    const data = (await get(w, path(w.businessId))).data;
    const subscriptions = (await get(w, `/v1/subscriptions?business_id=${w.businessId}&status=active&limit=100`)).data;
    const dollars = subscriptions.find((s: any) => s.name === "Dollars");
    // Yearly 60 006 / 12 = 5000.5 → 5000 (half even); Project tool 4 500; Weekly 1 001 × 52 / 12 =
    // 4337.67 → 4338; Quarterly 10 000 / 3 → 3333; Dollars at today's rate; Monthly 8..1.
    const expected = [
      { name: "Yearly", monthly: 5_000 },
      { name: "Project tool", monthly: 4_500 },
      { name: "Weekly", monthly: 4_338 },
      { name: "Quarterly", monthly: 3_333 },
      { name: "Dollars", monthly: dollars.base_amount_minor },
      ...[8, 7, 6, 5, 4, 3, 2, 1].map((i) => ({ name: `Monthly ${i}`, monthly: 100 * i })),
    ]
      .sort((a, b) => b.monthly - a.monthly || a.name.localeCompare(b.name))
      .slice(0, 10);
    expect(data.top_subscriptions.map((s: any) => ({ name: s.name, monthly: s.monthly_base_minor }))).toEqual(expected);
    expect(data.top_subscriptions[0]).toEqual({
      id: w.subscriptions.Yearly,
      name: "Yearly",
      amount_minor: 60_006,
      currency: "EUR",
      billing_interval: "year",
      monthly_base_minor: 5_000,
    });
    expect(data.top_subscriptions.map((s: any) => s.name)).not.toContain("Cancelled");
  });

  it("a new business: empty lists, no cash, runway unknown", async () => {
    const owner = await newOwner();
    const business = await post(owner, "/v1/businesses", { name: "Empty", currency: "EUR" });
    const body = await get(owner, path(business.id));
    expect(body.coverage.overall).toBe("missing");
    expect(body.data).toMatchObject({
      projects: [],
      summary_30d: { net_revenue_minor: 0, outflow_minor: 0, net_minor: 0 },
      free_capital_30d_minor: null,
      runway: { status: "unknown", days: null, runs_out_on: null },
      top_subscriptions: [],
      upcoming_7_days: [],
      open_alerts: [],
      pending_approvals: 0,
      integrations: [],
      agents: [],
    });
    expect(body.data.forecast_30d_totals.ending_balance_committed_minor).toBeNull();
  });

  it("an agent without finances:observe on it is 403 scope_denied (audited), with it 200; tenants 404; 400 for a bad id", async () => {
    const bob = await newOwner();
    expectApiError(await api.call("GET", path(w.businessId), { token: bob.token }), 404, "not_found");
    expectApiError(await api.call("GET", path(randomUUID()), { token: w.token }), 404, "not_found");
    expectApiError(await api.call("GET", path("nope"), { token: w.token }), 400, "validation_error", { issue: "id" });
    expectApiError(
      await api.call("GET", path(w.businessId, "?display_currency=eur"), { token: w.token }),
      400,
      "validation_error",
      {
        issue: "display_currency",
      },
    );
    // pinned-wave3 §2.1: an agent whose finances:observe grant covers the business reads it.
    const reader = await seedAgent(api, { grants: [businessGrant(w.businessId, { scope: "finances:observe" })] }, w.token);
    expect((await api.call("GET", path(w.businessId), { token: reader.token })).status).toBe(200);
    const agent = await seedAgent(api, { grants: [businessGrant(w.businessId)] }, w.token);
    expectApiError(await api.call("GET", path(w.businessId), { token: agent.token }), 403, "scope_denied");
    expect(await api.db.auditEntry.count({ where: { actorId: agent.id, action: "access.denied" } })).toBe(1);
  });
});

describe("monthlyCost", () => {
  it("week × 52 / 12, quarter / 3, year / 12, half even", () => {
    expect(monthlyCost(1_001n, "week")).toBe(4_338n);
    expect(monthlyCost(3n, "week")).toBe(13n); // 12.99… → 13
    expect(monthlyCost(6n, "year")).toBe(0n); // 0.5 → 0 (even)
    expect(monthlyCost(18n, "year")).toBe(2n); // 1.5 → 2 (even)
    expect(monthlyCost(60_006n, "year")).toBe(5_000n); // 5000.5 → 5000
    expect(monthlyCost(10_000n, "quarter")).toBe(3_333n);
    expect(monthlyCost(5n, "quarter")).toBe(2n); // 1.67 → 2
    expect(monthlyCost(777n, "month")).toBe(777n);
  });
});
