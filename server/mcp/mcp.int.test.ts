// The MCP companion end to end, on both engines: the SDK's own client over Streamable HTTP
// against the app's /mcp on a real HTTP server (its tools calling the real /v1 layer), and over
// stdio against the companion process (bin/finance-mcp.mjs) proxying to that server.
// An agent reads its context, simulates, proposes an ad budget change over its limit (held:
// the pending approval is the result), the owner approves it over REST, and the agent sees it
// approved through MCP. Denials (no grant, over a deny limit) are tool errors carrying the
// contract's error body; the checks run in the REST layer's order (access before validation).
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { serveApp, type TServedApp } from "../../test/helpers/http-app";
import { seedAgent, seedBusiness, seedIntegration, seedOwner, staticOwner } from "../../test/helpers/seed";
import { CONTRACT_VERSION } from "../shared/contract-version";
import { RESOURCE_URIS } from "./resources";
import { PROMPT_NAMES } from "./prompts";
import { mcpTools, toolsFor, type TProcedures } from "./tools";
import { EXPERIMENTAL_MARKER, META_OPERATION, META_STABILITY, mcpServerVersion } from "./versioning";
import { appRouter } from "../router";
import { operationDefinitions } from "../rest/route-table";

const PROCEDURES: TProcedures = operationDefinitions(appRouter);

const ROOT = path.resolve(import.meta.dirname, "../..");

let api: TTestApi;
let app: TServedApp;
let ownerId: string;
let businessId: string;
let socialId: string;
/** ads at execute, 100.00 EUR a day, over it: approval; both observe scopes; on Atlas only. */
let agent: { id: string; token: string };
const clients: Client[] = [];

/** The tools the scenario's agent may call (its three grants on Atlas). */
const agentToolNames = () =>
  toolsFor(PROCEDURES, {
    type: "agent",
    grants: ["ads", "finances:observe", "forecast:observe"].map((scope) => ({ scope, resource: `business:${businessId}` })),
  })
    .map((tool) => tool.name)
    .sort();

const today = () => new Date().toISOString().slice(0, 10);

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: "mcp-int-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", app.url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type TStructured = {
  data?: any;
  error?: { code: string; message: string; details?: any; request_id?: string };
  [k: string]: any;
};

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult & { body: TStructured }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { type: string; text: string }).text;
  // The JSON text and the structured content are the same body.
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return { ...result, body: result.structuredContent as TStructured };
}

function expectToolError(result: CallToolResult & { body: TStructured }, code: string): NonNullable<TStructured["error"]> {
  expect(result.isError, JSON.stringify(result.body)).toBe(true);
  expect(result.body.error?.code, JSON.stringify(result.body)).toBe(code);
  expect(result.body.error?.request_id).toMatch(/^req_[0-9a-f]{32}$/);
  return result.body.error!;
}

const adChange = (extra: Record<string, unknown> = {}) => ({
  integration_id: socialId,
  campaign_id: "mcp-1",
  previous_daily_budget_minor: 5000,
  new_daily_budget_minor: 50000,
  currency: "EUR",
  reason: "ROAS is twice the target",
  ...extra,
});

beforeAll(async () => {
  api = await createTestApi();
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api, { name: "Atlas" })).id;
  socialId = await seedIntegration(api.db, { ownerId, provider: "social_ads", businessId });
  const atlas = `business:${businessId}`;
  agent = await seedAgent(api, {
    name: "Ads optimizer",
    // The /v1 calls of its tools must carry the client's address (the socket's, stamped by the server).
    allowed_ip_ranges: ["127.0.0.1/32"],
    grants: [
      { scope: "ads", resource: atlas, level: "execute", daily_limit_minor: 10000, currency: "EUR", over_limit: "approval" },
      { scope: "finances:observe", resource: atlas, level: "recommend" },
      { scope: "forecast:observe", resource: atlas, level: "recommend" },
    ],
  });
  app = await serveApp(api);
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await app?.close();
  await api?.close();
});

