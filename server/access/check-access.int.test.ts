// The one access check (check-access.ts) for every kind of route: the REST layer runs the
// declared access of plain routes and procedures alike, before the body is read or an
// Idempotency-Key claimed; the panel's tRPC path runs the same check; an agent reading one
// business is refused by the same rule as a write (403 for its owner's, 404 for anything else).
import { randomUUID } from "node:crypto";
import { createRequestContext } from "../auth/request-context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAgent as createAgent } from "../../test/helpers/seed";
import { callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { createFixtureRouter } from "../../test/helpers/fixture-router";
import type { TAgentActor } from "../auth/actor";
import { createContext } from "../trpc/context";
import { createCallerFactory } from "../trpc/init";

let api: TTestApi;
let businessId: string;
let otherBusinessId: string;

beforeAll(async () => {
  const router = createFixtureRouter();
  api = await createTestApi({ router });
  businessId = (await api.call("POST", "/v1/businesses", { body: { name: "Observed Co", currency: "EUR" } })).body.data.id;
  otherBusinessId = (await api.call("POST", "/v1/businesses", { body: { name: "Unobserved Co", currency: "EUR" } })).body.data.id;
});
afterAll(async () => api?.close());

const STATEMENT = "Date,Amount,Currency,Description\n2026-01-05,-4.20,EUR,Coffee\n";
const upload = (options: { token?: string | null; idempotencyKey?: string }) =>
  callMultipart(api.handler, "/v1/imports", { fields: { business_id: businessId }, file: { bytes: STATEMENT } }, options);
const denialsOf = (agentId: string) =>
  api.db.auditEntry.findMany({ where: { actorId: agentId, action: "access.denied" }, orderBy: { createdAt: "asc" } });
const keyClaimed = (principal: string, key: string) => api.db.idempotencyRecord.count({ where: { principal, key } });

describe("an owner-only plain route (POST /v1/imports)", () => {
  it("refuses an agent with 403 scope_denied, audited, claiming no key: the owner's call with that key is not a replay", async () => {
    const agent = await createAgent(api, { grants: [{ scope: "ads", resource: "*", level: "execute" }] });
    const denied = await upload({ token: agent.token, idempotencyKey: "import-shared-key" });
    expect(denied.status, denied.text).toBe(403);
    expect(denied.body.error).toMatchObject({ code: "scope_denied", details: { required: "owner" } });
    const denials = await denialsOf(agent.id);
    expect(denials.map((d) => d.details)).toEqual([{ operation: "createImport", code: "scope_denied", required: "owner" }]);
    expect(denials[0]!.requestId).toBe(denied.body.error.request_id);
    expect(await keyClaimed(`agent:${agent.id}`, "import-shared-key")).toBe(0);

    // The same agent again with the same key is checked again (nothing was stored to replay).
    const again = await upload({ token: agent.token, idempotencyKey: "import-shared-key" });
    expect(again.status).toBe(403);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(await denialsOf(agent.id)).toHaveLength(2);

    const owner = await upload({ idempotencyKey: "import-shared-key" });
    expect(owner.status, owner.text).toBe(200);
    expect(owner.headers.get("idempotent-replayed")).toBeNull();
    expect(owner.body.data.import_id).toEqual(expect.any(String));
  });

  it("asks for the Idempotency-Key first, then refuses the agent before the body is read (pinned-wave2 §1.3)", async () => {
    const agent = await createAgent(api);
    // authentication → idempotency → access → validation: without a key, 400; with one, 403
    // although the body is not multipart (the handler would answer 415).
    const unkeyed = await api.call("POST", "/v1/imports", { token: agent.token, body: { nonsense: true }, idempotencyKey: null });
    expect(unkeyed.status, unkeyed.text).toBe(400);
    expect(unkeyed.body.error.code).toBe("missing_idempotency_key");
    expect(await denialsOf(agent.id)).toHaveLength(0);
    const denied = await api.call("POST", "/v1/imports", { token: agent.token, body: { nonsense: true } });
    expect(denied.status, denied.text).toBe(403);
    expect(denied.body.error.code).toBe("scope_denied");
    expect(await denialsOf(agent.id)).toHaveLength(1);
  });

  it("answers 401 unauthenticated without a bearer, auditing nothing", async () => {
    const before = await api.db.auditEntry.count({ where: { action: "access.denied" } });
    const response = await upload({ token: null });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe("unauthenticated");
    expect(await api.db.auditEntry.count({ where: { action: "access.denied" } })).toBe(before);
  });

  it("leaves public routes open to any bearer (the OpenAPI document)", async () => {
    const agent = await createAgent(api);
    expect((await api.call("GET", "/v1/openapi.json", { token: agent.token })).status).toBe(200);
    expect(await denialsOf(agent.id)).toHaveLength(0);
  });
});

describe("an owner-only procedure", () => {
  it("refuses an agent's write before its key is claimed, audited once under the procedure's name", async () => {
    const agent = await createAgent(api);
    const denied = await api.call("POST", "/v1/businesses", {
      token: agent.token,
      body: { name: "Agent's", currency: "EUR" },
      idempotencyKey: "business-by-agent",
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.details).toEqual({ required: "owner" });
    expect((await denialsOf(agent.id)).map((d) => d.details)).toEqual([
      { operation: "businesses.create", code: "scope_denied", required: "owner" },
    ]);
    expect(await keyClaimed(`agent:${agent.id}`, "business-by-agent")).toBe(0);
  });

  it("refuses an agent the same way on the tRPC path the panel uses (no REST layer)", async () => {
    const agent = await createAgent(api, { grants: [{ scope: "ads", resource: "*", level: "execute" }] });
    const row = await api.db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    const actor: TAgentActor = { type: "agent", ownerId: row.ownerId, agentId: agent.id, tokenKey: "test", grants: [] };
    const caller = createCallerFactory(createFixtureRouter())(
      createContext(createRequestContext(new Headers(), { requestId: "req_panel_path" }), { db: api.db, actor }),
    );
    await expect(caller.businesses.find({})).rejects.toMatchObject({
      cause: { code: "scope_denied", details: { required: "owner" } },
    });
    await expect(caller.fx.rates({})).rejects.toMatchObject({
      cause: { code: "scope_denied", details: { required_scope: "finances:observe" } },
    });
    const denials = await denialsOf(agent.id);
    expect(denials.map((d) => d.requestId)).toEqual(["req_panel_path", "req_panel_path"]);
  });
});

describe("an agent reading one business (GET /v1/test/businesses/{id}/observe)", () => {
  const observe = (token: string | undefined, id: string) => api.call("GET", `/v1/test/businesses/${id}/observe`, { token });

  it("reads a business its grant covers, and the owner reads any of theirs", async () => {
    const agent = await createAgent(api, {
      grants: [{ scope: "finances:observe", resource: `business:${businessId}`, level: "recommend" }],
    });
    expect((await observe(agent.token, businessId)).body.data).toEqual({ id: businessId, name: "Observed Co" });
    expect((await observe(undefined, otherBusinessId)).status).toBe(200);
  });

  it("refuses its owner's business that no grant covers with 403 naming scope and resource, audited", async () => {
    const agent = await createAgent(api, {
      grants: [
        { scope: "finances:observe", resource: `business:${businessId}`, level: "execute" },
        { scope: "ads", resource: "*", level: "execute" }, // another scope covers it: not enough
      ],
    });
    const denied = await observe(agent.token, otherBusinessId);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({
      code: "scope_denied",
      details: { required_scope: "finances:observe", resource: `business:${otherBusinessId}` },
    });
    expect((await denialsOf(agent.id)).map((d) => d.details)).toEqual([
      {
        operation: "testObserve",
        code: "scope_denied",
        required_scope: "finances:observe",
        resource: `business:${otherBusinessId}`,
      },
    ]);
  });

  it("answers 404 for another owner's business and for none at all, alike, auditing nothing", async () => {
    const other = await api.db.owner.create({ data: { email: "observe-other@example.test" } });
    const theirs = await api.db.business.create({ data: { ownerId: other.id, name: "Their Secret Co", currency: "EUR" } });
    const agent = await createAgent(api, { grants: [{ scope: "finances:observe", resource: "*", level: "execute" }] });
    for (const id of [theirs.id, randomUUID()]) {
      const response = await observe(agent.token, id);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("not_found");
      expect(response.text).not.toContain("Their Secret Co");
    }
    expect(await api.db.auditEntry.count({ where: { actorId: agent.id } })).toBe(0);
  });
});
