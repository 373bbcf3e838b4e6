// Passports and passport templates (pinned-wave2 §3.4) on both engines, with real tokens: the
// default passport (version 0), PUT (whole replacement, version + 1, audited, replays, every
// invalid field at once with nothing written, businesses of the owner only, revoked → 409),
// concurrent writes getting distinct versions, the template catalogue, from-template (overrides,
// suggested grants that never grant), access for every operation (the agent itself, another agent
// of the owner, another owner) and the experimental marks in /v1/openapi.json.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedAgent, seedBusiness, seedOwner, staticOwner } from "../../test/helpers/seed";
import { fixedClock } from "../shared/clock";

const NOW = "2026-05-08T12:00:00.000Z";
let api: TTestApi;
let ownerId: string;
let atlas: string;
let borealis: string;
/** Another owner, with a business and an agent of theirs. */
let other: { ownerId: string; token: string; business: string; agent: string };

beforeAll(async () => {
  api = await createTestApi({ clock: fixedClock(NOW) });
  ownerId = (await staticOwner(api)).ownerId;
  atlas = (await seedBusiness(api, { name: "Atlas" })).id;
  borealis = (await seedBusiness(api, { name: "Borealis" })).id;
  const bob = await seedOwner(api);
  other = {
    ...bob,
    business: (await seedBusiness(api, { name: "Bob's" }, bob.token)).id,
    agent: (await seedAgent(api, { name: "Bob's agent" }, bob.token)).id,
  };
});
afterAll(async () => api?.close());

const passportPath = (agentId: string) => `/v1/agents/${agentId}/passport`;
const getPassport = (agentId: string, token?: string) => api.call("GET", passportPath(agentId), { token });
const putPassport = (agentId: string, body: object, options: { token?: string; idempotencyKey?: string | null } = {}) =>
  api.call("PUT", passportPath(agentId), { body, ...options });
const fromTemplate = (agentId: string, body: object, token?: string) =>
  api.call("POST", `${passportPath(agentId)}/from-template`, { token, body });
const audits = (agentId: string) =>
  api.db.auditEntry.findMany({
    where: { targetType: "agent", targetId: agentId, action: "agent.passport_updated" },
    orderBy: { createdAt: "asc" },
  });
const versionOf = async (agentId: string) => (await getPassport(agentId)).body.data.version as number;

/** A complete passport (a function: the businesses exist only once beforeAll has run). */
const full = () => ({
  purpose: "Keep ad spend profitable.",
  responsibilities: ["Watch ROAS daily", "Cut losing campaigns"],
  allowed_actions: ["Change daily budgets"],
  constraints: { max_daily_spend_minor: 25_00, currency: "EUR", businesses: [atlas], notes: "Never brand terms." },
  escalation: "Email the owner above 25 EUR a day.",
});

