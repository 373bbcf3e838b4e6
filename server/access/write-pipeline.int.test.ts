// An agent's write: scope, reason, resource, level, limits (atomic under concurrency), then
// executed (201) or held for the owner (202) — through a test-only write that spends money
// on a business by creating a project there.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { createFixtureRouter } from "../../test/helpers/fixture-router";
import { businessGrant, seedAgent, seedBusiness, type TTestGrant } from "../../test/helpers/seed";

let api: TTestApi;
let businessId: string;
let otherBusinessId: string;

beforeAll(async () => {
  api = await createTestApi({ router: createFixtureRouter() });
  businessId = (await seedBusiness(api, { name: "Spend Co" })).id;
  otherBusinessId = (await seedBusiness(api, { name: "Other Co" })).id;
});
afterAll(async () => api?.close());

const projectsNamed = (name: string) => api.db.project.count({ where: { name } });
const spend = (token: string, name: string, amount = 100, extra: Record<string, unknown> = {}) =>
  api.call("POST", "/v1/test/spend", {
    token,
    body: { business_id: businessId, name, amount_minor: amount, currency: "EUR", reason: "testing spend", ...extra },
  });
const grant = (overrides: Partial<TTestGrant> = {}): TTestGrant => businessGrant(businessId, overrides);

