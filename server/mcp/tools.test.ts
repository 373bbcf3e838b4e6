// The tool list is the agent operations of the route table, each with its procedure's own
// input schema and meta; the arguments become the /v1 request as a REST client sends it; and
// docs/mcp.md lists exactly the served tools.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { operationDefinitions, routesFromRouter } from "../rest/route-table";
import { appRouter } from "../router";
import { operationRequest } from "./operation-call";
import {
  agentTools,
  MCP_TOOL_DECLARATIONS,
  mayCall,
  mcpTools,
  ownerToolName,
  toolsFor,
  type TMcpTool,
  type TProcedures,
} from "./tools";

const PROCEDURES: TProcedures = operationDefinitions(appRouter);

const procedures = operationDefinitions(appRouter);

describe("the tools", () => {
  it("are exactly the /v1 operations whose access admits agents, one each, declared by name", () => {
    const agentOperations = routesFromRouter(appRouter)
      .filter((route) => route.access.kind === "owner_or_agent")
      .map((route) => `${route.method} ${route.path}`)
      .sort();
    expect(
      agentTools(PROCEDURES)
        .map((tool) => `${tool.method} ${tool.path}`)
        .sort(),
    ).toEqual(agentOperations);
  });

  it("and the owner's operations as tools too, named after their procedure (plain routes are not tools)", () => {
    const ownerProcedures = Object.entries(procedures)
      .filter(([, procedure]) => procedure.meta.openapi && procedure.meta.access?.kind === "owner")
      .map(([path]) => ownerToolName(path))
      .sort();
    const ownerTools = mcpTools(PROCEDURES)
      .filter((tool) => tool.access.kind === "owner")
      .map((tool) => tool.name)
      .sort();
    expect(ownerTools).toEqual(ownerProcedures);
    expect(ownerToolName("readModels.businessForecast")).toBe("read_models_business_forecast");
    expect(toolsFor(PROCEDURES, { type: "owner" })).toHaveLength(mcpTools(PROCEDURES).length);
  });

  it("are listed to an agent only when its grants let it call them", () => {
    const names = (grants: Array<{ scope: string; resource: string }>) =>
      toolsFor(PROCEDURES, { type: "agent", grants }).map((tool) => tool.name);
    const none = names([]);
    expect(none).toEqual(expect.arrayContaining(["get_agent_me", "get_me", "create_agent_decision", "create_data_request"]));
    expect(none).not.toContain("get_business_financial_summary");
    for (const tool of mcpTools(PROCEDURES)) if (tool.access.kind === "owner") expect(none, tool.name).not.toContain(tool.name);
    const observer = names([{ scope: "finances:observe", resource: "business:b1" }]);
    expect(observer).toEqual(expect.arrayContaining(["get_business_financial_summary", "find_events", "get_business_ads"]));
    // The whole owner's reads need the grant on *; a simulation needs both observe scopes.
    expect(observer).not.toContain("get_overview");
    expect(observer).not.toContain("run_simulation");
    expect(observer).not.toContain("get_business_forecast");
    const everywhere = names([
      { scope: "finances:observe", resource: "*" },
      { scope: "forecast:observe", resource: "*" },
    ]);
    expect(everywhere).toEqual(expect.arrayContaining(["get_overview", "get_daily_brief", "get_forecast", "run_simulation"]));
    const ads = names([{ scope: "ads", resource: "business:b1" }]);
    expect(ads).toEqual(expect.arrayContaining(["create_ad_budget_change", "get_business_ads"]));
    expect(ads).not.toContain("get_ads");
    expect(
      mayCall(
        { type: "owner" },
        mcpTools(PROCEDURES).find((tool) => tool.name === "create_ad_budget_change")!,
      ),
    ).toBe(true);
  });

  it("take the procedure's own input schema and meta (nothing configured twice)", () => {
    for (const declaration of MCP_TOOL_DECLARATIONS) {
      const procedure = procedures[declaration.procedure];
      expect(procedure, declaration.procedure).toBeDefined();
      expect(procedure!.input === declaration.input, declaration.name).toBe(true);
      expect(procedure!.meta.openapi).toBe(declaration.meta.openapi);
      expect(procedure!.meta.experimental ?? false).toBe(declaration.meta.experimental ?? false);
    }
  });

  it("start experimental (Versioning 7: new tools do), and are never more stable than their operation", () => {
    for (const tool of mcpTools(PROCEDURES)) expect(tool.stability, tool.name).toBe("experimental");
  });

  it("add idempotency_key exactly where the operation needs an Idempotency-Key", () => {
    const keyed = agentTools(PROCEDURES)
      .filter((tool) => tool.keyed)
      .map((tool) => tool.name)
      .sort();
    expect(keyed).toEqual(expect.arrayContaining(["create_ad_budget_change", "create_agent_decision", "create_data_request"]));
    for (const tool of mcpTools(PROCEDURES)) {
      expect("idempotency_key" in tool.listedInput.shape, tool.name).toBe(tool.keyed);
    }
  });
});