describe("GET /v1/agents/{id}/passport", () => {
  it("answers every field at its default with version 0 until the passport is first set", async () => {
    const agent = await seedAgent(api, { name: "Fresh" });
    const response = await getPassport(agent.id);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toEqual({
      agent_id: agent.id,
      version: 0,
      purpose: "",
      responsibilities: [],
      allowed_actions: [],
      constraints: { max_daily_spend_minor: null, currency: null, businesses: [], notes: null },
      escalation: "",
      template_id: null,
      updated_at: null,
    });
    expect(await api.db.agentPassport.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it("answers 400 for a malformed id and 404 for an unknown one", async () => {
    expectApiError(await getPassport("not-a-uuid"), 400, "validation_error", { issue: "id" });
    expectApiError(await getPassport(randomUUID()), 404, "not_found");
  });
});

describe("PUT /v1/agents/{id}/passport", () => {
  it("sets the whole passport: 200, version + 1, template_id null, audited in the owner's name", async () => {
    const agent = await seedAgent(api, { name: "Setter" });
    const body = { ...full(), constraints: { ...full().constraints, businesses: [atlas, borealis, atlas] } };
    const response = await putPassport(agent.id, body);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toEqual({
      agent_id: agent.id,
      version: 1,
      ...full(),
      // Duplicates are kept once, in the order given.
      constraints: { ...full().constraints, businesses: [atlas, borealis] },
      template_id: null,
      updated_at: NOW,
    });
    expect((await getPassport(agent.id)).body.data).toEqual(response.body.data);

    const entries = await audits(agent.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorType: "owner", actorId: ownerId, details: { template_id: null, version: 1 } });
  });

  it("replaces the whole passport: omitted fields go back to their defaults", async () => {
    const agent = await seedAgent(api, { name: "Resetter" });
    expect((await putPassport(agent.id, full())).status).toBe(200);
    const reset = await putPassport(agent.id, { purpose: "Only this." });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.data).toMatchObject({
      version: 2,
      purpose: "Only this.",
      responsibilities: [],
      allowed_actions: [],
      constraints: { max_daily_spend_minor: null, currency: null, businesses: [], notes: null },
      escalation: "",
    });
    expect((await audits(agent.id)).map((entry) => (entry.details as { version: number }).version)).toEqual([1, 2]);
  });

  it("needs an Idempotency-Key; a replay answers the first result without a new version", async () => {
    const agent = await seedAgent(api, { name: "Replayer" });
    expectApiError(await putPassport(agent.id, full(), { idempotencyKey: null }), 400, "missing_idempotency_key");
    const first = await putPassport(agent.id, full(), { idempotencyKey: "passport-once" });
    const replay = await putPassport(agent.id, full(), { idempotencyKey: "passport-once" });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data).toEqual(first.body.data);
    expect(await versionOf(agent.id)).toBe(1);
    expect(await audits(agent.id)).toHaveLength(1);
  });

  it("answers every invalid field at once with 400 and writes nothing", async () => {
    const agent = await seedAgent(api, { name: "Invalid" });
    expect((await putPassport(agent.id, full())).status).toBe(200);
    const response = await putPassport(agent.id, {
      purpose: "p".repeat(501),
      responsibilities: [...Array.from({ length: 21 }, (_, i) => `r${i}`)],
      allowed_actions: ["", "a".repeat(101)],
      constraints: { max_daily_spend_minor: 10.5, currency: "eur", businesses: ["nope"], notes: "n".repeat(1001) },
      escalation: "e".repeat(1001),
    });
    const error = expectApiError(response, 400, "validation_error");
    const paths = [...new Set((error.details.issues as { path: string }[]).map((issue) => issue.path))].sort();
    expect(paths).toEqual(
      [
        "allowed_actions.0",
        "allowed_actions.1",
        "constraints.businesses.0",
        "constraints.currency",
        "constraints.max_daily_spend_minor",
        "constraints.notes",
        "escalation",
        "purpose",
        "responsibilities",
      ].sort(),
    );
    // A spend cap without its currency is named too, beside the other fields' problems.
    const noCurrency = await putPassport(agent.id, { purpose: "x".repeat(501), constraints: { max_daily_spend_minor: 100 } });
    const issues = expectApiError(noCurrency, 400, "validation_error").details.issues as { path: string; message: string }[];
    expect(issues.map((issue) => issue.path).sort()).toEqual(["constraints.currency", "purpose"]);
    expect(issues.find((issue) => issue.path === "constraints.currency")!.message).toMatch(/currency/);
    expect(await versionOf(agent.id)).toBe(1);
    expect(await audits(agent.id)).toHaveLength(1);
  });

  it("answers 404 for a business that is not the owner's (another owner's or unknown), naming it; nothing written", async () => {
    const agent = await seedAgent(api, { name: "Foreign businesses" });
    for (const business of [other.business, randomUUID()]) {
      const response = await putPassport(agent.id, { constraints: { businesses: [atlas, business] } });
      expectApiError(response, 404, "not_found", { details: { resource: "business", path: "constraints.businesses.1" } });
    }
    expect(await versionOf(agent.id)).toBe(0);
    expect(await audits(agent.id)).toHaveLength(0);
  });

  it("refuses a revoked agent's passport with 409 state_conflict (PUT and from-template); GET still reads it", async () => {
    const agent = await seedAgent(api, { name: "Revoked" });
    expect((await putPassport(agent.id, full())).status).toBe(200);
    expect((await api.call("POST", `/v1/agents/${agent.id}/revoke`, { body: {} })).status).toBe(200);
    expectApiError(await putPassport(agent.id, { purpose: "after" }), 409, "state_conflict");
    expectApiError(await fromTemplate(agent.id, { template_id: "bookkeeper" }), 409, "state_conflict");
    const read = await getPassport(agent.id);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ version: 1, purpose: full().purpose });
  });

  it("gives concurrent writes distinct, consecutive versions", async () => {
    const agent = await seedAgent(api, { name: "Racer" });
    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => putPassport(agent.id, { purpose: `write ${i}` })));
    for (const response of responses) expect(response.status, response.text).toBe(200);
    const versions = responses.map((response) => response.body.data.version as number).sort((a, b) => a - b);
    expect(versions).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await versionOf(agent.id)).toBe(8);
    expect(await audits(agent.id)).toHaveLength(8);
  });
});