describe("scope and resource", () => {
  it("refuses an agent without the scope with 403 scope_denied, audited, before reading the body", async () => {
    const agent = await seedAgent(api, { grants: [{ scope: "finances:observe", resource: "*", level: "execute" }] });
    const response = await api.call("POST", "/v1/test/spend", { token: agent.token, body: { nonsense: true } });
    expectApiError(response, 403, "scope_denied");
    expect(await api.db.auditEntry.count({ where: { actorId: agent.id, action: "access.denied" } })).toBe(1);
  });

  it("refuses its owner's business that no grant covers with 403 scope_denied naming scope and resource, audited, claiming no key", async () => {
    const agent = await seedAgent(api, { grants: [grant()] });
    const response = await api.call("POST", "/v1/test/spend", {
      token: agent.token,
      body: { business_id: otherBusinessId, name: "outside", amount_minor: 100, currency: "EUR", reason: "testing spend" },
      idempotencyKey: "outside-1",
    });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({
      code: "scope_denied",
      details: { required_scope: "ads", resource: `business:${otherBusinessId}` },
    });
    expect(await projectsNamed("outside")).toBe(0);
    const denials = await api.db.auditEntry.findMany({ where: { actorId: agent.id, action: "access.denied" } });
    expect(denials.map((d) => d.details)).toEqual([
      {
        operation: "test_spend.create",
        code: "scope_denied",
        required_scope: "ads",
        resource: `business:${otherBusinessId}`,
      },
    ]);
    expect(denials[0]!.requestId).toBe(response.body.error.request_id);
    expect(await api.db.idempotencyRecord.count({ where: { principal: `agent:${agent.id}`, key: "outside-1" } })).toBe(0);
  });

  it("answers 404 for another owner's business and for none at all, alike, auditing nothing", async () => {
    const other = await api.db.owner.create({ data: { email: "spend-other@example.test" } });
    const theirs = await api.db.business.create({ data: { ownerId: other.id, name: "Their Secret Co", currency: "EUR" } });
    // Even a grant on everything of its owner reaches nothing of another owner.
    for (const grants of [[grant()], [grant({ resource: "*" })]]) {
      const agent = await seedAgent(api, { grants });
      for (const id of [theirs.id, randomUUID()]) {
        const response = await spend(agent.token, "foreign", 100, { business_id: id });
        expect(response.status, response.text).toBe(404);
        expect(response.body.error.code).toBe("not_found");
        expect(response.text).not.toContain("Their Secret Co");
        expect(response.body.error.details).toBeUndefined();
      }
      expect(await api.db.auditEntry.count({ where: { actorId: agent.id } })).toBe(0);
    }
    expect(await projectsNamed("foreign")).toBe(0);
    expect(await api.db.project.count({ where: { businessId: theirs.id } })).toBe(0);
  });

  it("needs a reason of at least 3 characters from an agent", async () => {
    const agent = await seedAgent(api, { grants: [grant()] });
    for (const reason of [undefined, "", "ab", "   "]) {
      const response = await spend(agent.token, "no-reason", 100, { reason });
      expectApiError(response, 400, "missing_reason");
    }
    expect(await projectsNamed("no-reason")).toBe(0);
  });

  it("lets the owner write without a reason", async () => {
    const response = await api.call("POST", "/v1/test/spend", {
      body: { business_id: businessId, name: "owner-spend", amount_minor: 1, currency: "EUR" },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.name).toBe("owner-spend");
  });
});

describe("levels and limits", () => {
  it("holds every write of a recommend-level grant for approval (202), writing nothing", async () => {
    const agent = await seedAgent(api, { grants: [grant({ level: "recommend" })] });
    const response = await spend(agent.token, "recommended");
    expect(response.status).toBe(202);
    expect(response.body.data).toEqual({ approval: { id: expect.any(String), status: "pending" } });
    expect(await projectsNamed("recommended")).toBe(0);
    const approval = await api.call("GET", `/v1/approvals/${response.body.data.approval.id}`);
    expect(approval.body.data).toMatchObject({
      kind: "write",
      action: "test_spend.create",
      trigger: "level_recommend",
      agent_id: agent.id,
      reason: "testing spend",
      amount_minor: 100,
      currency: "EUR",
    });
  });

  it("executes within the limits (201) and holds past them (202) when over_limit is approval", async () => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 250, currency: "EUR" })] });
    expect((await spend(agent.token, "within-1", 100)).status).toBe(201);
    expect((await spend(agent.token, "within-2", 150)).status).toBe(201);
    const over = await spend(agent.token, "over-1", 1);
    expect(over.status).toBe(202);
    expect(over.body.data.approval.status).toBe("pending");
    expect(await projectsNamed("over-1")).toBe(0);
  });

  it("refuses past the limit with 403 limit_exceeded, audited, when over_limit is deny", async () => {
    const agent = await seedAgent(api, { grants: [grant({ monthly_limit_minor: 100, currency: "EUR", over_limit: "deny" })] });
    const response = await spend(agent.token, "denied", 101);
    expectApiError(response, 403, "limit_exceeded", { details: { period: "month", limit_minor: 100, currency: "EUR" } });
    expect(await projectsNamed("denied")).toBe(0);
    const audit = await api.db.auditEntry.findFirst({ where: { actorId: agent.id, action: "access.denied" } });
    expect(audit?.details).toMatchObject({ code: "limit_exceeded" });
  });

  it("keeps the denial's audit entry but nothing it counted, and frees the key, inside the write's one transaction", async () => {
    // The day's limit passes, the month's fails: the day's count must not stay behind.
    const agent = await seedAgent(api, {
      grants: [grant({ daily_limit_minor: 900, monthly_limit_minor: 100, currency: "EUR", over_limit: "deny" })],
    });
    const body = { business_id: businessId, name: "partial", amount_minor: 150, currency: "EUR", reason: "testing spend" };
    const denied = await api.call("POST", "/v1/test/spend", { token: agent.token, body, idempotencyKey: "partial-1" });
    expect(denied.status).toBe(403);
    expect(denied.body.error.details).toMatchObject({ period: "month", limit_minor: 100 });
    expect(await api.db.auditEntry.count({ where: { actorId: agent.id, action: "access.denied" } })).toBe(1);
    expect(await api.db.agentLimitUsage.count({ where: { grant: { agentId: agent.id }, usedMinor: { not: 0n } } })).toBe(0);
    expect(await projectsNamed("partial")).toBe(0);

    // A denial is not stored: the corrected request may reuse the key.
    const corrected = await api.call("POST", "/v1/test/spend", {
      token: agent.token,
      body: { ...body, amount_minor: 100 },
      idempotencyKey: "partial-1",
    });
    expect(corrected.status).toBe(201);
    expect(corrected.headers.get("idempotent-replayed")).toBeNull();
    const usage = await api.db.agentLimitUsage.findMany({ where: { grant: { agentId: agent.id } }, orderBy: { period: "asc" } });
    expect(usage.map((u) => [u.period, Number(u.usedMinor)])).toEqual([
      ["day", 100],
      ["month", 100],
    ]);
  });

  it("holds a write in another currency than the limit's rather than guessing a rate", async () => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 10_000, currency: "EUR" })] });
    const response = await spend(agent.token, "in-usd", 1, { currency: "USD" });
    expect(response.status).toBe(202);
  });

  it("counts the limit atomically: 20 concurrent spends of 100 under a limit of 1000 pass exactly 10 times", async () => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 1000, currency: "EUR", over_limit: "deny" })] });
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => spend(agent.token, `race-${i}`, 100)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 403)).toHaveLength(10);
    const written = await api.db.project.count({ where: { name: { startsWith: "race-" } } });
    expect(written).toBe(10);
    const usage = await api.db.agentLimitUsage.findMany({ where: { grant: { agentId: agent.id } } });
    expect(usage.map((u) => Number(u.usedMinor))).toEqual([1000]);
  });

  it("does not count a write that failed", async () => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 100, currency: "EUR", over_limit: "deny" })] });
    const failed = await spend(agent.token, "", 100); // empty name: rejected by validation
    expect(failed.status).toBe(400);
    expect((await spend(agent.token, "after-failure", 100)).status).toBe(201);
  });
});

