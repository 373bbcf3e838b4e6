// The contract check of the test API (contract-check.ts) finds what a client generated from
// /v1/openapi.json would trip on: an undocumented status, a missing required header, a body off
// its schema. (That every API test's answers pass it is what the integration suites show.)
import { describe, expect, it } from "vitest";
import { createV1Handler } from "../../server/rest/v1";
import { contractProblems } from "./contract-check";

const handler = createV1Handler({ getDb: async () => Promise.reject(new Error("no database in this test")) });
const url = "http://localhost";
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
const common = { "x-request-id": "r1", "x-service-contract": "1.0.0-rc.9" };
const counted = { ...common, "x-ratelimit-limit": "120", "x-ratelimit-remaining": "119", "x-ratelimit-reset": "1764547200" };

describe("the contract check", () => {
  it("passes a real answer of the REST layer (a 404 of an unknown path)", async () => {
    const request = new Request(`${url}/v1/no-such-thing`);
    expect(await contractProblems(handler, request, await handler(request))).toEqual([]);
  });

  it("passes an answer as documented, with unknown fields (records are open)", async () => {
    const body = { data: [], page: { next_cursor: null, has_more: false }, request_id: "r1", coverage: { new: true } };
    expect(await contractProblems(handler, { method: "GET", url: `${url}/v1/businesses` }, json(200, body, counted))).toEqual([]);
  });

  it("finds a status the operation does not document", async () => {
    const problems = await contractProblems(handler, { method: "GET", url: `${url}/v1/businesses` }, json(201, {}, counted));
    expect(problems).toEqual(["GET /v1/businesses answered 201, which the document does not list"]);
  });

  it("finds a missing required header and a header off its schema", async () => {
    const body = { data: [], page: { next_cursor: null, has_more: false }, request_id: "r1" };
    const problems = await contractProblems(
      handler,
      { method: "GET", url: `${url}/v1/businesses` },
      json(200, body, { ...counted, "x-service-contract": "", "x-ratelimit-remaining": "many" }),
    );
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^header X-RateLimit-Remaining: "many"/)]));
    const missing = await contractProblems(handler, { method: "GET", url: `${url}/v1/businesses` }, json(200, body, common));
    expect(missing).toContain("header X-RateLimit-Limit is required but missing");
  });

  it("finds a body off the operation's schema, and an error body off the contract's", async () => {
    const problems = await contractProblems(
      handler,
      { method: "GET", url: `${url}/v1/businesses` },
      json(200, { data: [{ id: 1 }], request_id: "r1" }, counted),
    );
    expect(problems.join("\n")).toMatch(/body\/data\/0/);
    const error = await contractProblems(
      handler,
      { method: "GET", url: `${url}/v1/businesses` },
      json(400, { error: { code: "validation_error", message: "x", details: { issues: [{ message: "no path" }] } } }, common),
    );
    expect(error.join("\n")).toMatch(/request_id/);
    expect(error.join("\n")).toMatch(/issues\/0.*path/);
    // A validation_error always names what failed.
    const bare = { error: { code: "validation_error", message: "x", request_id: "r1" } };
    const unnamed = await contractProblems(handler, { method: "GET", url: `${url}/v1/businesses` }, json(400, bare, common));
    expect(unnamed.join("\n")).toMatch(/details/);
    const other = { error: { code: "not_found", message: "x", request_id: "r1" } };
    expect(await contractProblems(handler, { method: "GET", url: `${url}/v1/businesses` }, json(404, other, common))).toEqual([]);
  });

  it("requires Retry-After on 429 and Allow on 405", async () => {
    const error = { error: { code: "rate_limited", message: "x", request_id: "r1" } };
    expect(await contractProblems(handler, { method: "GET", url: `${url}/v1/businesses` }, json(429, error, common))).toContain(
      "header Retry-After is required but missing",
    );
    const request = new Request(`${url}/v1/businesses`, { method: "DELETE" });
    const response = await handler(request);
    expect(response.status).toBe(405);
    expect(await contractProblems(handler, request, response)).toEqual([]);
    response.headers.delete("allow");
    expect(await contractProblems(handler, request, response)).toContain("header Allow is required but missing");
  });
});
