// The owner's decisions: approving runs a held write exactly once (also under concurrency),
// rejecting runs nothing, dismissing is for requests; grant_scope requests add the grant.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayUtc } from "../../lib/days";
import { seedAgent, seedBusiness, seedOwner } from "../../test/helpers/seed";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { createFixtureRouter } from "../../test/helpers/fixture-router";
import { expectApiError } from "../../test/helpers/api-error";

let api: TTestApi;
let businessId: string;
let agent: { id: string; token: string };

beforeAll(async () => {
  api = await createTestApi({ router: createFixtureRouter() });
  businessId = (await seedBusiness(api, { name: "Approvals Co" })).id;
  agent = await seedAgent(api, { grants: [{ scope: "ads", resource: `business:${businessId}`, level: "recommend" }] });
});
afterAll(async () => api?.close());

async function heldWrite(name: string, amount = 100): Promise<string> {
  const response = await api.call("POST", "/v1/test/spend", {
    token: agent.token,
    body: { business_id: businessId, name, amount_minor: amount, currency: "EUR", reason: "campaign budget" },
  });
  expect(response.status).toBe(202);
  return response.body.data.approval.id;
}

describe("approving a held write", () => {
  it("runs it once as the agent, records the result, and refuses a second decision", async () => {
    const id = await heldWrite("approved-once");
    const approved = await api.call("POST", `/v1/approvals/${id}/approve`, { body: { decision_note: "ok, go" } });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: "approved", decision_note: "ok, go", decided_at: expect.any(String) });
    expect(approved.body.data.result).toMatchObject({
      status: "succeeded",
      data: { name: "approved-once", business_id: businessId },
    });
    expect(await api.db.project.count({ where: { name: "approved-once" } })).toBe(1);
    const audit = await api.db.auditEntry.findFirst({
      where: { action: "project.created", actorType: "agent", actorId: agent.id },
    });
    expect(audit).not.toBeNull();
    for (const action of ["approve", "reject"]) {
      const again = await api.call("POST", `/v1/approvals/${id}/${action}`, { body: {} });
      expectApiError(again, 409, "state_conflict");
    }
    expect(await api.db.project.count({ where: { name: "approved-once" } })).toBe(1);
  });

  it("runs it exactly once when approved five times at once", async () => {
    const id = await heldWrite("approved-race");
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => api.call("POST", `/v1/approvals/${id}/approve`, { body: {} })),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(4);
    expect(await api.db.project.count({ where: { name: "approved-race" } })).toBe(1);
  });

  it("validates params_override like the original body; a bad one changes nothing", async () => {
    const id = await heldWrite("override-me");
    const bad = await api.call("POST", `/v1/approvals/${id}/approve`, { body: { params_override: { amount_minor: "lots" } } });
    expectApiError(bad, 400, "validation_error", { issue: "amount_minor" });
    expect((await api.call("GET", `/v1/approvals/${id}`)).body.data.status).toBe("pending");
    const good = await api.call("POST", `/v1/approvals/${id}/approve`, { body: { params_override: { name: "overridden" } } });
    expect(good.status).toBe(200);
    expect(good.body.data.params.name).toBe("overridden");
    expect(await api.db.project.count({ where: { name: "overridden" } })).toBe(1);
    expect(await api.db.project.count({ where: { name: "override-me" } })).toBe(0);
  });
});

describe("rejecting and dismissing", () => {
  it("rejects a held write without running it", async () => {
    const id = await heldWrite("rejected");
    const rejected = await api.call("POST", `/v1/approvals/${id}/reject`, { body: { decision_note: "too much" } });
    expect(rejected.body.data).toMatchObject({ status: "rejected", decision_note: "too much" });
    expect(await api.db.project.count({ where: { name: "rejected" } })).toBe(0);
  });

  it("dismisses requests only", async () => {
    const id = await heldWrite("not-dismissable");
    const response = await api.call("POST", `/v1/approvals/${id}/dismiss`, { body: {} });
    expect(response.status).toBe(409);
    const request = await api.call("POST", "/v1/data-requests", {
      token: agent.token,
      body: { action: "provide_data", description: "Last year's invoices", reason: "need them for the forecast" },
    });
    expect(request.status).toBe(202);
    const dismissed = await api.call("POST", `/v1/approvals/${request.body.data.approval.id}/dismiss`, { body: {} });
    expect(dismissed.body.data).toMatchObject({ status: "dismissed", kind: "request", action: "provide_data" });
  });

  it("refuses decisions from an agent", async () => {
    const id = await heldWrite("agent-decides");
    const response = await api.call("POST", `/v1/approvals/${id}/approve`, { token: agent.token, body: {} });
    expectApiError(response, 403, "scope_denied");
  });
});

