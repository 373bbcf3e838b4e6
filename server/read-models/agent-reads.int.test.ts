// Agents read what their grants cover (pinned-wave3 §2.1, issue 34), on both engines: every read
// of the additive access table answers an agent whose grant of the named scope covers the
// resource with the owner's own figures (200, the same body but the request id); another business
// of the same owner is 403 scope_denied, audited as access.denied; another owner's business,
// project or event is 404 not_found; the whole owner's reads need a grant on `*`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import {
  seedAgent,
  seedBusiness,
  seedEvent,
  seedOwner,
  seedProject,
  seedSubscription,
  type TTestGrant,
} from "../../test/helpers/seed";

let api: TTestApi;
let alice: { ownerId: string; token: string };
let bob: { ownerId: string; token: string };
let atlas: string;
let borealis: string;
let atlasProject: string;
let bobsBusiness: string;
let bobsProject: string;
let atlasEvent: string;
let borealisEvent: string;
let personalEvent: string;
let bobsEvent: string;

const grant = (scope: string, resource: string): TTestGrant => ({ scope, resource, level: "recommend" });

beforeAll(async () => {
  api = await createTestApi();
  alice = await seedOwner(api);
  bob = await seedOwner(api);
  atlas = (await seedBusiness(api, { name: "Atlas" }, alice.token)).id;
  borealis = (await seedBusiness(api, { name: "Borealis" }, alice.token)).id;
  atlasProject = (await seedProject(api, atlas, { name: "Web" }, alice.token)).id;
  bobsBusiness = (await seedBusiness(api, { name: "Bob's" }, bob.token)).id;
  bobsProject = (await seedProject(api, bobsBusiness, { name: "Shop" }, bob.token)).id;
  atlasEvent = (await seedEvent(api, "revenue", { business_id: atlas, amount_minor: 120000 }, alice.token)).id;
  await seedEvent(api, "expense", { project_id: atlasProject, amount_minor: 3000 }, alice.token);
  borealisEvent = (await seedEvent(api, "expense", { business_id: borealis }, alice.token)).id;
  personalEvent = (await seedEvent(api, "expense", { personal: true, amount_minor: 999 }, alice.token)).id;
  bobsEvent = (await seedEvent(api, "expense", { business_id: bobsBusiness }, bob.token)).id;
  await seedSubscription(api, { business_id: atlas }, alice.token);
  const cash = await api.call("POST", "/v1/cash-snapshots", {
    token: alice.token,
    body: {
      business_id: atlas,
      amount_minor: 500000,
      currency: "EUR",
      as_of: "2026-01-10T12:00:00Z",
      payload: { account_id: "main" },
    },
  });
  expect(cash.status, cash.text).toBe(201);
});

afterAll(async () => {
  await api?.close();
});

/** The body without its request id and the instant it was computed (an owner's answer and an agent's are otherwise equal). */
const figures = (body: unknown): unknown =>
  JSON.parse(JSON.stringify(body), (key, value) => (["request_id", "as_of", "generated_at"].includes(key) ? undefined : value));

async function expectOwnersFigures(path: string, agentToken: string) {
  const owner = await api.call("GET", path, { token: alice.token });
  expect(owner.status, owner.text).toBe(200);
  const agent = await api.call("GET", path, { token: agentToken });
  expect(agent.status, `${path}: ${agent.text}`).toBe(200);
  expect(figures(agent.body), path).toEqual(figures(owner.body));
}

async function expectDeniedAndAudited(path: string, agent: { id: string; token: string }, details: Record<string, unknown>) {
  expectApiError(await api.call("GET", path, { token: agent.token }), 403, "scope_denied", { details });
  const entries = await api.db.auditEntry.findMany({
    where: { ownerId: alice.ownerId, action: "access.denied", actorId: agent.id },
    select: { details: true },
  });
  expect(entries.map((entry) => entry.details)).toContainEqual(expect.objectContaining({ code: "scope_denied", ...details }));
}