describe("over Streamable HTTP at /mcp", () => {
  it("lists one tool per agent operation, each marked experimental, with its input schema; version = the contract's major.minor", async () => {
    const client = await connect(agent.token);
    expect(client.getServerVersion()).toMatchObject({ name: "finance-back-office", version: mcpServerVersion() });
    expect(mcpServerVersion()).toBe(CONTRACT_VERSION.split(".").slice(0, 2).join("."));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(agentToolNames());
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.description?.startsWith(EXPERIMENTAL_MARKER), tool.name).toBe(true);
      expect(tool._meta?.[META_STABILITY]).toBe("experimental");
      expect(tool._meta?.[META_OPERATION]).toMatch(/^(GET|POST) \/v1\//);
      expect(tool.outputSchema?.type, tool.name).toBe("object");
    }
    const create = tools.find((tool) => tool.name === "create_ad_budget_change")!;
    expect(Object.keys(create.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining([
        "integration_id",
        "campaign_id",
        "new_daily_budget_minor",
        "currency",
        "reason",
        "idempotency_key",
      ]),
    );
    expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    const review = tools.find((tool) => tool.name === "get_decision_review")!;
    expect(review.inputSchema.required).toEqual(["id"]);
  });

  it("runs the scenario: context, simulation, a held change, the owner's approval over REST, the agent sees it approved", async () => {
    const client = await connect(agent.token);

    const me = await call(client, "get_agent_me");
    expect(me.isError).toBeFalsy();
    expect(me.body.data).toMatchObject({ access: "grants", agent: { id: agent.id }, passport: { version: 0 } });
    expect(me.body.data.grants).toHaveLength(3);
    const passport = await client.readResource({ uri: RESOURCE_URIS.passport });
    expect(JSON.parse((passport.contents[0] as { text: string }).text)).toMatchObject({
      passport: { agent_id: agent.id, version: 0 },
    });

    // Aggregates carry the envelope's fx and coverage beside data.
    const metrics = await call(client, "get_business_saas_metrics", { id: businessId });
    expect(metrics.isError).toBeFalsy();
    expect(metrics.body).toMatchObject({
      data: { currency: "USD", base_currency: "USD" },
      fx: { base_currency: "USD", display_currency: "USD" },
      coverage: { overall: expect.any(String) },
    });

    const simulation = await call(client, "run_simulation", {
      business_id: businessId,
      changes: [{ kind: "ad_budget_change", integration_id: socialId, delta_daily_minor: 45000, currency: "EUR", from: today() }],
    });
    expect(simulation.isError, JSON.stringify(simulation.body)).toBeFalsy();
    expect(simulation.body.data.simulated).toBeDefined();
    expect(simulation.body.fx).toBeDefined();

    // 45,000 counted against a 10,000 daily limit with over_limit: approval → held (202), never a shortcut.
    const held = await call(client, "create_ad_budget_change", adChange());
    expect(held.isError, JSON.stringify(held.body)).toBeFalsy();
    expect(held.body.data).toEqual({ approval: { id: expect.any(String), status: "pending" } });
    const approvalId = held.body.data.approval.id as string;
    expect(await api.db.adBudgetChange.count({ where: { campaignId: "mcp-1" } })).toBe(0);
    expect(await api.db.approval.findUniqueOrThrow({ where: { id: approvalId } })).toMatchObject({
      status: "pending",
      agentId: agent.id,
      trigger: "over_limit",
    });
    const pending = await call(client, "get_my_economics");
    expect(pending.body.data.writes).toMatchObject({ pending: 1, approved: 0 });

    const approved = await api.call("POST", `/v1/approvals/${approvalId}/approve`, { body: {} });
    expect(approved.status, approved.text).toBe(200);

    const after = await call(client, "get_my_economics");
    expect(after.body.data).toMatchObject({
      agent_id: agent.id,
      writes: { pending: 0, approved: 1, executed: 1 },
      ad_budget: { changes: 1, planned: 1 },
    });
    expect(await api.db.adBudgetChange.findFirstOrThrow({ where: { campaignId: "mcp-1" } })).toMatchObject({
      agentId: agent.id,
      approvalId,
      status: "planned",
    });
  });

  it("a write with the same idempotency_key is replayed, not written twice", async () => {
    const client = await connect(agent.token);
    const decision = { business_id: businessId, title: "Raise mcp-2", reason: "weekly review", idempotency_key: "mcp-replay-1" };
    const first = await call(client, "create_agent_decision", decision);
    const second = await call(client, "create_agent_decision", decision);
    expect(first.isError, JSON.stringify(first.body)).toBeFalsy();
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(await api.db.agentDecision.count({ where: { title: "Raise mcp-2" } })).toBe(1);
  });

  it("access and limit denials are tool errors with the contract's body; access is checked before validation", async () => {
    const stranger = await seedAgent(api, { name: "No grants" });
    const client = await connect(stranger.token);
    const denied = expectToolError(
      await call(client, "create_ad_budget_change", adChange({ campaign_id: "mcp-no" })),
      "scope_denied",
    );
    expect(denied.details).toEqual({ required_scope: "ads" });
    // Nonsense arguments from an agent without the scope: still scope_denied (audited), not a validation error.
    expectToolError(await call(client, "create_ad_budget_change", { new_daily_budget_minor: "lots" }), "scope_denied");
    expect(await api.db.auditEntry.count({ where: { actorId: stranger.id, action: "access.denied" } })).toBe(2);

    const stingy = await seedAgent(api, {
      grants: [
        {
          scope: "ads",
          resource: `business:${businessId}`,
          level: "execute",
          daily_limit_minor: 1000,
          currency: "EUR",
          over_limit: "deny",
        },
      ],
    });
    const limited = await connect(stingy.token);
    expectToolError(await call(limited, "create_ad_budget_change", adChange({ campaign_id: "mcp-deny" })), "limit_exceeded");
    const invalid = expectToolError(
      await call(limited, "create_ad_budget_change", adChange({ currency: "eur" })),
      "validation_error",
    );
    expect(invalid.details.issues.map((issue: { path: string }) => issue.path)).toContain("currency");
    expect(await api.db.adBudgetChange.count({ where: { campaignId: { in: ["mcp-no", "mcp-deny"] } } })).toBe(0);
  });

  it("an owner session connects too (the owner's answers); a bad or missing bearer is refused at the door", async () => {
    const owner = await seedOwner(api);
    const client = await connect(owner.token);
    const me = await call(client, "get_agent_me");
    expect(me.body.data).toMatchObject({ access: "all", agent: null, passport: null });
    expectToolError(await call(client, "get_my_economics"), "not_found");

    const noBearer = await fetch(new URL("/mcp", app.url), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(noBearer.status).toBe(401);
    expect(((await noBearer.json()) as TStructured).error?.code).toBe("unauthenticated");
    await expect(connect("agt_not-a-real-token")).rejects.toThrow();
    const get = await fetch(new URL("/mcp", app.url), { headers: { authorization: `Bearer ${agent.token}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("OPTIONS, POST");
    expect(((await get.json()) as TStructured).error?.code).toBe("method_not_allowed");
    // OPTIONS says what /mcp answers, and nothing it refuses.
    const options = await fetch(new URL("/mcp", app.url), { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("OPTIONS, POST");
  });

  it("lists the tools each caller may call: the owner every operation, an agent per its grants, none without grants", async () => {
    const names = async (token: string) => (await (await connect(token)).listTools()).tools.map((tool) => tool.name).sort();
    const owner = await seedOwner(api);
    const ownerTools = await names(owner.token);
    expect(ownerTools).toEqual(
      mcpTools(PROCEDURES)
        .map((tool) => tool.name)
        .sort(),
    );
    expect(ownerTools).toEqual(expect.arrayContaining(["businesses_create", "approvals_approve", "get_overview"]));

    const noGrants = await seedAgent(api, { name: "No grants" });
    const bare = await names(noGrants.token);
    expect(bare).toEqual(
      toolsFor(PROCEDURES, { type: "agent", grants: [] })
        .map((tool) => tool.name)
        .sort(),
    );
    expect(bare).toContain("get_agent_me");
    expect(bare).not.toContain("get_business_financial_summary");

    const observer = await seedAgent(api, {
      name: "Observer",
      grants: [{ scope: "finances:observe", resource: `business:${businessId}`, level: "recommend" }],
    });
    const observed = await names(observer.token);
    expect(observed).toEqual(expect.arrayContaining(["get_business_financial_summary", "find_events", "get_business_ads"]));
    expect(observed).not.toContain("get_business_forecast");
    expect(observed).not.toContain("create_ad_budget_change");
    expect(observed).not.toContain("get_overview");

    const everywhere = await seedAgent(api, {
      name: "Everywhere",
      grants: [
        { scope: "finances:observe", resource: "*", level: "recommend" },
        { scope: "forecast:observe", resource: "*", level: "recommend" },
      ],
    });
    const wide = await names(everywhere.token);
    expect(wide).toEqual(expect.arrayContaining(["get_overview", "get_daily_brief", "get_forecast", "run_simulation"]));

    // The lists differ as the grants say, and no agent sees an owner operation.
    const full = await names(agent.token);
    expect(new Set([bare.length, observed.length, wide.length, full.length, ownerTools.length]).size).toBe(5);
    for (const list of [bare, observed, wide, full]) expect(list).not.toContain("businesses_create");
  }, 120_000);

  it("every structuredContent validates against its tool's outputSchema (a strict 2020-12 validator), errors included", async () => {
    const client = await connect(agent.token);
    const { tools } = await client.listTools(); // the SDK client now checks each result against its outputSchema too
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(ajv);
    const validate = (name: string, body: unknown) => {
      const check = ajv.compile(tools.find((tool) => tool.name === name)!.outputSchema!);
      expect(check(body), `${name}: ${JSON.stringify(check.errors)}`).toBe(true);
    };
    const calls: Array<[string, Record<string, unknown>]> = [
      ["get_agent_me", {}],
      ["get_business_financial_summary", { id: businessId }],
      ["get_business_context", { id: businessId }],
      ["get_business_forecast", { id: businessId, horizon: 30 }],
      ["get_free_capital", { business_id: businessId }],
      ["find_events", { business_id: businessId }],
      ["get_business_ads", { id: businessId }],
      [
        "run_simulation",
        {
          business_id: businessId,
          changes: [
            { kind: "ad_budget_change", integration_id: socialId, delta_daily_minor: 1000, currency: "EUR", from: today() },
          ],
        },
      ],
      ["create_ad_budget_change", adChange({ campaign_id: "mcp-schema" })],
      // Refusals: another scope (403) and an unknown business (404).
      ["get_free_capital", {}],
      ["get_business_financial_summary", { id: "00000000-0000-4000-8000-000000000000" }],
    ];
    for (const [name, args] of calls) {
      const result = await call(client, name, args);
      validate(name, result.structuredContent);
    }
  }, 120_000);

  it("offers the prompts: the daily brief, can I afford it, what did my agents do", async () => {
    const client = await connect(agent.token);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual([...PROMPT_NAMES].sort());
    const afford = await client.getPrompt({
      name: "can_i_afford",
      arguments: { what: "a laptop", amount: "1499.00", currency: "EUR", business_id: businessId },
    });
    const text = (afford.messages[0]!.content as { text: string }).text;
    expect(text).toContain("get_free_capital");
    expect(text).toContain(businessId);
    const brief = await client.getPrompt({ name: "daily_brief", arguments: {} });
    expect((brief.messages[0]!.content as { text: string }).text).toContain("get_daily_brief");
    expect(client.getServerCapabilities()?.prompts).toEqual({ listChanged: false });
  });

  it("serves the contract's operation tables and the OpenAPI document as resources", async () => {
    const client = await connect(agent.token);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual(Object.values(RESOURCE_URIS).sort());
    const table = await client.readResource({ uri: RESOURCE_URIS.operations });
    expect((table.contents[0] as { text: string }).text).toMatch(/^method\tpath\taccess\texperimental/);
    const openapi = await client.readResource({ uri: RESOURCE_URIS.openapi });
    expect(JSON.parse((openapi.contents[0] as { text: string }).text)).toMatchObject({ info: { version: CONTRACT_VERSION } });
  });
});

describe("over stdio (the companion process proxying to the service)", () => {
  it("serves the same tools, and a call goes through the service's REST layer", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, "bin/finance-mcp.mjs"), "--token", agent.token, "--url", app.url],
      cwd: ROOT,
      stderr: "pipe",
    });
    const client = new Client({ name: "mcp-int-test-stdio", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    expect(client.getServerVersion()?.version).toBe(mcpServerVersion());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(agentToolNames());
    const me = await call(client, "get_agent_me");
    expect(me.body.data).toMatchObject({ access: "grants", agent: { id: agent.id } });
    const review = await call(client, "get_decision_review", { id: "00000000-0000-4000-8000-000000000000" });
    expectToolError(review, "not_found");
  }, 120_000);
});
