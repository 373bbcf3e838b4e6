// Agents end to end: tokens shown once and stored as hashes, rotation, revocation, expiry,
// suspension, IP ranges, grants validation, owner-only operations, isolation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedAgent, seedBusiness, seedOwner } from "../../test/helpers/seed";
import { sha256Hex } from "../auth/tokens";

let api: TTestApi;
let businessId: string;
let othersBusinessId: string;
let othersAgentId: string;

beforeAll(async () => {
  api = await createTestApi();
  businessId = (await seedBusiness(api, { name: "Agents Co" })).id;
  const other = await seedOwner(api, "someone-else@example.test");
  othersBusinessId = (await seedBusiness(api, { name: "Theirs" }, other.token)).id;
  othersAgentId = (await seedAgent(api, { name: "Their agent" }, other.token)).id;
});
afterAll(async () => api?.close());

describe("agent tokens", () => {
  it("shows the token once and stores only its hash", async () => {
    const created = await api.call("POST", "/v1/agents", {
      body: { name: "Ads bot", grants: [{ scope: "ads", resource: `business:${businessId}`, level: "execute" }] },
    });
    expect(created.status).toBe(201);
    const { token, id } = created.body.data;
    expect(token).toMatch(/^agt_[A-Za-z0-9_-]{43}$/);
    expect(created.body.data).toMatchObject({
      name: "Ads bot",
      status: "active",
      grants: [
        { scope: "ads", resource: `business:${businessId}`, level: "execute", over_limit: "approval", daily_limit_minor: null },
      ],
      token_hint: `${token.slice(0, 10)}…`,
    });
    const read = await api.call("GET", `/v1/agents/${id}`);
    expect(read.body.data).not.toHaveProperty("token");
    expect(read.text).not.toContain(token);
    const stored = await api.db.agentToken.findFirstOrThrow({ where: { agentId: id } });
    expect(stored.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    const listed = await api.call("GET", "/v1/agents");
    expect(listed.text).not.toContain(token);
  });

  it("lets an agent read its owner's Me with only id, base_currency, timezone, plan and actor", async () => {
    const agent = await seedAgent(api);
    const me = await api.call("GET", "/v1/me", { token: agent.token });
    expect(me.status).toBe(200);
    expect(Object.keys(me.body.data).sort()).toEqual(["actor", "base_currency", "id", "plan", "timezone"]);
    expect(me.body.data.actor).toEqual({ type: "agent", id: agent.id });
  });

  it("rotates: the old token is revoked at once, the new one works", async () => {
    const agent = await seedAgent(api);
    const rotated = await api.call("POST", `/v1/agents/${agent.id}/rotate-token`, { body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.token).not.toBe(agent.token);
    const old = await api.call("GET", "/v1/me", { token: agent.token });
    expectApiError(old, 401, "token_revoked");
    expect((await api.call("GET", "/v1/me", { token: rotated.body.data.token })).status).toBe(200);
  });

  it("revokes: 401 token_revoked, and a second revoke is 409", async () => {
    const agent = await seedAgent(api);
    expect((await api.call("POST", `/v1/agents/${agent.id}/revoke`)).body.data.status).toBe("revoked");
    const call = await api.call("GET", "/v1/me", { token: agent.token });
    expectApiError(call, 401, "token_revoked");
    const again = await api.call("POST", `/v1/agents/${agent.id}/revoke`);
    expectApiError(again, 409, "state_conflict");
    expect((await api.call("PATCH", `/v1/agents/${agent.id}`, { body: { name: "x" } })).status).toBe(409);
    expect((await api.call("POST", `/v1/agents/${agent.id}/rotate-token`, { body: {} })).status).toBe(409);
  });

  it("answers 401 token_expired past expires_at", async () => {
    const agent = await seedAgent(api);
    await api.db.agentToken.updateMany({ where: { agentId: agent.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const call = await api.call("GET", "/v1/me", { token: agent.token });
    expectApiError(call, 401, "token_expired");
  });

  it("refuses a token_expires_at in the past", async () => {
    const response = await api.call("POST", "/v1/agents", { body: { name: "x", token_expires_at: "2020-01-01T00:00:00Z" } });
    expectApiError(response, 400, "validation_error", { issue: "token_expires_at" });
  });

  it("accepts a token_expires_at up to one year ahead and refuses a later one with 400, on create and rotate", async () => {
    const oneYearAhead = (minutes: number) => {
      const at = new Date();
      at.setUTCFullYear(at.getUTCFullYear() + 1);
      return new Date(at.getTime() + minutes * 60_000).toISOString();
    };
    const agents = await api.db.agent.count();
    for (const token_expires_at of [oneYearAhead(1), oneYearAhead(60 * 24), "2999-01-01T00:00:00Z"]) {
      const response = await api.call("POST", "/v1/agents", { body: { name: "too long", token_expires_at } });
      expectApiError(response, 400, "validation_error", { what: token_expires_at });
      expect(response.body.error.details.issues[0].path).toBe("token_expires_at");
    }
    expect(await api.db.agent.count()).toBe(agents);

    const within = oneYearAhead(-1);
    const created = await api.call("POST", "/v1/agents", { body: { name: "a year", token_expires_at: within } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.token_expires_at).toBe(within);

    const refused = await api.call("POST", `/v1/agents/${created.body.data.id}/rotate-token`, {
      body: { token_expires_at: oneYearAhead(1) },
    });
    expectApiError(refused, 400, "validation_error", { issue: "token_expires_at" });
    // Nothing rotated: the token still works.
    expect((await api.call("GET", "/v1/me", { token: created.body.data.token })).status).toBe(200);
    const rotated = await api.call("POST", `/v1/agents/${created.body.data.id}/rotate-token`, {
      body: { token_expires_at: oneYearAhead(-1) },
    });
    expect(rotated.status, rotated.text).toBe(200);
  });

  it("answers 403 agent_suspended while suspended, and works again after", async () => {
    const agent = await seedAgent(api);
    expect((await api.call("PATCH", `/v1/agents/${agent.id}`, { body: { status: "suspended" } })).body.data.status).toBe(
      "suspended",
    );
    const call = await api.call("GET", "/v1/me", { token: agent.token });
    expectApiError(call, 403, "agent_suspended");
    await api.call("PATCH", `/v1/agents/${agent.id}`, { body: { status: "active" } });
    expect((await api.call("GET", "/v1/me", { token: agent.token })).status).toBe(200);
  });

  it("answers 403 ip_not_allowed from outside the allowed ranges", async () => {
    const agent = await seedAgent(api, { allowed_ip_ranges: ["10.0.0.0/8", "2001:db8::/32"] });
    const inside = await api.call("GET", "/v1/me", { token: agent.token, clientIp: "10.1.2.3" });
    expect(inside.status).toBe(200);
    const v6 = await api.call("GET", "/v1/me", { token: agent.token, clientIp: "2001:db8::1" });
    expect(v6.status).toBe(200);
    const outside = await api.call("GET", "/v1/me", { token: agent.token, clientIp: "192.168.1.1" });
    expectApiError(outside, 403, "ip_not_allowed");
    const unknown = await api.call("GET", "/v1/me", { token: agent.token });
    expect(unknown.status).toBe(403);
  });
});

describe("grants", () => {
  it.each([
    [{ scope: "ads", resource: "business:not-a-uuid", level: "execute" }, "grants.0.resource"],
    [{ scope: "nope", resource: "*", level: "execute" }, "grants.0.scope"],
    [{ scope: "ads", resource: "*", level: "always" }, "grants.0.level"],
    [{ scope: "ads", resource: "*", level: "execute", daily_limit_minor: 100 }, "grants.0.currency"],
    [{ scope: "ads", resource: "*", level: "execute", daily_limit_minor: 1.5, currency: "EUR" }, "grants.0.daily_limit_minor"],
  ])("refuses %j naming %s", async (grant, path) => {
    const before = await api.db.agent.count();
    const response = await api.call("POST", "/v1/agents", { body: { name: "x", grants: [grant] } });
    expectApiError(response, 400, "validation_error", { issue: path });
    expect(await api.db.agent.count()).toBe(before);
  });

  it("refuses a grant on another owner's business as if it did not exist", async () => {
    const response = await api.call("POST", "/v1/agents", {
      body: { name: "x", grants: [{ scope: "ads", resource: `business:${othersBusinessId}`, level: "execute" }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.issues[0]).toEqual({ path: "grants.0.resource", message: "no such business" });
  });

  it("replaces grants with PATCH", async () => {
    const agent = await seedAgent(api, { grants: [{ scope: "ads", resource: "*", level: "recommend" }] });
    const patched = await api.call("PATCH", `/v1/agents/${agent.id}`, {
      body: { grants: [{ scope: "finances:observe", resource: "personal", level: "execute" }] },
    });
    expect(patched.body.data.grants).toEqual([
      expect.objectContaining({ scope: "finances:observe", resource: "personal", level: "execute" }),
    ]);
  });
});

describe("owner-only operations", () => {
  it("refuses an agent with 403 scope_denied and audits the denial", async () => {
    const agent = await seedAgent(api, { grants: [{ scope: "ads", resource: "*", level: "execute" }] });
    for (const [method, path] of [
      ["GET", "/v1/businesses"],
      ["POST", "/v1/businesses"],
      ["GET", "/v1/agents"],
      ["GET", "/v1/approvals"],
      ["PATCH", "/v1/me"],
    ] as const) {
      const response = await api.call(method, path, {
        token: agent.token,
        body: method === "GET" ? undefined : { name: "x", currency: "EUR" },
      });
      expectApiError(response, 403, "scope_denied", { what: `${method} ${path}` });
    }
    const denials = await api.db.auditEntry.findMany({
      where: { actorType: "agent", actorId: agent.id, action: "access.denied" },
    });
    expect(denials).toHaveLength(5);
    expect(denials[0]!.details).toMatchObject({ code: "scope_denied" });
  });
});

describe("isolation", () => {
  it("never shows another owner's agent", async () => {
    expect((await api.call("GET", `/v1/agents/${othersAgentId}`)).status).toBe(404);
    expect((await api.call("PATCH", `/v1/agents/${othersAgentId}`, { body: { name: "x" } })).status).toBe(404);
    expect((await api.call("POST", `/v1/agents/${othersAgentId}/revoke`)).status).toBe(404);
    expect((await api.call("POST", `/v1/agents/${othersAgentId}/rotate-token`, { body: {} })).status).toBe(404);
    const listed = await api.call("GET", "/v1/agents?limit=200");
    expect(listed.body.data.map((a: { id: string }) => a.id)).not.toContain(othersAgentId);
  });
});

describe("tokens in stored replays", () => {
  it("keeps the replay copy of create and rotate encrypted, and replays the same token", async () => {
    const key = `agent-create-${Date.now()}`;
    const first = await api.call("POST", "/v1/agents", { body: { name: "replayed" }, idempotencyKey: key });
    expect(first.status).toBe(201);
    const again = await api.call("POST", "/v1/agents", { body: { name: "replayed" }, idempotencyKey: key });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.token).toBe(first.body.data.token);
    const rotateKey = `agent-rotate-${Date.now()}`;
    const rotated = await api.call("POST", `/v1/agents/${first.body.data.id}/rotate-token`, {
      body: {},
      idempotencyKey: rotateKey,
    });
    expect(rotated.status).toBe(200);
    for (const [k, token] of [
      [key, first.body.data.token],
      [rotateKey, rotated.body.data.token],
    ] as const) {
      const stored = await api.db.idempotencyRecord.findFirstOrThrow({ where: { key: k } });
      expect(stored.responseBody).toMatch(/^enc:v1:/);
      expect(stored.responseBody).not.toContain(token);
    }
  });
});
