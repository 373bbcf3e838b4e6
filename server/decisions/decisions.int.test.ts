// Agent decisions and their outcomes (pinned-wave2 §3.2) on both engines, with real agent
// tokens: every rule of POST /v1/agent-decisions (owner vs agent, the body, grant coverage
// project ⊂ business ⊂ *, 201 whatever the level, no limit counted), the agent_action event and
// the audit entry written with it; reviews on a hand-computed ledger (baseline, actual, delta,
// variance, the verdict at the exact 10 % boundary, pending while the window is open on the
// request's clock, inconclusive without coverage, stored once); the outcomes list's filters,
// period and cursor; access to reviews (own records) and tenant isolation.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { createdData, seedAgent, seedOwner, type TTestGrant } from "../../test/helpers/seed";
import { openOwnerSession } from "../sessions/session-service";
import { fixedClock } from "../shared/clock";

// The ledger is written on 2026-05-08 (today); the 7-day decisions of 2026-05-01 close after it.
const clock = fixedClock("2026-05-08T12:00:00Z");
let api: TTestApi;

type TWorld = {
  ownerId: string;
  token: string;
  /** Atlas: the hand-computed ledger. */
  business: string;
  /** Web, a project of Atlas. */
  project: string;
  /** Empty: no data, so coverage missing. */
  empty: string;
  agents: Record<"business" | "project" | "star" | "personal" | "none" | "limited", { id: string; token: string }>;
};
let w: TWorld;

const grant = (scope: string, resource: string, extra: Partial<TTestGrant> = {}): TTestGrant => ({
  scope,
  resource,
  level: "execute",
  ...extra,
});

async function post(path: string, body: object, token: string) {
  return api.call("POST", path, { token, body });
}

async function seedWorld(): Promise<TWorld> {
  const owner = await api.db.owner.create({
    data: { plan: "business", email: `decisions-${randomUUID()}@example.test`, baseCurrency: "EUR", baseCurrencyConfirmed: true },
  });
  const { token } = await openOwnerSession(api.db, { ownerId: owner.id, channel: "api" });
  const business = createdData(await post("/v1/businesses", { name: "Atlas", currency: "EUR" }, token), "a business").id;
  const empty = createdData(await post("/v1/businesses", { name: "Empty", currency: "EUR" }, token), "a business").id;
  const project = createdData(await post(`/v1/businesses/${business}/projects`, { name: "Web" }, token), "a project").id;
  const agent = (name: string, grants: TTestGrant[]) => seedAgent(api, { name, grants }, token);
  const agents = {
    // `ads` on the business (a decision needs a grant of any scope).
    business: await agent("Business", [grant("ads", `business:${business}`)]),
    // finances:observe at recommend on the project only.
    project: await agent("Project", [grant("finances:observe", `project:${project}`, { level: "recommend" })]),
    star: await agent("Star", [grant("forecast:observe", "*", { level: "recommend" })]),
    personal: await agent("Personal", [grant("finances:observe", "personal")]),
    none: await agent("Nothing", []),
    limited: await agent("Limited", [
      grant("ads", `business:${business}`, {
        daily_limit_minor: 1_00,
        monthly_limit_minor: 1_00,
        currency: "EUR",
        over_limit: "deny",
      }),
    ]),
  };

  // The hand-computed ledger of Atlas (EUR, the base):
  //   revenue  04-24 999.00 (before every baseline of 05-01) | 04-25 300.00, 05-01 200.00 (baseline 500.00)
  //            05-02 240.00, 05-04 50.00 (project Web), 05-08 320.00 (window 05-02..05-08: 610.00)
  //   expenses 04-28 200.00 (baseline) | 05-03 140.00 (window)
  const money = async (kind: "revenues" | "expenses", on: string, amount: number, scope: object = { business_id: business }) =>
    createdData(await post(`/v1/${kind}`, { ...scope, amount_minor: amount, currency: "EUR", occurred_on: on }, token), kind);
  await money("revenues", "2026-04-24", 999_00);
  await money("revenues", "2026-04-25", 300_00);
  await money("revenues", "2026-05-01", 200_00);
  await money("revenues", "2026-05-02", 240_00);
  await money("revenues", "2026-05-04", 50_00, { project_id: project });
  await money("revenues", "2026-05-08", 320_00);
  await money("expenses", "2026-04-28", 200_00);
  await money("expenses", "2026-05-03", 140_00);
  return { ownerId: owner.id, token, business, project, empty, agents };
}