describe("limits compare exact integers, not text", () => {
  it("refuses 10,000,000 under a daily limit of 9,000", async () => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 9_000, currency: "EUR", over_limit: "deny" })] });
    const response = await spend(agent.token, "text-order-big", 10_000_000);
    expectApiError(response, 403, "limit_exceeded");
    expect(await projectsNamed("text-order-big")).toBe(0);
  });

  it("passes 70 under a daily limit of 2,000 and counts up to exactly 2,000", async () => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 2_000, currency: "EUR", over_limit: "deny" })] });
    // Each write creates a project, and project names are unique per business: one name each.
    expect((await spend(agent.token, "text-order-small-1", 70)).status).toBe(201);
    expect((await spend(agent.token, "text-order-small-2", 930)).status).toBe(201);
    expect((await spend(agent.token, "text-order-small-3", 900)).status).toBe(201);
    expect((await spend(agent.token, "text-order-small-4", 30)).status).toBe(201);
    expect((await spend(agent.token, "text-order-small-5", 71)).status).toBe(403);
    expect((await spend(agent.token, "text-order-small-6", 70)).status).toBe(201);
    const usage = await api.db.agentLimitUsage.findMany({ where: { grant: { agentId: agent.id } } });
    expect(usage.map((u) => Number(u.usedMinor))).toEqual([2_000]);
  });

  it("passes a monthly limit check with amounts whose text order differs from their numeric order", async () => {
    const agent = await seedAgent(api, {
      grants: [grant({ monthly_limit_minor: 10_000, currency: "EUR", over_limit: "deny" })],
    });
    expect((await spend(agent.token, "text-order-month", 9)).status).toBe(201);
    expect((await spend(agent.token, "text-order-month", 20_000)).status).toBe(403);
  });

  it("under concurrency never passes the limit and never wrongly refuses, with amounts of different lengths", async () => {
    // Limit 10,000; amounts 900 and 90 sort above "10000" as text, 5,000 below it. Numerically
    // 10 × 900 + 10 × 90 = 9,900 fits, and one 5,000 on top does not: exactly those 20 pass.
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 10_000, currency: "EUR", over_limit: "deny" })] });
    const amounts = [...Array.from({ length: 10 }, () => 900), ...Array.from({ length: 10 }, () => 90)];
    const responses = await Promise.all(amounts.map((amount, i) => spend(agent.token, `text-race-${i}`, amount)));
    expect(responses.map((r) => r.status)).toEqual(amounts.map(() => 201));
    const big = await Promise.all(Array.from({ length: 4 }, (_, i) => spend(agent.token, `text-race-big-${i}`, 5_000)));
    expect(big.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    // Then 100 fits exactly, concurrently with more 100s that do not.
    const last = await Promise.all(Array.from({ length: 5 }, (_, i) => spend(agent.token, `text-race-last-${i}`, 100)));
    expect(last.filter((r) => r.status === 201)).toHaveLength(1);
    expect(last.filter((r) => r.status === 403)).toHaveLength(4);
    const usage = await api.db.agentLimitUsage.findMany({ where: { grant: { agentId: agent.id } } });
    expect(usage.map((u) => Number(u.usedMinor))).toEqual([10_000]);
    expect(await api.db.project.count({ where: { name: { startsWith: "text-race-" } } })).toBe(21);
  });
});
