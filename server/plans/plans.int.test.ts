// The plan (pinned-wave2 §5.2) on both engines: new owners start on free and the static owner on
// business; every limit of free refuses the create past it (403 plan_limit_exceeded, nothing
// written); every row of the POST /v1/plan table; the upgrade preview; a trial's expiry on the
// request's clock, lazily and by the job (plan.trial_ending, plan.expired), what an expired plan
// still allows (exempt writes, reads, signed deliveries); concurrent creates at the last slot.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../shared/clock";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { signInOwner, stopSharedSmtpSink } from "../../test/helpers/owners";
import { createdData, seedAgent, seedImport, seedOwner, staticOwner, type TSeedOwner } from "../../test/helpers/seed";
import { nowSeconds, serviceHeaders } from "../../test/helpers/webhook-signing";
import { postDelivery } from "../../test/helpers/webhooks";
import { JOBS } from "../jobs/registry";
import { PLAN_LIMITS } from "./plan-limits";
import { runPlanExpiry } from "./plan-service";

const DAY = 24 * 60 * 60 * 1000;
// The wall clock's instant: events' created_at (the database's now()) falls in the request's UTC month.
const clock = fixedClock(new Date());
let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi({ clock });
});
afterAll(async () => {
  await stopSharedSmtpSink();
  await api?.close();
});
beforeEach(() => clock.set(new Date()));

const call = (method: string, path: string, owner: TSeedOwner, body?: object) =>
  api.call(method, path, { token: owner.token, ...(body === undefined ? {} : { body }) });
const freeOwner = () => seedOwner(api, undefined, { plan: "free" });

async function business(owner: TSeedOwner, name = `B ${randomUUID().slice(0, 8)}`): Promise<string> {
  return createdData(await call("POST", "/v1/businesses", owner, { name, currency: "EUR" }), "a business").id;
}