beforeAll(async () => {
  api = await createTestApi({ clock });
  w = await seedWorld();
});
afterAll(async () => api?.close());

/** A decision of the business agent on Atlas, unless `body` says otherwise. */
async function decide(body: object, token = w.agents.business.token) {
  const response = await post(
    "/v1/agent-decisions",
    { business_id: w.business, title: "Raise the budget", reason: "testing", ...body },
    token,
  );
  expect(response.status, response.text).toBe(201);
  return response.body.data;
}

const review = (id: string, token = w.token) => api.call("GET", `/v1/decisions/${id}/review`, { token });

async function reviewed(id: string, token = w.token) {
  const response = await review(id, token);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

const revenue = (delta: number, currency = "EUR") => ({ metric: "revenue", delta_minor: delta, currency, window_days: 7 });

describe("POST /v1/agent-decisions", () => {
  it("an agent records its own decision: 201 with the body's fields, agent_id filled in, id, event_id, created_at", async () => {
    const body = {
      project_id: w.project,
      title: "Pause the Web campaign",
      rationale: "CPC doubled in a week.",
      amount_minor: 12_50,
      currency: "EUR",
      occurred_on: "2026-05-07",
      expected: { metric: "outflow", delta_minor: -30_00, currency: "EUR", window_days: 30 },
      ref: { type: "ad_budget_change", id: "abc-123" },
      reason: "the weekly review",
    };
    const response = await post("/v1/agent-decisions", body, w.agents.project.token);
    expect(response.status, response.text).toBe(201);
    const data = response.body.data;
    const { project_id, ...rest } = body;
    expect(data).toEqual({
      ...rest,
      id: expect.any(String),
      agent_id: w.agents.project.id,
      business_id: w.business,
      project_id,
      personal: false,
      approval_id: null,
      event_id: expect.any(String),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    // Its agent_action event: actual, MANUAL, the agent's, amount as given, the payload pinned.
    const event = await api.call("GET", `/v1/events/${data.event_id}`, { token: w.token });
    expect(event.status, event.text).toBe(200);
    expect(event.body.data).toMatchObject({
      type: "agent_action",
      state: "actual",
      status: "confirmed",
      source_type: "MANUAL",
      amount_minor: 12_50,
      currency: "EUR",
      base_amount_minor: 12_50,
      occurred_on: "2026-05-07",
      project_id: w.project,
      business_id: w.business,
      payload: { decision_id: data.id, title: body.title, expected: body.expected },
    });
    const row = await api.db.financialEvent.findUniqueOrThrow({ where: { id: data.event_id } });
    expect(row.agentId).toBe(w.agents.project.id);

    // One audit entry, the agent's, in the same transaction.
    const audits = await api.db.auditEntry.findMany({ where: { ownerId: w.ownerId, targetId: data.id } });
    expect(audits.map((a) => [a.action, a.actorType, a.actorId])).toEqual([
      ["agent_decision.created", "agent", w.agents.project.id],
    ]);
    expect(await api.db.auditEntry.count({ where: { ownerId: w.ownerId, targetId: data.event_id } })).toBe(0);
  });

  it("defaults: amount 0 in the base currency, occurred_on today (the request's), no expectation; agent_id may be its own", async () => {
    const data = await decide({ agent_id: w.agents.business.id });
    expect(data).toMatchObject({
      amount_minor: 0,
      currency: "EUR",
      occurred_on: "2026-05-08",
      expected: null,
      rationale: null,
      ref: null,
    });
    const event = await api.db.financialEvent.findUniqueOrThrow({ where: { id: data.event_id } });
    expect(event.amountMinor).toBe(0n);
  });

  it("the owner records a decision naming one of their agents: the decision and its event are that agent's, the audit the owner's", async () => {
    const response = await post(
      "/v1/agent-decisions",
      { agent_id: w.agents.none.id, personal: true, title: "Move savings" },
      w.token,
    );
    expect(response.status, response.text).toBe(201);
    expect(response.body.data).toMatchObject({ agent_id: w.agents.none.id, personal: true, business_id: null, reason: null });
    const event = await api.db.financialEvent.findUniqueOrThrow({ where: { id: response.body.data.event_id } });
    expect(event.agentId).toBe(w.agents.none.id);
    const audit = await api.db.auditEntry.findFirstOrThrow({ where: { targetId: response.body.data.id } });
    expect([audit.actorType, audit.actorId, audit.action]).toEqual(["owner", w.ownerId, "agent_decision.created"]);
  });

  it("the owner must name agent_id; another owner's agent or an unknown one is 404", async () => {
    const missing = await post("/v1/agent-decisions", { business_id: w.business, title: "X" }, w.token);
    expectApiError(missing, 400, "validation_error", { issue: "agent_id" });
    const bob = await seedOwner(api);
    const bobs = await seedAgent(api, { name: "Bob's" }, bob.token);
    for (const agentId of [bobs.id, randomUUID()]) {
      const foreign = await post("/v1/agent-decisions", { business_id: w.business, title: "X", agent_id: agentId }, w.token);
      expectApiError(foreign, 404, "not_found");
    }
    // And Bob cannot record one on Alice's business naming Alice's agent.
    const intruder = await post(
      "/v1/agent-decisions",
      { business_id: w.business, title: "X", agent_id: w.agents.business.id },
      bob.token,
    );
    expectApiError(intruder, 404, "not_found");
  });

  it("an agent may not name another agent (400), and needs a reason of 3+ characters (400 missing_reason)", async () => {
    const other = await post(
      "/v1/agent-decisions",
      { business_id: w.business, title: "X", agent_id: w.agents.star.id, reason: "because" },
      w.agents.business.token,
    );
    expectApiError(other, 400, "validation_error", { issue: "agent_id" });
    for (const reason of [undefined, "", "ok", "   "]) {
      const response = await post(
        "/v1/agent-decisions",
        { business_id: w.business, title: "X", reason },
        w.agents.business.token,
      );
      expectApiError(response, 400, "missing_reason", { issue: "reason", what: `reason ${JSON.stringify(reason)}` });
    }
  });

  it("refuses a bad body with every problem named at once, and writes nothing", async () => {
    const before = await api.db.agentDecision.count({ where: { ownerId: w.ownerId } });
    const response = await post(
      "/v1/agent-decisions",
      {
        business_id: w.business,
        personal: true,
        title: "",
        rationale: "r".repeat(4001),
        amount_minor: 5,
        expected: { metric: "mrr", delta_minor: 1.5, currency: "eur", window_days: 14 },
        ref: { type: "t".repeat(65), id: "" },
        approval_id: "not-a-uuid",
        reason: "because",
      },
      w.agents.business.token,
    );
    const error = expectApiError(response, 400, "validation_error");
    const paths = error.details.issues.map((i: { path: string }) => i.path);
    // (The cross-field rules, one scope and currency with an amount, run once the fields are valid.)
    for (const path of [
      "title",
      "rationale",
      "expected.metric",
      "expected.delta_minor",
      "expected.currency",
      "expected.window_days",
      "ref.type",
      "ref.id",
      "approval_id",
    ]) {
      expect(paths, path).toContain(path);
    }
    expectApiError(
      await post(
        "/v1/agent-decisions",
        { business_id: w.business, personal: true, title: "X", reason: "why" },
        w.agents.business.token,
      ),
      400,
      "validation_error",
      { issue: "business_id" },
    );
    expectApiError(
      await post(
        "/v1/agent-decisions",
        { business_id: w.business, title: "X", amount_minor: 5, reason: "why" },
        w.agents.business.token,
      ),
      400,
      "validation_error",
      { issue: "currency" },
    );
    expectApiError(
      await post(
        "/v1/agent-decisions",
        { business_id: w.business, title: "X", amount_minor: -1, currency: "EUR", reason: "why" },
        w.agents.business.token,
      ),
      400,
      "validation_error",
      { issue: "amount_minor" },
    );
    expectApiError(
      await post(
        "/v1/agent-decisions",
        { business_id: w.business, title: "t".repeat(201), reason: "why" },
        w.agents.business.token,
      ),
      400,
      "validation_error",
      { issue: "title" },
    );
    // occurred_on: not after the request's today in the owner's timezone.
    expectApiError(
      await post(
        "/v1/agent-decisions",
        { business_id: w.business, title: "X", occurred_on: "2026-05-09", reason: "why" },
        w.agents.business.token,
      ),
      400,
      "validation_error",
      { issue: "occurred_on" },
    );
    expect(await api.db.agentDecision.count({ where: { ownerId: w.ownerId } })).toBe(before);
  });

  it("needs an Idempotency-Key, and replays the first answer for the same key", async () => {
    const body = { business_id: w.business, title: "Once", reason: "replay test" };
    const none = await api.call("POST", "/v1/agent-decisions", { token: w.agents.business.token, body, idempotencyKey: null });
    expectApiError(none, 400, "missing_idempotency_key");
    const key = randomUUID();
    const first = await api.call("POST", "/v1/agent-decisions", { token: w.agents.business.token, body, idempotencyKey: key });
    const again = await api.call("POST", "/v1/agent-decisions", { token: w.agents.business.token, body, idempotencyKey: key });
    expect(first.status, first.text).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await api.db.agentDecision.count({ where: { ownerId: w.ownerId, title: "Once" } })).toBe(1);
  });

  it("approval_id must be an approval of the owner's", async () => {
    const approval = createdData(
      await post(
        "/v1/data-requests",
        { action: "provide_data", description: "statements", reason: "to review" },
        w.agents.business.token,
      ),
      "a data request",
    ).approval;
    const data = await decide({ approval_id: approval.id });
    expect(data.approval_id).toBe(approval.id);
    expectApiError(
      await post(
        "/v1/agent-decisions",
        { business_id: w.business, title: "X", approval_id: randomUUID(), reason: "why" },
        w.agents.business.token,
      ),
      404,
      "not_found",
    );
  });

  it("a scope that is unknown or another owner's is 404, for agents and the owner alike", async () => {
    const bob = await seedOwner(api);
    const theirs = createdData(await post("/v1/businesses", { name: "Theirs", currency: "EUR" }, bob.token), "a business").id;
    for (const scope of [{ business_id: theirs }, { business_id: randomUUID() }, { project_id: randomUUID() }]) {
      expectApiError(
        await post("/v1/agent-decisions", { ...scope, title: "X", reason: "why" }, w.agents.star.token),
        404,
        "not_found",
      );
      expectApiError(
        await post("/v1/agent-decisions", { ...scope, title: "X", agent_id: w.agents.star.id }, w.token),
        404,
        "not_found",
      );
    }
  });

  it("grant coverage: project ⊂ business ⊂ *, personal ⊂ *; any scope and level will do; otherwise 403 scope_denied, audited", async () => {
    const cases: Array<[keyof TWorld["agents"], object, boolean]> = [
      ["project", { project_id: w.project }, true],
      ["project", { business_id: w.business }, false],
      ["project", { personal: true }, false],
      ["business", { business_id: w.business }, true],
      ["business", { project_id: w.project }, true],
      ["business", { business_id: w.empty }, false],
      ["business", { personal: true }, false],
      ["star", { business_id: w.empty }, true],
      ["star", { project_id: w.project }, true],
      ["star", { personal: true }, true],
      ["personal", { personal: true }, true],
      ["personal", { business_id: w.business }, false],
      ["none", { business_id: w.business }, false],
    ];
    for (const [agent, scope, allowed] of cases) {
      const what = `${agent} on ${JSON.stringify(scope)}`;
      const response = await post(
        "/v1/agent-decisions",
        { ...scope, title: "Covered?", reason: "coverage" },
        w.agents[agent].token,
      );
      if (allowed) {
        expect(response.status, `${what}: ${response.text}`).toBe(201);
        continue;
      }
      const resource =
        "project_id" in scope
          ? `project:${scope.project_id}`
          : "business_id" in scope
            ? `business:${scope.business_id}`
            : "personal";
      expectApiError(response, 403, "scope_denied", { details: { required_scope: "any", resource }, what });
      const denial = await api.db.auditEntry.findFirst({
        where: { ownerId: w.ownerId, action: "access.denied", actorId: w.agents[agent].id },
        orderBy: { createdAt: "desc" },
      });
      expect(denial?.details, what).toMatchObject({
        code: "scope_denied",
        required_scope: "any",
        resource,
        operation: "decisions.create",
      });
    }
  });

  it("is never held and counts against no limit, whatever the amount", async () => {
    const approvalsBefore = await api.db.approval.count({ where: { ownerId: w.ownerId } });
    const data = await decide({ amount_minor: 1_000_00, currency: "EUR" }, w.agents.limited.token);
    expect(data.amount_minor).toBe(1_000_00);
    const grants = await api.db.agentGrant.findMany({ where: { agentId: w.agents.limited.id }, select: { id: true } });
    expect(await api.db.agentLimitUsage.count({ where: { grantId: { in: grants.map((g) => g.id) } } })).toBe(0);
    expect(await api.db.approval.count({ where: { ownerId: w.ownerId } })).toBe(approvalsBefore);
  });

  it("agent_action events count in no summary", async () => {
    const summary = async () =>
      (await api.call("GET", `/v1/businesses/${w.business}/financial-summary?from=2026-04-01&to=2026-05-08`, { token: w.token }))
        .body.data;
    const before = await summary();
    await decide({ amount_minor: 77_00, currency: "EUR", occurred_on: "2026-05-02" });
    const after = await summary();
    expect(after.net_minor).toBe(before.net_minor);
    // K4 (pinned-wave3 §1.4): nor in its types or its count.
    expect(after.events_counted).toBe(before.events_counted);
    expect(after.by_type).toEqual(before.by_type);
    expect(after.by_type.map((row: { type: string }) => row.type)).not.toContain("agent_action");
  });
});

describe("outcomes on a hand-computed ledger", () => {
  // All on Atlas, decided on 05-01: revenue baseline [04-25, 05-01] = 500.00, window [05-02, 05-08]
  // = 610.00 (the project's 50.00 included), delta 110.00. Expenses: baseline 200.00, window 140.00.
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    clock.set("2026-05-08T12:00:00Z");
    const on = { occurred_on: "2026-05-01" };
    ids.boundary = (await decide({ ...on, title: "Exactly 10 %", expected: revenue(100_00) })).id;
    ids.justBetter = (await decide({ ...on, title: "Just better", expected: revenue(99_99) })).id;
    ids.belowEdge = (await decide({ ...on, title: "Within below", expected: revenue(122_22) })).id;
    ids.justWorse = (await decide({ ...on, title: "Just worse", expected: revenue(122_23) })).id;
    // The test rates (FX_SOURCE mock): 1 EUR = 1.0842 USD, so USD 108.42 expected is EUR 100.00.
    ids.usd = (await decide({ ...on, title: "In dollars", expected: revenue(108_42, "USD") })).id;
    ids.cutBetter = (
      await decide({
        ...on,
        title: "Cut costs",
        expected: { metric: "outflow", delta_minor: -50_00, currency: "EUR", window_days: 7 },
      })
    ).id;
    ids.cutWorse = (
      await decide({
        ...on,
        title: "Cut more",
        expected: { metric: "outflow", delta_minor: -70_00, currency: "EUR", window_days: 7 },
      })
    ).id;
    ids.projectZero = (
      await decide({
        ...on,
        business_id: undefined,
        project_id: w.project,
        title: "Web outflow flat",
        expected: { metric: "outflow", delta_minor: 0, currency: "EUR", window_days: 7 },
      })
    ).id;
    ids.projectRevenue = (
      await decide({ ...on, business_id: undefined, project_id: w.project, title: "Web revenue", expected: revenue(50_00) })
    ).id;
    ids.ads = (
      await decide({ ...on, title: "Ads", expected: { metric: "ad_spend", delta_minor: 10_00, currency: "EUR", window_days: 7 } })
    ).id;
    ids.empty = (await decide({ ...on, business_id: w.empty, title: "Empty", expected: revenue(1_00) }, w.agents.star.token)).id;
    // No expectation: net over 30 days, window [04-02, 05-01], baseline [03-03, 04-01].
    ids.net = (await decide({ occurred_on: "2026-04-01", title: "Net by default" })).id;
  });

  it("pending while the window is open (window.to ≥ today), with the figures so far; nothing stored", async () => {
    const data = await reviewed(ids.boundary!);
    expect(data).toEqual({
      decision_id: ids.boundary,
      agent_id: w.agents.business.id,
      business_id: w.business,
      project_id: null,
      personal: false,
      title: "Exactly 10 %",
      occurred_on: "2026-05-01",
      status: "pending",
      metric: "revenue",
      window: { from: "2026-05-02", to: "2026-05-08" },
      baseline_minor: 500_00,
      actual_minor: 610_00,
      delta_minor: 110_00,
      expected_delta_minor: 100_00,
      variance_minor: 10_00,
      verdict: null,
      coverage: "incomplete",
      measured_at: null,
      base_currency: "EUR",
    });
    expect(await api.db.decisionOutcome.count({ where: { decisionId: ids.boundary } })).toBe(0);
  });

  it("measured the day after the window: the verdict at the exact 10 % boundary and just past it", async () => {
    clock.set("2026-05-09T00:30:00Z");
    const boundary = await reviewed(ids.boundary!);
    expect(boundary).toMatchObject({
      status: "measured",
      baseline_minor: 500_00,
      actual_minor: 610_00,
      delta_minor: 110_00,
      expected_delta_minor: 100_00,
      variance_minor: 10_00,
      verdict: "as_expected",
      measured_at: "2026-05-09T00:30:00.000Z",
    });
    const figures = async (id: string) => {
      const { expected_delta_minor, variance_minor, verdict } = await reviewed(id);
      return { expected_delta_minor, variance_minor, verdict };
    };
    expect(await figures(ids.justBetter!)).toEqual({ expected_delta_minor: 99_99, variance_minor: 10_01, verdict: "better" });
    expect(await figures(ids.belowEdge!)).toEqual({
      expected_delta_minor: 122_22,
      variance_minor: -12_22,
      verdict: "as_expected",
    });
    expect(await figures(ids.justWorse!)).toEqual({ expected_delta_minor: 122_23, variance_minor: -12_23, verdict: "worse" });
    // expected in USD: in the base at today's rate.
    expect(await figures(ids.usd!)).toEqual({ expected_delta_minor: 100_00, variance_minor: 10_00, verdict: "as_expected" });
  });

  it("outflow: lower is better; an expected 0 needs a variance of 0; a project counts its own events only", async () => {
    expect(await reviewed(ids.cutBetter!)).toMatchObject({
      metric: "outflow",
      baseline_minor: 200_00,
      actual_minor: 140_00,
      delta_minor: -60_00,
      expected_delta_minor: -50_00,
      variance_minor: -10_00,
      verdict: "better",
    });
    expect(await reviewed(ids.cutWorse!)).toMatchObject({ delta_minor: -60_00, variance_minor: 10_00, verdict: "worse" });
    expect(await reviewed(ids.projectZero!)).toMatchObject({
      project_id: w.project,
      business_id: w.business,
      baseline_minor: 0,
      actual_minor: 0,
      delta_minor: 0,
      expected_delta_minor: 0,
      variance_minor: 0,
      verdict: "as_expected",
      coverage: "incomplete", // the business's
    });
    expect(await reviewed(ids.projectRevenue!)).toMatchObject({
      baseline_minor: 0,
      actual_minor: 50_00,
      variance_minor: 0,
      verdict: "as_expected",
    });
  });

  it("without an expectation: net over 30 days, no verdict", async () => {
    expect(await reviewed(ids.net!)).toMatchObject({
      status: "measured",
      metric: "net",
      window: { from: "2026-04-02", to: "2026-05-01" },
      baseline_minor: 0,
      // 999.00 + 300.00 + 200.00 revenue − 200.00 expenses
      actual_minor: 1_299_00,
      delta_minor: 1_299_00,
      expected_delta_minor: null,
      variance_minor: null,
      verdict: null,
    });
  });

  it("inconclusive when the metric's coverage is missing (no ads source; a business without data), stored too", async () => {
    expect(await reviewed(ids.ads!)).toMatchObject({
      status: "inconclusive",
      metric: "ad_spend",
      coverage: "missing",
      verdict: null,
      actual_minor: 0,
    });
    expect(await reviewed(ids.empty!, w.agents.star.token)).toMatchObject({
      status: "inconclusive",
      metric: "revenue",
      coverage: "missing",
      verdict: null,
      measured_at: "2026-05-09T00:30:00.000Z",
    });
    expect(
      await api.db.decisionOutcome.count({ where: { decisionId: { in: [ids.ads!, ids.empty!] }, status: "inconclusive" } }),
    ).toBe(2);
  });

  it("stored once: later reads answer the stored outcome though the ledger and the clock moved", async () => {
    const first = await reviewed(ids.boundary!);
    clock.set("2026-05-10T09:00:00Z");
    await post(
      "/v1/revenues",
      { business_id: w.business, amount_minor: 1_000_00, currency: "EUR", occurred_on: "2026-05-05" },
      w.token,
    );
    const second = await reviewed(ids.boundary!);
    expect(second).toEqual(first);
    expect(second.measured_at).toBe("2026-05-09T00:30:00.000Z");
    expect(second.actual_minor).toBe(610_00);
    expect(await api.db.decisionOutcome.count({ where: { decisionId: ids.boundary } })).toBe(1);
  });

  it("concurrent first reads store one outcome and all answer it", async () => {
    clock.set("2026-05-10T09:00:00Z");
    const id = (await decide({ occurred_on: "2026-05-01", title: "Raced", expected: revenue(100_00) })).id;
    const answers = await Promise.all(Array.from({ length: 8 }, () => review(id)));
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const bodies = answers.map((a) => a.body.data);
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(bodies[0]).toMatchObject({ status: "measured", measured_at: "2026-05-10T09:00:00.000Z" });
    expect(await api.db.decisionOutcome.count({ where: { decisionId: id } })).toBe(1);
  });
});