describe("requests", () => {
  it("data requests from an agent need a reason and become pending requests", async () => {
    const noReason = await api.call("POST", "/v1/data-requests", {
      token: agent.token,
      body: { action: "connect_integration", description: "the ads account" },
    });
    expectApiError(noReason, 400, "missing_reason");
    const response = await api.call("POST", "/v1/data-requests", {
      token: agent.token,
      body: { action: "connect_integration", provider: "social_ads", description: "the ads account", reason: "to read spend" },
    });
    expect(response.status).toBe(202);
    const approval = (await api.call("GET", `/v1/approvals/${response.body.data.approval.id}`)).body.data;
    expect(approval).toMatchObject({
      kind: "request",
      action: "connect_integration",
      agent_id: agent.id,
      params: { provider: "social_ads" },
    });
  });

  it("a permission request adds the grant when approved", async () => {
    const reader = await seedAgent(api);
    expect(
      (
        await api.call("POST", "/v1/data-requests", {
          token: reader.token,
          body: { action: "provide_data", description: "x y z", reason: "abc" },
        })
      ).status,
    ).toBe(202);
    const request = await api.call("POST", "/v1/permission-requests", {
      body: {
        agent_id: reader.id,
        grant: { scope: "ads", resource: `business:${businessId}`, level: "execute" },
        reason: "let it run ads",
      },
    });
    expect(request.status).toBe(202);
    const spendBefore = await api.call("POST", "/v1/test/spend", {
      token: reader.token,
      body: { business_id: businessId, name: "granted-later", amount_minor: 1, currency: "EUR", reason: "try it" },
    });
    expect(spendBefore.status).toBe(403);
    const approved = await api.call("POST", `/v1/approvals/${request.body.data.approval.id}/approve`, { body: {} });
    expect(approved.status).toBe(200);
    const spendAfter = await api.call("POST", "/v1/test/spend", {
      token: reader.token,
      body: { business_id: businessId, name: "granted-later", amount_minor: 1, currency: "EUR", reason: "try it" },
    });
    expect(spendAfter.status).toBe(201);
  });

  it("a permission request for another owner's agent is 404", async () => {
    const other = await seedOwner(api, "perm-other@example.test");
    const theirs = await seedAgent(api, { name: "theirs" }, other.token);
    const response = await api.call("POST", "/v1/permission-requests", {
      body: { agent_id: theirs.id, grant: { scope: "ads", resource: "*", level: "execute" } },
    });
    expect(response.status).toBe(404);
  });
});