async function plan(owner: TSeedOwner) {
  const response = await call("GET", "/v1/plan", owner);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

function expectLimit(response: Awaited<ReturnType<TTestApi["call"]>>, limit: string, used: number, allowed: number) {
  expectApiError(response, 403, "plan_limit_exceeded", { details: { limit, used, allowed, plan: "free" } });
}

/** Copies one of the owner's rows `times` times (fresh ids), straight in the database (generated columns fill themselves). */
async function copyRow(table: string, id: string, times: number, overrides: Record<string, string> = {}): Promise<void> {
  const columns = (
    await api.db.$queryRawUnsafe<Array<{ column_name: string }>>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema() AND is_generated = 'NEVER'
       ORDER BY ordinal_position`,
      table,
    )
  ).map((row) => row.column_name);
  const values = columns.map((column) => (column === "id" ? "gen_random_uuid()" : (overrides[column] ?? `"${column}"`)));
  await api.db.$executeRawUnsafe(
    `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(", ")})
     SELECT ${values.join(", ")} FROM ${table}, generate_series(1, ${times}) WHERE id = $1::uuid`,
    id,
  );
}

describe("who starts on which plan", () => {
  it("a new owner (magic link) is on free, active; the static owner on business; GET /v1/plan says so", async () => {
    const alice = await signInOwner(api, `plan-new-${randomUUID()}@example.test`);
    const me = await api.call("GET", "/v1/me", { token: alice.token });
    expect(me.body.data).toMatchObject({ plan: "free", plan_status: "active" });
    const data = await plan({ ownerId: alice.ownerId, token: alice.token });
    expect(data).toEqual({
      plan: "free",
      plan_status: "active",
      trial_ends_at: null,
      trial_used: false,
      limits: PLAN_LIMITS.free,
      usage: { businesses: 0, projects: 0, agents: 0, integrations: 0, events_per_month: 0, imports_per_month: 0 },
      available_plans: [
        { plan: "free", name: "Free", limits: PLAN_LIMITS.free, trial_days: 14, price: null },
        { plan: "pro", name: "Pro", limits: PLAN_LIMITS.pro, trial_days: 14, price: null },
        { plan: "business", name: "Business", limits: PLAN_LIMITS.business, trial_days: 14, price: null },
      ],
      billing: { checkout: "not_available" },
    });
    const operator = await plan(await staticOwner(api));
    expect(operator).toMatchObject({ plan: "business", plan_status: "active", limits: { businesses: null } });
  });

  it("an agent may not read or change the plan (owner only)", async () => {
    const owner = await seedOwner(api);
    const agent = await seedAgent(api, { grants: [{ scope: "finances:observe", resource: "*", level: "execute" }] }, owner.token);
    expectApiError(await api.call("GET", "/v1/plan", { token: agent.token }), 403, "scope_denied");
    expectApiError(await api.call("POST", "/v1/plan", { token: agent.token, body: { plan: "pro" } }), 403, "scope_denied");
  });
});

describe("the free plan's limits", () => {
  it("businesses: the 4th is refused with the details, nothing written; usage counts them", async () => {
    const owner = await freeOwner();
    for (let i = 0; i < 3; i++) await business(owner);
    const fourth = await call("POST", "/v1/businesses", owner, { name: "Fourth", currency: "EUR" });
    expectLimit(fourth, "businesses", 3, 3);
    expect(await api.db.business.count({ where: { ownerId: owner.ownerId } })).toBe(3);
    expect((await plan(owner)).usage.businesses).toBe(3);
    // Validation answers first (pinned §1.3): a bad body at the limit is 400, not 403.
    expectApiError(await call("POST", "/v1/businesses", owner, { name: "", currency: "EUR" }), 400, "validation_error");
  });

  it("projects: 10 across the businesses, the 11th refused; an unknown business is still 404", async () => {
    const owner = await freeOwner();
    const [a, b] = [await business(owner), await business(owner)];
    for (let i = 0; i < 10; i++) {
      const response = await call("POST", `/v1/businesses/${i < 5 ? a : b}/projects`, owner, { name: `P${i}` });
      expect(response.status, response.text).toBe(201);
    }
    expectLimit(await call("POST", `/v1/businesses/${a}/projects`, owner, { name: "P10" }), "projects", 10, 10);
    expectApiError(await call("POST", `/v1/businesses/${randomUUID()}/projects`, owner, { name: "X" }), 404, "not_found");
    expect(await api.db.project.count({ where: { ownerId: owner.ownerId } })).toBe(10);
  });

  it("agents: 2 not revoked; a revoked one frees its slot", async () => {
    const owner = await freeOwner();
    const first = await seedAgent(api, { name: "One" }, owner.token);
    await seedAgent(api, { name: "Two" }, owner.token);
    expectLimit(await call("POST", "/v1/agents", owner, { name: "Three" }), "agents", 2, 2);
    expect((await call("POST", `/v1/agents/${first.id}/revoke`, owner, {})).status).toBeLessThan(300);
    expect((await call("POST", "/v1/agents", owner, { name: "Three" })).status).toBe(201);
  });

  it("integrations: 3 active or pending (generic included, manual_import not counted)", async () => {
    const owner = await freeOwner();
    const b = await business(owner);
    await api.db.integration.create({
      data: { ownerId: owner.ownerId, provider: "manual_import", name: "Statements", businessId: b, status: "active" },
    });
    for (let i = 0; i < 3; i++) {
      const response = await call("POST", "/v1/integrations/generic/connect", owner, { business_id: b, name: `G${i}` });
      expect(response.status, response.text).toBe(201);
    }
    expectLimit(await call("POST", "/v1/integrations/generic/connect", owner, { business_id: b }), "integrations", 3, 3);
    expectLimit(
      await call("POST", "/v1/integrations/payments_a/connect", owner, {
        business_id: b,
        account_id: "acct_1",
        signing_secret: "payments-a-secret-plans-01",
      }),
      "integrations",
      3,
      3,
    );
    expect(await api.db.integration.count({ where: { ownerId: owner.ownerId, provider: { not: "manual_import" } } })).toBe(3);
  });

  it("events_per_month: 1,000 manual events (999 stored, the 1,000th over REST), then every kind of manual create is refused", async () => {
    const owner = await freeOwner();
    const b = await business(owner);
    const body = { business_id: b, amount_minor: 100, currency: "EUR", occurred_on: clock.now().toISOString().slice(0, 10) };
    const firstEvent = createdData(await call("POST", "/v1/expenses", owner, body), "an expense");
    await copyRow("financial_events", firstEvent.id, 998);
    expect((await plan(owner)).usage.events_per_month).toBe(999);
    const last = await call("POST", "/v1/revenues", owner, body);
    expect(last.status, last.text).toBe(201);

    expectLimit(await call("POST", "/v1/expenses", owner, body), "events_per_month", 1000, 1000);
    expectLimit(await call("POST", "/v1/revenues", owner, body), "events_per_month", 1000, 1000);
    expectLimit(
      await call("POST", "/v1/planned-expenses", owner, { ...body, occurred_on: "2099-01-01" }),
      "events_per_month",
      1000,
      1000,
    );
    const recurring = {
      business_id: b,
      name: "Hosting",
      amount_minor: 500,
      currency: "EUR",
      billing_interval: "month",
      next_charge_on: body.occurred_on,
    };
    expectLimit(await call("POST", "/v1/recurring-expenses", owner, recurring), "events_per_month", 1000, 1000);
    const agent = await seedAgent(
      api,
      { name: "Decider", grants: [{ scope: "ads", resource: "*", level: "execute" }] },
      owner.token,
    );
    expectLimit(
      await api.call("POST", "/v1/agent-decisions", {
        token: agent.token,
        body: { business_id: b, title: "Raise the budget", reason: "testing" },
      }),
      "events_per_month",
      1000,
      1000,
    );
    expect(await api.db.financialEvent.count({ where: { ownerId: owner.ownerId } })).toBe(1000);
    expect(await api.db.subscription.count({ where: { ownerId: owner.ownerId } })).toBe(0);
    expect(await api.db.agentDecision.count({ where: { ownerId: owner.ownerId } })).toBe(0);
  });

  it("imports_per_month: the 11th confirm is refused and leaves the preview unconfirmed, no events", async () => {
    const owner = await freeOwner();
    const b = await business(owner);
    const first = await seedImport(api, { business_id: b }, owner.token);
    expect((await call("POST", `/v1/imports/${first.import_id}/confirm`, owner, {})).status).toBe(201);
    await copyRow("imports", first.import_id, 9);
    expect((await plan(owner)).usage.imports_per_month).toBe(10);
    const eventsBefore = await api.db.financialEvent.count({ where: { ownerId: owner.ownerId } });

    const eleventh = await seedImport(
      api,
      { business_id: b, csv: "Date,Amount,Currency,Description\n2026-11-02,-3.00,EUR,Tea\n" },
      owner.token,
    );
    expectLimit(await call("POST", `/v1/imports/${eleventh.import_id}/confirm`, owner, {}), "imports_per_month", 10, 10);
    expect((await api.db.import.findUniqueOrThrow({ where: { id: eleventh.import_id } })).status).toBe("previewed");
    expect(await api.db.financialEvent.count({ where: { ownerId: owner.ownerId } })).toBe(eventsBefore);
  });

  it("imports_per_month: a reverted import still counts (a revert gives no import back)", async () => {
    const owner = await freeOwner();
    const b = await business(owner);
    const first = await seedImport(api, { business_id: b }, owner.token);
    expect((await call("POST", `/v1/imports/${first.import_id}/confirm`, owner, {})).status).toBe(201);
    expect((await call("POST", `/v1/imports/${first.import_id}/revert`, owner, {})).status).toBe(200);
    expect((await plan(owner)).usage.imports_per_month).toBe(1);
  });

  it("ingest is never refused: a signed delivery past the events limit is stored", async () => {
    const owner = await freeOwner();
    const b = await business(owner);
    const hook = createdData(await call("POST", "/v1/integrations/generic/connect", owner, { business_id: b }), "a webhook");
    const expense = createdData(
      await call("POST", "/v1/expenses", owner, { business_id: b, amount_minor: 1, currency: "EUR", occurred_on: "2026-01-02" }),
      "an expense",
    );
    await copyRow("financial_events", expense.id, 999);
    const raw = JSON.stringify({
      events: [
        {
          external_id: "past-limit",
          type: "revenue",
          state: "actual",
          amount_minor: 4200,
          currency: "EUR",
          occurred_on: "2026-01-02",
        },
      ],
    });
    const delivered = await postDelivery(
      api,
      `/v1/webhooks/generic/${hook.integration_id}`,
      raw,
      serviceHeaders(hook.secret, raw, nowSeconds(clock.now())),
    );
    expect(delivered.status, delivered.text).toBeLessThan(300);
    expect(await api.db.financialEvent.count({ where: { ownerId: owner.ownerId, externalId: "past-limit" } })).toBe(1);
  });
});

describe("POST /v1/plan", () => {
  it("walks the table: same → unchanged; free → pro trial; trialing → business keeps the end; → free; trial used → checkout_unavailable", async () => {
    const owner = await freeOwner();
    const now = clock.now();
    const same = await call("POST", "/v1/plan", owner, { plan: "free" });
    expect(same.status, same.text).toBe(200);
    expect(same.body.data).toMatchObject({ plan: "free", plan_status: "active", trial_used: false });

    const trial = await call("POST", "/v1/plan", owner, { plan: "pro" });
    expect(trial.status, trial.text).toBe(200);
    const endsAt = new Date(now.getTime() + 14 * DAY).toISOString();
    expect(trial.body.data).toMatchObject({
      plan: "pro",
      plan_status: "trialing",
      trial_ends_at: endsAt,
      trial_used: true,
      limits: PLAN_LIMITS.pro,
    });

    expect((await call("POST", "/v1/plan", owner, { plan: "pro" })).body.data).toMatchObject({
      plan: "pro",
      trial_ends_at: endsAt,
    });
    const switched = await call("POST", "/v1/plan", owner, { plan: "business" });
    expect(switched.body.data).toMatchObject({ plan: "business", plan_status: "trialing", trial_ends_at: endsAt });

    const down = await call("POST", "/v1/plan", owner, { plan: "free" });
    expect(down.body.data).toMatchObject({ plan: "free", plan_status: "active", trial_ends_at: null, trial_used: true });
    expectApiError(await call("POST", "/v1/plan", owner, { plan: "pro" }), 409, "state_conflict", {
      details: { reason: "checkout_unavailable" },
    });
    expectApiError(await call("POST", "/v1/plan", owner, { plan: "enterprise" }), 400, "validation_error");

    const audit = await api.db.auditEntry.findMany({
      where: { ownerId: owner.ownerId, action: "plan.changed" },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((entry) => entry.details)).toEqual([
      { from: "free", to: "pro", plan_status: "trialing" },
      { from: "pro", to: "business", plan_status: "trialing" },
      { from: "business", to: "free", plan_status: "active" },
    ]);
  });

  it("over the smaller plan's limits: 409 state_conflict with details.exceeded (to free, and trialing business → pro)", async () => {
    const owner = await freeOwner();
    expect((await call("POST", "/v1/plan", owner, { plan: "business" })).body.data.plan_status).toBe("trialing");
    await api.db.business.createMany({
      data: Array.from({ length: 26 }, (_, i) => ({ ownerId: owner.ownerId, name: `Bulk ${i}`, currency: "EUR" })),
    });
    expectApiError(await call("POST", "/v1/plan", owner, { plan: "free" }), 409, "state_conflict", {
      details: { exceeded: [{ limit: "businesses", used: 26, allowed: 3 }] },
    });
    expectApiError(await call("POST", "/v1/plan", owner, { plan: "pro" }), 409, "state_conflict", {
      details: { exceeded: [{ limit: "businesses", used: 26, allowed: 25 }] },
    });
    expect((await plan(owner)).plan).toBe("business");
  });
});

describe("GET /v1/plan/upgrade-preview", () => {
  it("answers the limits before and after, what would be exceeded and whether POST would succeed", async () => {
    const owner = await freeOwner();
    const toPro = await call("GET", "/v1/plan/upgrade-preview?to=pro", owner);
    expect(toPro.status, toPro.text).toBe(200);
    expect(toPro.body.data).toEqual({
      from: "free",
      to: "pro",
      limits_before: PLAN_LIMITS.free,
      limits_after: PLAN_LIMITS.pro,
      usage: { businesses: 0, projects: 0, agents: 0, integrations: 0, events_per_month: 0, imports_per_month: 0 },
      would_exceed: [],
      allowed: true,
      resulting_status: "trialing",
      trial_ends_at: new Date(clock.now().getTime() + 14 * DAY).toISOString(),
      price_change: null,
    });

    const big = await seedOwner(api); // business
    for (let i = 0; i < 4; i++) await business(big);
    const toFree = await call("GET", "/v1/plan/upgrade-preview?to=free", big);
    expect(toFree.body.data).toMatchObject({
      from: "business",
      to: "free",
      would_exceed: [{ limit: "businesses", used: 4, allowed: 3 }],
      allowed: false,
      resulting_status: null,
      trial_ends_at: null,
    });
    expectApiError(await call("GET", "/v1/plan/upgrade-preview?to=gold", owner), 400, "validation_error");
    expectApiError(await call("GET", "/v1/plan/upgrade-preview", owner), 400, "validation_error");
    expect((await plan(owner)).plan).toBe("free"); // nothing written
  });
});

describe("a trial's end", () => {
  async function trialOwner() {
    const owner = await freeOwner();
    const b = await business(owner);
    const hook = createdData(await call("POST", "/v1/integrations/generic/connect", owner, { business_id: b }), "a webhook");
    const agent = await seedAgent(api, { name: "Bot", grants: [{ scope: "ads", resource: "*", level: "execute" }] }, owner.token);
    const started = await call("POST", "/v1/plan", owner, { plan: "pro" });
    expect(started.status, started.text).toBe(200);
    return { owner, b, hook, agent, endsAt: started.body.data.trial_ends_at as string };
  }

  async function notices(owner: TSeedOwner, code: string) {
    const response = await call("GET", `/v1/notifications?code=${code}&limit=100`, owner);
    expect(response.status, response.text).toBe(200);
    return response.body.data as Array<Record<string, any>>;
  }

  it("lazily: past trial_ends_at writes answer 403 plan_expired; reads, exempt writes and deliveries go on", async () => {
    const { owner, b, hook, agent, endsAt } = await trialOwner();
    clock.set(new Date(new Date(endsAt).getTime() + 1000));

    expect((await api.call("GET", "/v1/me", { token: owner.token })).body.data.plan_status).toBe("expired");
    const expired = { details: { plan: "pro", expired_at: endsAt } };
    expectApiError(await call("POST", "/v1/businesses", owner, { name: "Late", currency: "EUR" }), 403, "plan_expired", expired);
    expectApiError(await call("PATCH", `/v1/businesses/${b}`, owner, { name: "Renamed" }), 403, "plan_expired", expired);
    const upload = await seedImport(api, { business_id: b }, owner.token).catch((error: Error) => error);
    expect(String(upload)).toMatch(/403.*plan_expired/);
    // Its agents too.
    expectApiError(
      await api.call("POST", "/v1/data-requests", {
        token: agent.token,
        body: { action: "provide_data", description: "x", reason: "y" },
      }),
      403,
      "plan_expired",
    );

    // Reads.
    expect((await call("GET", "/v1/businesses", owner)).status).toBe(200);
    const stored = await plan(owner);
    expect(stored).toMatchObject({ plan: "pro", plan_status: "expired", trial_ends_at: endsAt });
    expect((await api.db.owner.findUniqueOrThrow({ where: { id: owner.ownerId } })).planStatus).toBe("expired");
    const [notice, ...more] = await notices(owner, "plan.expired");
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ severity: "critical", ref: null, title: "Your Pro trial has ended" });
    expect(
      await api.db.auditEntry.count({ where: { ownerId: owner.ownerId, action: "plan.expired", actorType: "system" } }),
    ).toBe(1);

    // The exceptions.
    const ok = async (method: string, path: string, body: object, token = owner.token) => {
      const response = await api.call(method, path, { token, body });
      expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
    };
    await ok("PATCH", "/v1/me", { name: "Still me" });
    await ok("PATCH", `/v1/notifications/${notice!.id}`, { read: true });
    await ok("POST", "/v1/notifications/read-all", {});
    await ok("PATCH", "/v1/me/notification-preferences", { muted_codes: ["daily_brief.ready"] });
    await ok("POST", "/v1/me/sessions/revoke-others", {});
    await ok("POST", "/v1/goal-proposals", { business_id: b });
    await ok("POST", `/v1/agents/${agent.id}/revoke`, {});

    // Signed deliveries (ingest) continue.
    const raw = JSON.stringify({
      events: [
        {
          external_id: "after-expiry",
          type: "revenue",
          state: "actual",
          amount_minor: 4200,
          currency: "EUR",
          occurred_on: "2026-01-02",
        },
      ],
    });
    // (Signatures are checked against the wall clock.)
    const delivered = await postDelivery(
      api,
      `/v1/webhooks/generic/${hook.integration_id}`,
      raw,
      serviceHeaders(hook.secret, raw, nowSeconds()),
    );
    expect(delivered.status, delivered.text).toBeLessThan(300);

    // The way out: free (its usage fits), then writes work again.
    const back = await call("POST", "/v1/plan", owner, { plan: "free" });
    expect(back.body.data).toMatchObject({ plan: "free", plan_status: "active", trial_used: true });
    expect((await call("POST", "/v1/businesses", owner, { name: "Again", currency: "EUR" })).status).toBe(201);
  });

  it("by the hourly job: plan.trial_ending once 3 days ahead, then plan.expired once; registered among the jobs", async () => {
    expect(JOBS.map((job) => job.name)).toContain("plan-expiry");
    const { owner, endsAt } = await trialOwner();
    const end = new Date(endsAt).getTime();

    await runPlanExpiry(api.db, new Date(end - 4 * DAY));
    expect(await notices(owner, "plan.trial_ending")).toEqual([]);
    await runPlanExpiry(api.db, new Date(end - 3 * DAY + 60_000));
    await runPlanExpiry(api.db, new Date(end - 2 * DAY));
    const ending = await notices(owner, "plan.trial_ending");
    expect(ending).toHaveLength(1);
    expect(ending[0]).toMatchObject({ severity: "warning", title: "Your Pro trial ends in 3 days", ref: null });

    await runPlanExpiry(api.db, new Date(end + 60_000));
    await runPlanExpiry(api.db, new Date(end + 2 * 60_000));
    expect(await notices(owner, "plan.expired")).toHaveLength(1);
    expect((await api.db.owner.findUniqueOrThrow({ where: { id: owner.ownerId } })).planStatus).toBe("expired");
    clock.set(new Date(end + 120_000));
    expect((await plan(owner)).plan_status).toBe("expired");
    expect(await notices(owner, "plan.expired")).toHaveLength(1);
  });
});

describe("concurrent creates at the last slot", () => {
  it("8 parallel POST /v1/businesses with 2 of 3 used: exactly one 201, the others 403, 3 rows", async () => {
    const owner = await freeOwner();
    await business(owner);
    await business(owner);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call("POST", "/v1/businesses", owner, { name: `Race ${i}`, currency: "EUR" })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses, answers.map((answer) => answer.text).join("\n")).toEqual([201, 403, 403, 403, 403, 403, 403, 403]);
    for (const refused of answers.filter((answer) => answer.status === 403)) expectLimit(refused, "businesses", 3, 3);
    expect(await api.db.business.count({ where: { ownerId: owner.ownerId } })).toBe(3);
  });
});
