// The OpenAPI document: complete for the routes that exist, true to the REST layer, and clean
// under a real OpenAPI linter (Redocly's recommended rules).
import fs from "node:fs";
import { createConfig, lintFromString } from "@redocly/openapi-core";
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

/** The `METHOD /path` rows of a tab-separated operation table (first line: its header). */
function operationTable(file: URL): Set<string> {
  const tsv = fs.readFileSync(file, "utf8");
  return new Set(
    tsv
      .trim()
      .split("\n")
      .slice(1)
      .filter((line) => line.trim() !== "")
      .map((line) => line.split("\t"))
      .map(([method, path]) => `${method} ${path}`),
  );
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
    const codes = doc.components.schemas!.Error.properties.error.properties.code.enum;
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

  it("passes Redocly's recommended rules without errors", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: text, absoluteRef: "openapi.json", config });
    const errors = problems.filter((problem) => problem.severity === "error");
    expect(errors.map((e) => `${e.ruleId}: ${e.message} at ${e.location[0]?.pointer}`)).toEqual([]);
  });
});