describe("approving a permission request with params_override", () => {
  const requestGrant = async (agentId: string) => {
    const response = await api.call("POST", "/v1/permission-requests", {
      body: {
        agent_id: agentId,
        grant: { scope: "ads", resource: `business:${businessId}`, level: "execute", daily_limit_minor: 1000, currency: "EUR" },
        reason: "run the campaign",
      },
    });
    expect(response.status).toBe(202);
    return response.body.data.approval.id as string;
  };
  const grantsOf = async (agentId: string) => (await api.call("GET", `/v1/agents/${agentId}`)).body.data.grants;

  it("grants exactly the overridden grant (lower limit, narrower resource, recommend), as stored", async () => {
    const reader = await seedAgent(api);
    const project = await api.call("POST", `/v1/businesses/${businessId}/projects`, { body: { name: "Narrow" } });
    expect(project.status, project.text).toBe(201);
    const id = await requestGrant(reader.id);
    const approved = await api.call("POST", `/v1/approvals/${id}/approve`, {
      body: {
        params_override: { grant: { level: "recommend", daily_limit_minor: 500, resource: `project:${project.body.data.id}` } },
      },
    });
    expect(approved.status, approved.text).toBe(200);
    const expected = {
      scope: "ads",
      resource: `project:${project.body.data.id}`,
      level: "recommend",
      daily_limit_minor: 500,
      monthly_limit_minor: null,
      currency: "EUR",
      over_limit: "approval",
    };
    expect(await grantsOf(reader.id)).toEqual([expected]);
    expect(approved.body.data.params.grant).toMatchObject({
      scope: "ads",
      resource: expected.resource,
      level: "recommend",
      daily_limit_minor: 500,
    });
    expect(approved.body.data.result).toMatchObject({
      status: "succeeded",
      data: { granted: { level: "recommend", daily_limit_minor: 500 } },
    });
    // The agent's write on the business itself is outside the narrowed grant.
    const spend = await api.call("POST", "/v1/test/spend", {
      token: reader.token,
      body: { business_id: businessId, name: "narrowed-out", amount_minor: 1, currency: "EUR", reason: "try it" },
    });
    expect(spend.status).toBe(403);
    expect(spend.body.error.details).toEqual({ required_scope: "ads", resource: `business:${businessId}` });
  });

  it("refuses an invalid override with 400 validation_error naming the field, storing and granting nothing", async () => {
    const reader = await seedAgent(api);
    const id = await requestGrant(reader.id);
    const before = (await api.call("GET", `/v1/approvals/${id}`)).body.data;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ grant: { level: "admin" } }, "grant.level"],
      [{ grant: { daily_limit_minor: -5 } }, "grant.daily_limit_minor"],
      [{ grant: { currency: null } }, "grant.currency"],
      [{ grant: { resource: "business:5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00" } }, "grant.resource"],
      [{ agent_id: agent.id }, "agent_id"],
      [{ grant: "everything" }, "grant"],
    ];
    for (const [override, field] of cases) {
      const response = await api.call("POST", `/v1/approvals/${id}/approve`, { body: { params_override: override } });
      expectApiError(response, 400, "validation_error", { issue: field, what: JSON.stringify(override) });
    }
    expect((await api.call("GET", `/v1/approvals/${id}`)).body.data).toEqual(before);
    expect(await grantsOf(reader.id)).toEqual([]);
    expect(await grantsOf(agent.id)).toHaveLength(1);
  });
});

describe("approving a connect_integration data request", () => {
  const ask = async (provider?: string) => {
    const response = await api.call("POST", "/v1/data-requests", {
      token: agent.token,
      body: {
        action: "connect_integration",
        ...(provider ? { provider } : {}),
        description: "the account",
        reason: "to read it",
      },
    });
    expect(response.status).toBe(202);
    return response.body.data.approval.id as string;
  };
  const approveIt = async (id: string, params_override?: Record<string, unknown>) => {
    const response = await api.call("POST", `/v1/approvals/${id}/approve`, { body: { params_override } });
    expect(response.status, response.text).toBe(200);
    return response.body.data;
  };

  it("never claims a connection it did not make: the result names the owner's next step", async () => {
    const before = await api.db.integration.count();
    const approved = await approveIt(await ask("billing_a"));
    expect(approved.status).toBe("approved");
    expect(approved.result).toMatchObject({
      status: "action_required",
      data: {
        connected: false,
        provider: "billing_a",
        next_step: {
          method: "POST",
          path: "/v1/integrations/billing_a/connect",
          required: ["business_id", "account_id", "signing_secret"],
        },
      },
    });
    expect(approved.result.data.message).toContain("POST /v1/integrations/billing_a/connect");
    expect(await api.db.integration.count()).toBe(before);
    const audit = await api.db.auditEntry.findFirstOrThrow({ where: { action: "approval.approved", targetId: approved.id } });
    expect(audit.details).toMatchObject({ action: "connect_integration", outcome: "action_required" });

    // Once the owner connected it, approving a request for it says so, with the connection.
    const connected = await api.call("POST", "/v1/integrations/billing_a/connect", {
      body: { business_id: businessId, account_id: "acct_requested", signing_secret: "billing-a-secret-requested" },
    });
    expect(connected.status, connected.text).toBe(201);
    const again = await approveIt(await ask("billing_a"));
    expect(again.result).toMatchObject({
      status: "connected",
      data: { connected: true, provider: "billing_a", integration_ids: [connected.body.data.id] },
    });
  });

  it("names the right step for every kind of provider, and none for one that cannot be connected", async () => {
    const cases: Array<[string | undefined, Record<string, unknown>]> = [
      ["generic", { path: "/v1/integrations/generic/connect", required: ["business_id"] }],
      ["search_ads", { path: "/v1/integrations/search_ads/connect", required: ["business_id", "account_id"] }],
      [undefined, { method: "GET", path: "/v1/integrations/catalog" }],
    ];
    for (const [provider, nextStep] of cases) {
      const approved = await approveIt(await ask(provider));
      expect(approved.result).toMatchObject({ status: "action_required", data: { connected: false, next_step: nextStep } });
    }
    // An override of the request's terms is validated, stored and acted on.
    const overridden = await ask("social_ads");
    const refused = await api.call("POST", `/v1/approvals/${overridden}/approve`, {
      body: { params_override: { agent_id: "x" } },
    });
    expectApiError(refused, 400, "validation_error", { issue: "agent_id" });
    // Every field it cannot take is named, an empty key too (found by the fuzzer).
    const nameless = await api.call("POST", `/v1/approvals/${overridden}/approve`, {
      body: { params_override: { "": "x", agent_id: "x" } },
    });
    expectApiError(nameless, 400, "validation_error", { issue: '""' });
    expect(nameless.body.error.details.issues.map((issue: { path: string }) => issue.path)).toEqual(['""', "agent_id"]);
    const generic = await approveIt(overridden, { provider: "generic" });
    expect(generic.params).toMatchObject({ provider: "generic" });
    expect(generic.result.data.next_step).toMatchObject({ path: "/v1/integrations/generic/connect" });
    for (const provider of ["bank_provider_a", "manual_import", "no_such_provider"]) {
      const approved = await approveIt(await ask(provider));
      expect(approved.result).toMatchObject({ status: "not_connectable", data: { connected: false, next_step: null } });
    }
  });
});

