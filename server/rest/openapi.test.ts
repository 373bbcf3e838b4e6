// The OpenAPI document: complete for the routes that exist, true to the REST layer, and clean
// under a real OpenAPI linter (Redocly's recommended rules).
import fs from "node:fs";
import { lintFromString, loadConfig } from "@redocly/openapi-core";
import { beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../errors/app-error";
import { appRouter } from "../router";
import { CONTRACT_VERSION } from "./contract";
import { createV1Handler } from "./v1";

type TDoc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, any>>;
  components: Record<string, Record<string, any>>;
};

let doc: TDoc;
let text: string;
const handler = createV1Handler({ router: appRouter, getDb: async () => Promise.reject(new Error("no database in this test")) });

beforeAll(async () => {
  const response = await handler(new Request("http://localhost/v1/openapi.json"));
  expect(response.status).toBe(200);
  text = await response.text();
  doc = JSON.parse(text) as TDoc;
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

// The contract's operation table, kept in the repository so a clone without ../shared still tests.
const OPERATIONS_COPY = new URL("../../docs/contract/operations.tsv", import.meta.url);
const OPERATIONS_SHARED = new URL("../../../shared/spec/operations.tsv", import.meta.url);
// Operations beyond the contract (Versioning 1 allows additive ones), each with the issue that
// asked for it and why: an operation is served only if it is in one of the two tables.
const ADDITIVE_OPERATIONS = new URL("../../docs/contract/additive-operations.tsv", import.meta.url);

/** The rows of a tab-separated operation table, by its header's column names. */
function tableRows(file: URL): Record<string, string>[] {
  const [header, ...lines] = fs.readFileSync(file, "utf8").trim().split("\n");
  const columns = header!.split("\t");
  return lines
    .filter((line) => line.trim() !== "")
    .map((line) => Object.fromEntries(line.split("\t").map((value, i) => [columns[i]!, value])));
}

/** The `METHOD /path` rows of a tab-separated operation table (first line: its header). */
function operationTable(file: URL): Set<string> {
  return new Set(tableRows(file).map((row) => `${row.method} ${row.path}`));
}

const contractOperations = () => operationTable(OPERATIONS_COPY);
const additiveOperations = () => operationTable(ADDITIVE_OPERATIONS);

describe("the contract's operation table", () => {
  it.runIf(fs.existsSync(OPERATIONS_SHARED))("equals ../shared/spec/operations.tsv", () => {
    expect(fs.readFileSync(OPERATIONS_COPY, "utf8")).toBe(fs.readFileSync(OPERATIONS_SHARED, "utf8"));
  });
});

describe("GET /v1/openapi.json", () => {
  it("is public OpenAPI 3.1 with the contract version", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(CONTRACT_VERSION);
    expect(doc.components.securitySchemes).toHaveProperty("ownerSession");
    expect(doc.components.securitySchemes).toHaveProperty("agentToken");
  });

  it("describes every route of the REST layer, and only operations of the contract or its additive table", () => {
    const documented = new Set(operations().map(({ method, path }) => `${method} ${path}`));
    for (const route of handler.routes.routes) expect(documented).toContain(`${route.method} ${route.path}`);
    const known = new Set([...contractOperations(), ...additiveOperations()]);
    for (const operation of documented) {
      if (operation === "GET /v1/openapi.json") continue; // pinned by DESIGN.md
      if (operation === "OPTIONS /v1/waitlist") continue; // the contract's Waitlist rules 4: CORS, POST and OPTIONS
      expect(known, `${operation} is neither in the contract nor in docs/contract/additive-operations.tsv`).toContain(operation);
    }
  });

  it("serves every additive operation, none of which repeats the contract's", () => {
    const documented = new Set(operations().map(({ method, path }) => `${method} ${path}`));
    const contract = contractOperations();
    for (const operation of additiveOperations()) {
      expect(contract, `${operation} is in the contract already`).not.toContain(operation);
      expect(documented, `${operation} is listed as additive but not served`).toContain(operation);
    }
  });

  it("documents the real success status and the contract's error body on every operation", () => {
    expect(doc.paths["/v1/businesses"]!.post.responses).toHaveProperty("201");
    expect(doc.paths["/v1/businesses"]!.post.responses).not.toHaveProperty("200");
    expect(doc.paths["/v1/businesses/{id}/projects"]!.post.responses).toHaveProperty("201");
    const statuses = new Set(Object.values(ERROR_CODES).map((entry) => String(entry.status)));
    for (const { op } of operations()) {
      for (const status of statuses) expect(op.responses[status].$ref).toBe(`#/components/responses/Error${status}`);
    }
    const codes = doc.components.schemas!.Error.properties.error.properties.code["x-extensible-enum"];
    expect(codes).toEqual(expect.arrayContaining(Object.keys(ERROR_CODES)));
  });

  it("puts request_id in the success envelope", () => {
    const schema = doc.paths["/v1/businesses/{id}"]!.get.responses["200"].content["application/json"].schema;
    expect(schema.properties).toHaveProperty("request_id");
    expect(schema.properties).toHaveProperty("data");
  });

  it("marks owner operations with ownerSession, public ones with no security, writes with Idempotency-Key", () => {
    expect(doc.paths["/v1/businesses"]!.get.security).toEqual([{ ownerSession: [] }]);
    expect(doc.paths["/v1/openapi.json"]!.get.security).toEqual([]);
    const refs = (op: any) => (op.parameters ?? []).map((p: any) => p.$ref);
    expect(refs(doc.paths["/v1/businesses"]!.post)).toContain("#/components/parameters/IdempotencyKey");
    expect(refs(doc.paths["/v1/businesses"]!.get)).not.toContain("#/components/parameters/IdempotencyKey");
  });

  it("describes the outbound notification webhook: its body, its signed headers and how to verify them", () => {
    const webhooks = (doc as unknown as { webhooks: Record<string, any> }).webhooks;
    const post = webhooks["notification.created"].post;
    const schema = post.requestBody.content["application/json"].schema;
    expect(schema.required).toEqual(["id", "type", "created_at", "data"]);
    expect(schema.properties.data).toEqual({ $ref: "#/components/schemas/Notification" });
    expect(doc.components.schemas).toHaveProperty("Notification");
    expect(post.parameters.map((p: { name: string }) => p.name)).toEqual([
      "X-Service-Timestamp",
      "X-Service-Signature",
      "X-Service-Event-Id",
    ]);
    expect(post.description).toMatch(/HMAC-SHA256/);
    expect(doc.paths["/v1/me/notification-webhook"]!.put.description).toMatch(/webhook_url_invalid/);
  });

  it("passes Redocly's recommended rules (redocly.yaml) without errors", async () => {
    const config = await loadConfig({ configPath: new URL("../../redocly.yaml", import.meta.url).pathname });
    const problems = await lintFromString({ source: text, absoluteRef: "openapi.json", config });
    const errors = problems.filter((problem) => problem.severity === "error");
    expect(errors.map((e) => `${e.ruleId}: ${e.message} at ${e.location[0]?.pointer}`)).toEqual([]);
  });
});

// --- Contract completeness: every row of the contract's table, as the document states it ---

/** The table's Access column as the document's x-access, and where the service decided otherwise (why). */
const ACCESS: Record<string, string> = { O: "owner", OA: "owner_or_agent", P: "public", "P (signature)": "signature" };
const ACCESS_DECIDED: Record<string, { access: string; why: string }> = {
  "GET /v1/me": {
    access: "owner_or_agent",
    why: "contract, Me: an agent caller sees only id, base_currency, timezone, plan, actor",
  },
  "GET /v1/fx/rates": { access: "owner_or_agent", why: "the table's note: also agents with scope finances:observe" },
  "GET /v1/agents/me": { access: "owner_or_agent", why: "pinned-wave2 §1.1: O, A" },
  "POST /v1/agent-decisions": { access: "owner_or_agent", why: "pinned-wave2 §1.1: O, A (any covering grant)" },
  "POST /v1/simulations": {
    access: "owner_or_agent",
    why: "the table's note and pinned-wave2 §1.1: finances:observe + forecast:observe",
  },
  "GET /v1/businesses/{id}/financial-summary": {
    access: "owner_or_agent",
    why: "pinned-wave3 §2.1 (agent reads): finances:observe",
  },
  "GET /v1/businesses/{id}/context": { access: "owner_or_agent", why: "pinned-wave3 §2.1 (agent reads): finances:observe" },
  "GET /v1/businesses/{id}/project-health": {
    access: "owner_or_agent",
    why: "pinned-wave3 §2.1 (agent reads): finances:observe",
  },
  "GET /v1/businesses/{id}/subscriptions": { access: "owner_or_agent", why: "pinned-wave3 §2.1 (agent reads): finances:observe" },
  "GET /v1/personal/financial-summary": { access: "owner_or_agent", why: "pinned-wave3 §2.1 (agent reads): finances:observe" },
  "GET /v1/businesses/{id}/forecast": { access: "owner_or_agent", why: "pinned-wave3 §2.1 (agent reads): forecast:observe" },
  "GET /v1/personal/forecast": { access: "owner_or_agent", why: "pinned-wave3 §2.1 (agent reads): forecast:observe" },
  "GET /v1/free-capital": { access: "owner_or_agent", why: "pinned-wave3 §2.1 (agent reads): forecast:observe" },
  "GET /v1/businesses/{id}/ads": { access: "owner_or_agent", why: "pinned-wave3 §2.1 (agent reads): ads or finances:observe" },
  "GET /v1/events": { access: "owner_or_agent", why: "pinned-wave3 §2.1 (agent reads): finances:observe on the filter's scope" },
  "GET /v1/events/{id}": {
    access: "owner_or_agent",
    why: "pinned-wave3 §2.1 (agent reads): finances:observe on the event's scope",
  },
  "GET /v1/overview": { access: "owner_or_agent", why: "pinned-wave3 §2.1 (agent reads): finances:observe on *" },
  "GET /v1/forecast": { access: "owner_or_agent", why: "pinned-wave3 §2.1 (agent reads): forecast:observe on *" },
  "GET /v1/coverage": { access: "owner_or_agent", why: "pinned-wave3 §2.1 (agent reads): finances:observe on *" },
  "GET /v1/daily-brief": { access: "owner_or_agent", why: "pinned-wave3 §2.1 (agent reads): finances:observe on *" },
  "GET /v1/ads": { access: "owner_or_agent", why: "pinned-wave3 §2.1 (agent reads): ads or finances:observe on *" },
  "POST /v1/integrations/generic/connect": { access: "owner", why: "DESIGN.md: requires the owner's bearer (the table says P)" },
  "GET /v1/integrations/search_ads/callback": {
    access: "public",
    why: "the table's note: OAuth redirect, no bearer, state signed",
  },
};
// "see Authentication" (the contract leaves the access open): the owner's bearer (DESIGN.md, operation descriptions).
const OPEN_ACCESS = "owner";

/** Success statuses (contract Conventions 5–6, the table's notes, Import rules, pinned-wave2 §1.1, DESIGN.md). */
const POST_STATUSES: Record<string, string[]> = {
  "POST /v1/businesses": ["201"],
  "POST /v1/businesses/{id}/projects": ["201"],
  "POST /v1/expenses": ["201"],
  "POST /v1/recurring-expenses": ["201"],
  "POST /v1/planned-expenses": ["201"],
  "POST /v1/revenues": ["201"],
  "POST /v1/subscriptions": ["201"],
  "POST /v1/budget-reservations": ["201"],
  "POST /v1/cash-snapshots": ["200", "201"],
  "POST /v1/agents": ["201"],
  "POST /v1/agent-decisions": ["201"],
  "POST /v1/ad-budget-changes": ["201", "202"],
  "POST /v1/goals": ["201"],
  "POST /v1/integrations/generic/connect": ["201"],
  "POST /v1/integrations/{provider}/connect": ["201"],
  "POST /v1/imports/{id}/confirm": ["201"],
  "POST /v1/permission-requests": ["202"],
  "POST /v1/data-requests": ["202"],
  "POST /v1/waitlist": ["202"],
  "POST /v1/auth/magic-link": ["202"],
};
const OTHER_STATUSES: Record<string, string[]> = { "GET /v1/integrations/search_ads/callback": ["302"] };

/** Conventions 2: writes without Idempotency-Key; DESIGN.md adds the auth endpoints. */
const IDEMPOTENCY_EXEMPT = new Set([
  "POST /v1/waitlist",
  "POST /v1/webhooks/{provider}",
  "POST /v1/webhooks/generic/{integration_id}",
  "POST /v1/simulations",
  "POST /v1/auth/magic-link",
  "POST /v1/auth/verify",
  "POST /v1/auth/logout",
]);

describe("every operation of the contract's table is in /v1/openapi.json as the table says", () => {
  const rows = () => tableRows(OPERATIONS_COPY);
  const operationOf = (row: Record<string, string>) => doc.paths[row.path!]?.[row.method!.toLowerCase()];

  it("reads the table by its header", () => {
    expect(Object.keys(rows()[0]!)).toEqual(["method", "path", "access", "experimental", "query_or_body", "notes"]);
    expect(rows()).toHaveLength(108);
  });

  it("documents every row", () => {
    const missing = rows()
      .filter((row) => !operationOf(row))
      .map((row) => `${row.method} ${row.path}`);
    expect(missing).toEqual([]);
  });

  it("with the access of the Access column (ownerSession / agentToken / none in security, and x-access)", () => {
    for (const row of rows()) {
      const op = operationOf(row);
      if (!op) continue;
      const id = `${row.method} ${row.path}`;
      const expected =
        ACCESS_DECIDED[id]?.access ?? ACCESS[row.access!] ?? (row.access === "see Authentication" ? OPEN_ACCESS : "?");
      expect(op["x-access"], id).toBe(expected);
      const security =
        { owner: [{ ownerSession: [] }], owner_or_agent: [{ ownerSession: [] }, { agentToken: [] }] }[expected as string] ?? [];
      expect(op.security, id).toEqual(security);
    }
  });

  it("with its success statuses", () => {
    for (const row of rows()) {
      const op = operationOf(row);
      if (!op) continue;
      const id = `${row.method} ${row.path}`;
      const expected = OTHER_STATUSES[id] ?? (row.method === "POST" ? (POST_STATUSES[id] ?? ["200"]) : ["200"]);
      const success = Object.keys(op.responses).filter((status) => Number(status) < 400);
      expect(success.sort(), id).toEqual([...expected].sort());
    }
  });

  it("experimental exactly where the table says (X), as x-experimental: true (Versioning 5)", () => {
    for (const row of rows()) {
      const op = operationOf(row);
      if (!op) continue;
      expect(op["x-experimental"] === true, `${row.method} ${row.path}`).toBe(row.experimental === "yes");
    }
    expect(rows().filter((row) => row.experimental === "yes")).toHaveLength(15);
  });

  it("requiring Idempotency-Key on every write except the contract's exemptions (Conventions 2)", () => {
    for (const row of rows()) {
      const op = operationOf(row);
      if (!op) continue;
      const id = `${row.method} ${row.path}`;
      const takesKey = (op.parameters ?? []).some((p: any) => p.$ref === "#/components/parameters/IdempotencyKey");
      const write = ["POST", "PUT", "PATCH", "DELETE"].includes(row.method!);
      expect(takesKey, id).toBe(write && !IDEMPOTENCY_EXEMPT.has(id));
      expect(op["x-idempotency"], id).toBe(write ? (IDEMPOTENCY_EXEMPT.has(id) ? "exempt" : "required") : undefined);
      if (takesKey) expect(op.responses[Object.keys(op.responses)[0]!].headers).toHaveProperty("Idempotent-Replayed");
    }
  });
});

// --- The whole truth, as a generated client finds it ---

const bodyOf = (path: string, method = "post") => doc.paths[path]![method].requestBody.content["application/json"].schema;
const responseSchemaOf = (path: string, method: string, status: string) =>
  doc.paths[path]![method].responses[status].content["application/json"].schema;

/** Every node of a JSON value, with its pointer. */
function* nodes(value: unknown, at = ""): Generator<[string, Record<string, any>]> {
  if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* nodes(item, `${at}/${i}`);
  else if (value && typeof value === "object") {
    yield [at, value as Record<string, any>];
    for (const [key, item] of Object.entries(value)) yield* nodes(item, `${at}/${key}`);
  }
}

describe("what the document says beyond the shapes", () => {
  it("exactly one of business_id, project_id, personal on the scoped creates, as oneOf", () => {
    const oneOf = [{ required: ["business_id"] }, { required: ["project_id"] }, { required: ["personal"] }];
    for (const path of [
      "/v1/expenses",
      "/v1/revenues",
      "/v1/planned-expenses",
      "/v1/recurring-expenses",
      "/v1/subscriptions",
      "/v1/budget-reservations",
      "/v1/goals",
      "/v1/goal-proposals",
      "/v1/agent-decisions",
    ]) {
      expect(bodyOf(path).oneOf, path).toEqual(oneOf);
    }
    expect(bodyOf("/v1/events/{id}/correct").not.anyOf).toHaveLength(3);
  });

  it("positive amounts as exclusiveMinimum 0", () => {
    for (const path of ["/v1/expenses", "/v1/revenues", "/v1/planned-expenses", "/v1/recurring-expenses"]) {
      expect(bodyOf(path).properties.amount_minor.exclusiveMinimum, path).toBe(0);
      expect(bodyOf(path).properties.amount_minor).not.toHaveProperty("minimum");
    }
  });

  it("account_id required by the provider connect, and a repeated cash snapshot's 200, a held ad budget change's 202", () => {
    expect(bodyOf("/v1/integrations/{provider}/connect").required).toEqual(["business_id", "account_id"]);
    expect(Object.keys(doc.paths["/v1/cash-snapshots"]!.post.responses)).toEqual(expect.arrayContaining(["200", "201"]));
    expect(responseSchemaOf("/v1/ad-budget-changes", "post", "202").properties.data).toEqual({
      $ref: "#/components/schemas/PendingApproval",
    });
    expect(responseSchemaOf("/v1/ad-budget-changes", "post", "201").anyOf[0].required).toContain("request_id");
  });

  it("the headers: X-Request-Id and X-Service-Contract on every response, rate headers, Retry-After, Allow, replays", () => {
    const headers = doc.components.headers!;
    expect(headers.XRequestId.required).toBe(true);
    expect(headers.XServiceContract.required).toBe(true);
    for (const { method, path, op } of operations()) {
      for (const [status, response] of Object.entries<any>(op.responses)) {
        const resolved = response.$ref ? doc.components.responses![response.$ref.split("/").pop()] : response;
        expect(resolved.headers, `${method} ${path} ${status}`).toHaveProperty("X-Request-Id");
        expect(resolved.headers, `${method} ${path} ${status}`).toHaveProperty("X-Service-Contract");
      }
    }
    expect(doc.paths["/v1/businesses"]!.get.responses["200"].headers["X-RateLimit-Remaining"]).toEqual({
      $ref: "#/components/headers/XRateLimitRemaining",
    });
    expect(doc.components.responses!.Error429.headers["Retry-After"]).toEqual({ $ref: "#/components/headers/RetryAfter" });
    expect(doc.components.responses!.Error405.headers.Allow).toEqual({ $ref: "#/components/headers/Allow" });
    expect(headers.RetryAfter.required && headers.Allow.required).toBe(true);
    expect(doc.paths["/v1/waitlist"]!.options.responses["204"].headers).toHaveProperty("Access-Control-Allow-Origin");
    expect(doc.components.responses!.Error409.headers).toHaveProperty("Idempotent-Replayed");
  });

  it("a typed error.details.issues[] (path, code, message), as the REST layer sends on 400 validation_error", () => {
    const error = doc.components.schemas!.Error.properties.error;
    expect(error.properties.details).toEqual({ $ref: "#/components/schemas/ErrorDetails" });
    expect(doc.components.schemas!.ErrorDetails.properties.issues.items).toEqual({
      $ref: "#/components/schemas/ValidationIssue",
    });
    expect(doc.components.schemas!.ValidationIssue.required).toEqual(["path", "message"]);
    expect(error.allOf).toContainEqual({
      if: { required: ["code"], properties: { code: { const: "validation_error" } } },
      then: {
        required: ["details"],
        properties: { details: { type: "object", required: ["issues"], properties: { issues: { type: "array" } } } },
      },
    });
  });

  it("lists 422 amount_out_of_range with details.field on every aggregate and the simulation (pinned-wave3 §1.4)", () => {
    const error = doc.components.schemas!.Error.properties.error;
    expect(error.allOf).toContainEqual({
      if: { required: ["code"], properties: { code: { const: "amount_out_of_range" } } },
      then: {
        required: ["details"],
        properties: { details: { type: "object", required: ["field"], properties: { field: { type: "string" } } } },
      },
    });
    expect(doc.components.schemas!.ErrorDetails.properties.field.type).toBe("string");
    expect(doc.components.responses!.Error422.description).toMatch(/amount_out_of_range/);
    expect((doc as any).info.description).toMatch(/amount_out_of_range/);
    const aggregates = [
      "GET /v1/businesses/{id}/financial-summary",
      "GET /v1/personal/financial-summary",
      "GET /v1/businesses/{id}/forecast",
      "GET /v1/personal/forecast",
      "GET /v1/forecast",
      "GET /v1/free-capital",
      "GET /v1/overview",
      "GET /v1/daily-brief",
      "GET /v1/businesses/{id}/context",
      "GET /v1/businesses/{id}/saas-metrics",
      "GET /v1/businesses/{id}/project-health",
      "GET /v1/ads",
      "GET /v1/businesses/{id}/ads",
      "GET /v1/events/totals",
      "POST /v1/simulations",
    ];
    for (const operation of aggregates) {
      const [method, path] = operation.split(" ");
      const op = doc.paths[path!]![method!.toLowerCase()];
      expect(op.description, operation).toMatch(/422 amount_out_of_range with details\.field/);
      expect(op.responses["422"], operation).toEqual({ $ref: "#/components/responses/Error422" });
    }
  });

  it("open responses: no additionalProperties: false and no closed enum in what a response or the webhook carries", () => {
    const closed: string[] = [];
    const responseTrees = [
      ...operations().map(({ method, path, op }) => [`${method} ${path}`, op.responses] as const),
      ["webhooks", (doc as any).webhooks] as const,
    ];
    const refs = new Set<string>();
    const visit = (value: unknown, where: string) => {
      for (const [at, node] of nodes(value)) {
        if (node.additionalProperties === false) closed.push(`${where}${at}: additionalProperties false`);
        if (Array.isArray(node.enum) && node.enum.length > 1) closed.push(`${where}${at}: enum`);
        if (typeof node.$ref === "string" && node.$ref.startsWith("#/components/schemas/") && !refs.has(node.$ref)) {
          refs.add(node.$ref);
          visit(doc.components.schemas![node.$ref.split("/").pop()!], node.$ref);
        }
      }
    };
    for (const [where, tree] of responseTrees) visit(tree, where);
    expect(closed).toEqual([]);
    expect(doc.components.schemas!.Error.properties.error.properties.code["x-extensible-enum"]).toContain("validation_error");
    expect((doc as any).info.description).toMatch(/x-extensible-enum/);
    expect((doc as any).info.description).toMatch(/Response records are open/);
  });

  it("requests stay as the server is: closed enums, strict only where unknown fields are refused", () => {
    expect(bodyOf("/v1/recurring-expenses").properties.billing_interval.enum).toEqual(["week", "month", "quarter", "year"]);
    expect(bodyOf("/v1/me/notification-webhook", "put").additionalProperties).toBe(false);
    expect(bodyOf("/v1/expenses")).not.toHaveProperty("additionalProperties");
  });
});