describe("GET /v1/passport-templates", () => {
  it("lists the built-in templates on one page, each with a passport and grants without a resource", async () => {
    const response = await api.call("GET", "/v1/passport-templates");
    expect(response.status, response.text).toBe(200);
    expect(response.body.page).toEqual({ next_cursor: null, has_more: false });
    const templates = response.body.data as {
      id: string;
      name: string;
      passport: { purpose: string };
      suggested_grants: object[];
    }[];
    expect(templates.map((t) => t.id)).toEqual(["bookkeeper", "ads_optimizer", "forecaster", "cash_guardian"]);
    const grantsOf = (id: string) =>
      templates.find((t) => t.id === id)!.suggested_grants.map((g) => `${(g as any).scope}@${(g as any).level}`);
    expect(grantsOf("bookkeeper")).toEqual(["finances:observe@recommend"]);
    expect(grantsOf("ads_optimizer")).toEqual(["ads@execute", "finances:observe@recommend"]);
    expect(grantsOf("forecaster")).toEqual(["finances:observe@recommend", "forecast:observe@recommend"]);
    expect(grantsOf("cash_guardian")).toEqual(["finances:observe@recommend", "forecast:observe@recommend"]);
    for (const template of templates) {
      expect(template.name).not.toBe("");
      expect(template.passport.purpose).not.toBe("");
      for (const grant of template.suggested_grants) {
        expect(grant).not.toHaveProperty("resource");
        expect(grant).toMatchObject({ daily_limit_minor: null, monthly_limit_minor: null, currency: null });
      }
    }
  });
});

describe("POST /v1/agents/{id}/passport/from-template", () => {
  it("fills the passport from the template (version + 1, template_id), answers suggested grants and grants nothing", async () => {
    const agent = await seedAgent(api, {
      name: "Templated",
      grants: [{ scope: "finances:observe", resource: "*", level: "recommend" }],
    });
    expect((await putPassport(agent.id, full())).status).toBe(200);
    const templates = (await api.call("GET", "/v1/passport-templates")).body.data;
    const bookkeeper = templates.find((t: { id: string }) => t.id === "bookkeeper");

    const response = await fromTemplate(agent.id, { template_id: "bookkeeper" });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.passport).toEqual({
      agent_id: agent.id,
      version: 2,
      ...bookkeeper.passport,
      template_id: "bookkeeper",
      updated_at: NOW,
    });
    expect(response.body.data.suggested_grants).toEqual(bookkeeper.suggested_grants);
    expect((await getPassport(agent.id)).body.data).toEqual(response.body.data.passport);

    // Never grants: the agent's grants are as they were.
    const after = await api.call("GET", `/v1/agents/${agent.id}`);
    expect(after.body.data.grants.map((g: { scope: string }) => g.scope)).toEqual(["finances:observe"]);
    const entries = await audits(agent.id);
    expect(entries.map((entry) => entry.details)).toEqual([
      { template_id: null, version: 1 },
      { template_id: "bookkeeper", version: 2 },
    ]);
  });

  it("overrides replace the template's fields whole; an execute grant takes the declared daily spend as its limit", async () => {
    const agent = await seedAgent(api, { name: "Overridden" });
    const response = await fromTemplate(agent.id, {
      template_id: "ads_optimizer",
      overrides: {
        purpose: "Only search ads.",
        constraints: { max_daily_spend_minor: 40_00, currency: "EUR", businesses: [borealis] },
      },
    });
    expect(response.status, response.text).toBe(200);
    const { passport, suggested_grants } = response.body.data;
    expect(passport).toMatchObject({
      version: 1,
      template_id: "ads_optimizer",
      purpose: "Only search ads.",
      constraints: { max_daily_spend_minor: 40_00, currency: "EUR", businesses: [borealis], notes: null },
    });
    expect(passport.responsibilities.length).toBeGreaterThan(0);
    expect(suggested_grants).toEqual([
      {
        scope: "ads",
        level: "execute",
        daily_limit_minor: 40_00,
        monthly_limit_minor: null,
        currency: "EUR",
        over_limit: "approval",
      },
      {
        scope: "finances:observe",
        level: "recommend",
        daily_limit_minor: null,
        monthly_limit_minor: null,
        currency: null,
        over_limit: "approval",
      },
    ]);
  });

  it("answers 400 for an unknown template or invalid overrides, 404 for a foreign business; nothing written", async () => {
    const agent = await seedAgent(api, { name: "Refused template" });
    expectApiError(await fromTemplate(agent.id, { template_id: "astrologer" }), 400, "validation_error", {
      issue: "template_id",
      message: /bookkeeper/,
    });
    expectApiError(await fromTemplate(agent.id, {}), 400, "validation_error", { issue: "template_id" });
    const invalid = await fromTemplate(agent.id, {
      template_id: "astrologer",
      overrides: { purpose: "p".repeat(501), constraints: { max_daily_spend_minor: 1 } },
    });
    const paths = (expectApiError(invalid, 400, "validation_error").details.issues as { path: string }[]).map((i) => i.path);
    expect(paths.sort()).toEqual(["overrides.constraints.currency", "overrides.purpose", "template_id"]);
    expectApiError(
      await fromTemplate(agent.id, { template_id: "bookkeeper", overrides: { constraints: { businesses: [other.business] } } }),
      404,
      "not_found",
      { details: { path: "overrides.constraints.businesses.0" } },
    );
    expect(await versionOf(agent.id)).toBe(0);
    expect(await audits(agent.id)).toHaveLength(0);
  });
});