describe("listing", () => {
  it("filters by kind and status and paginates", async () => {
    const writes = await api.call("GET", "/v1/approvals?kind=write&limit=2");
    expect(writes.body.data).toHaveLength(2);
    expect(writes.body.data.every((a: { kind: string }) => a.kind === "write")).toBe(true);
    expect(writes.body.page.has_more).toBe(true);
    const requests = await api.call("GET", "/v1/approvals?kind=request&limit=200");
    expect(requests.body.data.every((a: { kind: string }) => a.kind === "request")).toBe(true);
    const pending = await api.call("GET", "/v1/approvals?status=pending&limit=200");
    expect(pending.body.data.every((a: { status: string }) => a.status === "pending")).toBe(true);
    expect((await api.call("GET", "/v1/approvals?kind=other")).status).toBe(400);
  });
});

describe("audit", () => {
  it("lists every write, denial and decision, filterable by actor, action and time", async () => {
    const all = await api.call("GET", "/v1/audit?limit=200");
    const actions = new Set(all.body.data.map((e: { action: string }) => e.action));
    for (const action of [
      "business.created",
      "agent.created",
      "approval.created",
      "approval.approved",
      "approval.rejected",
      "approval.dismissed",
      "project.created",
    ]) {
      expect(actions).toContain(action);
    }
    const approvals = await api.call("GET", "/v1/audit?action=approval.*&limit=200");
    expect(approvals.body.data.every((e: { action: string }) => e.action.startsWith("approval."))).toBe(true);
    const byAgent = await api.call("GET", `/v1/audit?actor_type=agent&actor_id=${agent.id}&limit=200`);
    expect(byAgent.body.data.length).toBeGreaterThan(0);
    expect(byAgent.body.data.every((e: { actor: { id: string } }) => e.actor.id === agent.id)).toBe(true);
    const entry = all.body.data[0];
    expect(entry).toMatchObject({
      id: expect.any(String),
      actor: { type: expect.any(String) },
      request_id: expect.stringMatching(/^req_/),
      created_at: expect.any(String),
    });
    const future = await api.call("GET", "/v1/audit?from=2999-01-01");
    expect(future.body.data).toEqual([]);
    const today = todayUtc();
    expect((await api.call("GET", `/v1/audit?from=${today}&to=${today}&limit=1`)).body.data).toHaveLength(1);
  });

  it("records the audit entry in the same transaction as the write", async () => {
    const before = await api.db.auditEntry.count({ where: { action: "business.created" } });
    const failed = await api.call("POST", "/v1/businesses", { body: { name: "", currency: "EUR" } });
    expect(failed.status).toBe(400);
    expect(await api.db.auditEntry.count({ where: { action: "business.created" } })).toBe(before);
    const created = await api.call("POST", "/v1/businesses", { body: { name: "Audited", currency: "EUR" } });
    const entry = await api.db.auditEntry.findFirstOrThrow({
      where: { action: "business.created", targetId: created.body.data.id },
    });
    expect(entry.requestId).toBe(created.headers.get("x-request-id"));
  });
});