describe("GET /v1/decisions/{id}/review: who may read", () => {
  it("the authoring agent may; another agent of the owner gets 403 scope_denied, audited; another owner 404", async () => {
    const data = await decide({ title: "Mine" });
    expect((await review(data.id, w.agents.business.token)).status).toBe(200);
    const denied = await review(data.id, w.agents.star.token);
    expectApiError(denied, 403, "scope_denied", { details: { required: "own_record", resource: `decision:${data.id}` } });
    const audit = await api.db.auditEntry.findFirst({
      where: { ownerId: w.ownerId, action: "access.denied", actorId: w.agents.star.id },
      orderBy: { createdAt: "desc" },
    });
    expect(audit?.details).toMatchObject({ code: "scope_denied", required: "own_record", operation: "decisions.review" });
    const bob = await seedOwner(api);
    expectApiError(await review(data.id, bob.token), 404, "not_found");
    const bobsAgent = await seedAgent(api, { name: "Bob's", grants: [grant("ads", "*")] }, bob.token);
    expectApiError(await review(data.id, bobsAgent.token), 404, "not_found");
    expectApiError(await review(randomUUID()), 404, "not_found");
    expectApiError(await api.call("GET", "/v1/decisions/nope/review", { token: w.token }), 400, "validation_error", {
      issue: "id",
    });
  });

  it("the agent an owner named reads the decision as its own", async () => {
    const named = createdData(
      await post("/v1/agent-decisions", { agent_id: w.agents.star.id, business_id: w.business, title: "For Star" }, w.token),
      "a decision",
    );
    expect((await review(named.id, w.agents.star.token)).status).toBe(200);
    expectApiError(await review(named.id, w.agents.business.token), 403, "scope_denied");
  });
});