describe("reads of one business (finances:observe, forecast:observe, ads)", () => {
  const cases: Array<{ path: (id: string) => string; scope: string }> = [
    { path: (id) => `/v1/businesses/${id}/financial-summary?from=2026-01-01&to=2026-01-31`, scope: "finances:observe" },
    { path: (id) => `/v1/businesses/${id}/context`, scope: "finances:observe" },
    { path: (id) => `/v1/businesses/${id}/project-health`, scope: "finances:observe" },
    { path: (id) => `/v1/businesses/${id}/subscriptions`, scope: "finances:observe" },
    { path: (id) => `/v1/businesses/${id}/forecast?horizon=30`, scope: "forecast:observe" },
    { path: (id) => `/v1/free-capital?business_id=${id}`, scope: "forecast:observe" },
    { path: (id) => `/v1/businesses/${id}/ads`, scope: "ads" },
    { path: (id) => `/v1/businesses/${id}/ads`, scope: "finances:observe" },
  ];

  for (const { path, scope } of cases) {
    it(`${path(":id")} with ${scope}: covered → 200 with the owner's figures; other business → 403 audited; another owner's → 404`, async () => {
      const agent = await seedAgent(api, { grants: [grant(scope, `business:${atlas}`)] }, alice.token);
      await expectOwnersFigures(path(atlas), agent.token);
      // A business's ads accept ads or finances:observe: the denial names the first.
      const ads = new URL(path(borealis), "http://x").pathname.endsWith("/ads");
      await expectDeniedAndAudited(path(borealis), agent, {
        required_scope: ads ? "ads" : scope,
        resource: `business:${borealis}`,
      });
      expectApiError(await api.call("GET", path(bobsBusiness), { token: agent.token }), 404, "not_found");
    });
  }

  it("an agent holding none of the scopes is refused before anything is read (403, audited)", async () => {
    const agent = await seedAgent(api, { grants: [grant("forecast:observe", `business:${atlas}`)] }, alice.token);
    await expectDeniedAndAudited(`/v1/businesses/${atlas}/financial-summary`, agent, { required_scope: "finances:observe" });
    await expectDeniedAndAudited(`/v1/businesses/${atlas}/ads`, agent, {
      required_scope: "ads",
      any_of_scopes: ["ads", "finances:observe"],
    });
  });

  it("a project's free capital: a grant on its business covers it", async () => {
    const agent = await seedAgent(api, { grants: [grant("forecast:observe", `business:${atlas}`)] }, alice.token);
    await expectOwnersFigures(`/v1/free-capital?project_id=${atlasProject}`, agent.token);
    expectApiError(await api.call("GET", `/v1/free-capital?project_id=${bobsProject}`, { token: agent.token }), 404, "not_found");
  });
});

describe("personal reads", () => {
  it("a personal grant covers the personal summary, forecast and free capital; a business grant does not", async () => {
    const personal = await seedAgent(
      api,
      { grants: [grant("finances:observe", "personal"), grant("forecast:observe", "personal")] },
      alice.token,
    );
    await expectOwnersFigures("/v1/personal/financial-summary?from=2026-01-01&to=2026-01-31", personal.token);
    await expectOwnersFigures("/v1/personal/forecast", personal.token);
    await expectOwnersFigures("/v1/free-capital?personal=true", personal.token);
    const business = await seedAgent(
      api,
      { grants: [grant("finances:observe", `business:${atlas}`), grant("forecast:observe", `business:${atlas}`)] },
      alice.token,
    );
    await expectDeniedAndAudited("/v1/personal/financial-summary", business, {
      required_scope: "finances:observe",
      resource: "personal",
    });
    await expectDeniedAndAudited("/v1/personal/forecast", business, { required_scope: "forecast:observe", resource: "personal" });
  });
});

describe("events", () => {
  it("the list with a covered filter, and an event of a covered scope: 200 as the owner sees them", async () => {
    const agent = await seedAgent(api, { grants: [grant("finances:observe", `business:${atlas}`)] }, alice.token);
    await expectOwnersFigures(`/v1/events?business_id=${atlas}`, agent.token);
    await expectOwnersFigures(`/v1/events?project_id=${atlasProject}`, agent.token);
    await expectOwnersFigures(`/v1/events/${atlasEvent}`, agent.token);
    const listed = await api.call("GET", `/v1/events?business_id=${atlas}`, { token: agent.token });
    expect(listed.body.data.length).toBe(2);
  });

  it("another business's events, the owner's whole list, personal events → 403 audited; another owner's → 404", async () => {
    const agent = await seedAgent(api, { grants: [grant("finances:observe", `business:${atlas}`)] }, alice.token);
    await expectDeniedAndAudited(`/v1/events?business_id=${borealis}`, agent, { resource: `business:${borealis}` });
    await expectDeniedAndAudited(`/v1/events/${borealisEvent}`, agent, { resource: `business:${borealis}` });
    await expectDeniedAndAudited(`/v1/events/${personalEvent}`, agent, { resource: "personal" });
    await expectDeniedAndAudited("/v1/events", agent, { resource: "*" });
    expectApiError(await api.call("GET", `/v1/events?business_id=${bobsBusiness}`, { token: agent.token }), 404, "not_found");
    expectApiError(await api.call("GET", `/v1/events/${bobsEvent}`, { token: agent.token }), 404, "not_found");
  });
});

describe("the whole owner's reads need a grant on *", () => {
  const reads: Array<{ path: string; scope: string }> = [
    { path: "/v1/overview", scope: "finances:observe" },
    { path: "/v1/coverage", scope: "finances:observe" },
    { path: "/v1/daily-brief", scope: "finances:observe" },
    { path: "/v1/events", scope: "finances:observe" },
    { path: "/v1/forecast", scope: "forecast:observe" },
    { path: "/v1/free-capital", scope: "forecast:observe" },
    { path: "/v1/ads", scope: "ads" },
  ];
  for (const { path, scope } of reads) {
    it(`${path}: ${scope} on * → 200 with the owner's figures; on one business → 403 audited`, async () => {
      const everywhere = await seedAgent(api, { grants: [grant(scope, "*")] }, alice.token);
      await expectOwnersFigures(path, everywhere.token);
      const one = await seedAgent(api, { grants: [grant(scope, `business:${atlas}`)] }, alice.token);
      await expectDeniedAndAudited(path, one, { required_scope: scope, resource: "*" });
    });
  }
});