describe("a tool call's /v1 request", () => {
  const target = { origin: "http://service.test", headers: new Headers({ authorization: "Bearer agt_x" }) };
  const tool = (name: string): TMcpTool => mcpTools(PROCEDURES).find((candidate) => candidate.name === name)!;

  it("puts path parameters in the path and the rest of a GET's arguments in the query", () => {
    const request = operationRequest(tool("get_business_saas_metrics"), { id: "b 1", from: "2026-01-01", x: [1, true] }, target);
    expect(request.method).toBe("GET");
    expect(request.url).toBe("http://service.test/v1/businesses/b%201/saas-metrics?from=2026-01-01&x=1&x=true");
    expect(request.headers.get("authorization")).toBe("Bearer agt_x");
    expect(request.headers.has("idempotency-key")).toBe(false);
  });

  it("sends a write's arguments as its JSON body with the idempotency_key as the header (a fresh key without one)", async () => {
    const request = operationRequest(tool("create_agent_decision"), { title: "t", idempotency_key: "k-1" }, target);
    expect(request.method).toBe("POST");
    expect(request.headers.get("idempotency-key")).toBe("k-1");
    expect(request.headers.get("content-type")).toBe("application/json");
    expect(await request.json()).toEqual({ title: "t" });
    const fresh = operationRequest(tool("create_agent_decision"), { title: "t" }, target);
    expect(fresh.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
    // A write without a key (simulations) sends none.
    expect(operationRequest(tool("run_simulation"), {}, target).headers.has("idempotency-key")).toBe(false);
  });

  it("refuses a missing path parameter and an idempotency_key that cannot be a header, as the contract's validation_error", () => {
    expect(() => operationRequest(tool("get_decision_review"), {}, target)).toThrow(
      expect.objectContaining({ code: "validation_error" }),
    );
    expect(() => operationRequest(tool("create_agent_decision"), { idempotency_key: "naïve key" }, target)).toThrow(
      expect.objectContaining({ code: "validation_error" }),
    );
  });
});

describe("docs/mcp.md", () => {
  it("lists exactly the served tools with their operation and stability", () => {
    const text = fs.readFileSync(new URL("../../docs/mcp.md", import.meta.url), "utf8");
    const rows = [
      ...text.matchAll(/^\|\s*`([a-z_]+)`\s*\|\s*`(GET|POST|PUT|PATCH|DELETE) ([^`]+)`\s*\|\s*(experimental|stable)\s*\|/gm),
    ].map((match) => `${match[1]} ${match[2]} ${match[3]} ${match[4]}`);
    expect(rows.sort()).toEqual(
      mcpTools(PROCEDURES)
        .map((tool) => `${tool.name} ${tool.method} ${tool.path} ${tool.stability}`)
        .sort(),
    );
  });
});

describe("the listed input schemas", () => {
  it("are objects at their top even where the operation's schema has an id (MCP requires type: object there)", () => {
    for (const tool of mcpTools(PROCEDURES)) {
      expect(z.toJSONSchema(tool.listedInput, { io: "input" }).type, tool.name).toBe("object");
    }
  });
});