describe("GET /v1/decision-outcomes", () => {
  let alice: { token: string; business: string; project: string; agents: Array<{ id: string; token: string }> };
  const made: Array<{ id: string; agent: number; scope: "business" | "project" | "personal"; on: string }> = [];

  beforeAll(async () => {
    clock.set("2026-05-10T09:00:00Z");
    const owner = await api.db.owner.create({
      data: { plan: "business", email: `list-${randomUUID()}@example.test`, baseCurrency: "EUR" },
    });
    const { token } = await openOwnerSession(api.db, { ownerId: owner.id, channel: "api" });
    const business = createdData(await post("/v1/businesses", { name: "Listed", currency: "EUR" }, token), "a business").id;
    const project = createdData(await post(`/v1/businesses/${business}/projects`, { name: "P" }, token), "a project").id;
    const agents = [
      await seedAgent(api, { name: "A0", grants: [grant("ads", "*")] }, token),
      await seedAgent(api, { name: "A1", grants: [grant("ads", "*")] }, token),
    ];
    alice = { token, business, project, agents };
    const plan: Array<[number, "business" | "project" | "personal", string]> = [
      [0, "business", "2026-05-10"],
      [1, "project", "2026-05-09"],
      [0, "personal", "2026-04-20"],
      [1, "business", "2026-04-11"],
      [0, "project", "2026-04-10"], // before the default period [04-11, 05-10]
      [1, "business", "2025-05-01"],
    ];
    for (const [agent, scope, on] of plan) {
      const where =
        scope === "business" ? { business_id: business } : scope === "project" ? { project_id: project } : { personal: true };
      const response = await post(
        "/v1/agent-decisions",
        { ...where, title: `${scope} ${on}`, occurred_on: on, reason: "listed" },
        agents[agent]!.token,
      );
      expect(response.status, response.text).toBe(201);
      made.push({ id: response.body.data.id, agent, scope, on });
    }
  });

  const list = async (query: string) => {
    const response = await api.call("GET", `/v1/decision-outcomes?${query}`, { token: alice.token });
    expect(response.status, response.text).toBe(200);
    return response.body as {
      data: Array<{ decision_id: string; status: string }>;
      page: { next_cursor: string | null; has_more: boolean };
    };
  };
  const newestFirst = (pick: (m: (typeof made)[number]) => boolean) =>
    made
      .filter(pick)
      .map((m) => m.id)
      .reverse();

  it("default period [today − 29, today] on occurred_on, newest decision first", async () => {
    const { data } = await list("");
    expect(data.map((d) => d.decision_id)).toEqual(newestFirst((m) => m.on >= "2026-04-11"));
  });

  it("filters: business_id (its projects included), project_id, personal, agent_id, from/to", async () => {
    const wide = "from=2025-05-10&to=2026-05-10";
    const ids = async (query: string) => (await list(`${wide}&${query}`)).data.map((d) => d.decision_id);
    expect(await ids(`business_id=${alice.business}`)).toEqual(
      newestFirst((m) => m.scope !== "personal" && m.on >= "2025-05-10"),
    );
    expect(await ids(`project_id=${alice.project}`)).toEqual(newestFirst((m) => m.scope === "project"));
    expect(await ids("personal=true")).toEqual(newestFirst((m) => m.scope === "personal"));
    expect(await ids(`agent_id=${alice.agents[1]!.id}`)).toEqual(newestFirst((m) => m.agent === 1 && m.on >= "2025-05-10"));
    expect((await list("from=2026-04-10&to=2026-04-20")).data.map((d) => d.decision_id)).toEqual(
      newestFirst((m) => m.on >= "2026-04-10" && m.on <= "2026-04-20"),
    );
    expect((await list("from=2025-04-30&to=2025-05-01")).data.map((d) => d.decision_id)).toEqual(
      newestFirst((m) => m.on === "2025-05-01"),
    );
  });

  it("pages with the cursor, every decision once", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof list>> = await list(
        `from=2025-05-10&to=2026-05-10&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((d) => d.decision_id));
      cursor = page.page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst((m) => m.on >= "2025-05-10"));
  });

  it("refuses a bad period, and is the owner's only (an agent: 403 scope_denied)", async () => {
    expectApiError(
      await api.call("GET", "/v1/decision-outcomes?from=2026-05-10&to=2026-05-01", { token: alice.token }),
      400,
      "validation_error",
      { issue: "from" },
    );
    expectApiError(
      await api.call("GET", "/v1/decision-outcomes?from=2025-01-01&to=2026-05-01", { token: alice.token }),
      400,
      "validation_error",
      { issue: "from" },
    );
    expectApiError(await api.call("GET", "/v1/decision-outcomes", { token: alice.agents[0]!.token }), 403, "scope_denied", {
      details: { required: "owner" },
    });
  });

  it("another owner's decisions are never listed", async () => {
    const response = await api.call("GET", "/v1/decision-outcomes?from=2025-05-10&to=2026-05-10&limit=200", { token: w.token });
    expect(response.status).toBe(200);
    for (const m of made) expect(response.text).not.toContain(m.id);
  });
});

describe("GET /v1/openapi.json", () => {
  it("describes the three operations: POST answers 201, the review is experimental, the list is not", async () => {
    const doc = (await api.call("GET", "/v1/openapi.json", { token: null })).body;
    expect(doc.paths["/v1/agent-decisions"].post.responses).toHaveProperty("201");
    expect(doc.paths["/v1/decisions/{id}/review"].get["x-experimental"]).toBe(true);
    expect(doc.paths["/v1/decision-outcomes"].get["x-experimental"]).toBeUndefined();
    expect(doc.components.schemas).toHaveProperty("DecisionOutcome");
  });
});