describe("access: owner only, tenant isolated", () => {
  it("for every operation: the agent itself and another agent of the owner get 403 scope_denied (audited), nothing written", async () => {
    const subject = await seedAgent(api, { name: "Subject", grants: [{ scope: "ads", resource: "*", level: "execute" }] });
    const sibling = await seedAgent(api, {
      name: "Sibling",
      grants: [{ scope: "finances:observe", resource: "*", level: "recommend" }],
    });
    const requests = [
      { method: "GET", path: passportPath(subject.id) },
      { method: "PUT", path: passportPath(subject.id), body: full() },
      { method: "POST", path: `${passportPath(subject.id)}/from-template`, body: { template_id: "bookkeeper" } },
      { method: "GET", path: "/v1/passport-templates" },
    ];
    for (const caller of [subject, sibling]) {
      for (const request of requests) {
        const what = `${request.method} ${request.path} as ${caller === subject ? "the agent itself" : "another agent"}`;
        const before = await api.db.auditEntry.count({ where: { actorId: caller.id, action: "access.denied" } });
        const response = await api.call(request.method, request.path, { token: caller.token, body: request.body });
        expectApiError(response, 403, "scope_denied", { what, details: { required: "owner" } });
        expect(await api.db.auditEntry.count({ where: { actorId: caller.id, action: "access.denied" } }), what).toBe(before + 1);
      }
    }
    expect(await versionOf(subject.id)).toBe(0);
  });

  it("another owner gets 404 not_found for this owner's agent, and its own catalogue of templates", async () => {
    const agent = await seedAgent(api, { name: "Isolated" });
    expect((await putPassport(agent.id, full())).status).toBe(200);
    for (const request of [
      { method: "GET", path: passportPath(agent.id) },
      { method: "PUT", path: passportPath(agent.id), body: { purpose: "B was here" } },
      { method: "POST", path: `${passportPath(agent.id)}/from-template`, body: { template_id: "bookkeeper" } },
    ]) {
      const response = await api.call(request.method, request.path, { token: other.token, body: request.body });
      expectApiError(response, 404, "not_found", { what: `${request.method} ${request.path}` });
    }
    expect((await getPassport(agent.id)).body.data).toMatchObject({ version: 1, purpose: full().purpose });
    // The owner cannot reach the other owner's agent either.
    expectApiError(await getPassport(other.agent), 404, "not_found");
    const templates = await api.call("GET", "/v1/passport-templates", { token: other.token });
    expect(templates.status).toBe(200);
    expect(templates.body.data).toHaveLength(4);
  });
});

describe("/v1/openapi.json", () => {
  it("marks the passport operations experimental, the template catalogue stable, all owner only", async () => {
    const doc = (await api.call("GET", "/v1/openapi.json", { token: null })).body;
    const op = (path: string, method: string) => doc.paths[path][method];
    for (const [path, method] of [
      ["/v1/agents/{id}/passport", "get"],
      ["/v1/agents/{id}/passport", "put"],
      ["/v1/agents/{id}/passport/from-template", "post"],
    ] as const) {
      expect(op(path, method)["x-experimental"], `${method} ${path}`).toBe(true);
      expect(op(path, method).security).toEqual([{ ownerSession: [] }]);
    }
    expect(op("/v1/passport-templates", "get")["x-experimental"]).toBeUndefined();
    expect(op("/v1/passport-templates", "get").security).toEqual([{ ownerSession: [] }]);
    expect(op("/v1/agents/{id}/passport", "put").description).toMatch(/grants alone/);
  });
});
