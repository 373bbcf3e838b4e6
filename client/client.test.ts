// The client's own behaviour, against a fetch that records what it is sent: the bearer and the
// contract minimum on every request, the Idempotency-Key helper, the contract's error body read
// into FinanceApiError, held writes, and retries that resend the same request.
import { describe, expect, it } from "vitest";
import {
  createFinanceClient,
  FinanceApiError,
  GENERATED_CONTRACT_VERSION,
  heldApproval,
  idempotent,
  unwrap,
  withRetries,
  type paths,
} from "./index.js";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

function recorder(answers: Response[]) {
  const sent: Request[] = [];
  const fetch = async (request: Request) => {
    sent.push(request.clone());
    return answers.shift() ?? json(500, {});
  };
  return { sent, fetch };
}

const ERROR = (code: string, status = 400) =>
  json(
    status,
    { error: { code, message: `${code} happened`, details: { a: 1 }, request_id: "req_1" } },
    { "x-request-id": "req_1" },
  );

describe("createFinanceClient", () => {
  it("sends the bearer, X-Service-Contract-Min (the generated version by default) and the path under baseUrl", async () => {
    const { sent, fetch } = recorder([json(200, { data: {}, request_id: "r" })]);
    const client = createFinanceClient({ baseUrl: "http://finance.test/", token: "agt_x", fetch });
    await client.GET("/v1/agents/me");
    expect(sent[0]!.url).toBe("http://finance.test/v1/agents/me");
    expect(sent[0]!.headers.get("authorization")).toBe("Bearer agt_x");
    expect(sent[0]!.headers.get("x-service-contract-min")).toBe(GENERATED_CONTRACT_VERSION);
  });

  it("contractMin: null sends no minimum; idempotent() puts a key (fresh, or the one given) in the header", async () => {
    const { sent, fetch } = recorder([json(201, {}), json(201, {})]);
    const client = createFinanceClient({ baseUrl: "http://finance.test", token: "t", fetch, contractMin: null });
    const body = { personal: true as const, title: "Note", reason: "why not" };
    await client.POST("/v1/agent-decisions", { params: { header: idempotent() }, body });
    await client.POST("/v1/agent-decisions", { params: { header: idempotent("key-1") }, body });
    expect(sent[0]!.headers.get("x-service-contract-min")).toBeNull();
    expect(sent[0]!.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]!.headers.get("idempotency-key")).toBe("key-1");
    expect(await sent[1]!.json()).toEqual(body);
  });
});

describe("unwrap and FinanceApiError", () => {
  it("answers data on a success and throws the contract's error otherwise", async () => {
    const { fetch } = recorder([json(200, { data: { ok: 1 }, request_id: "r" }), ERROR("scope_denied", 403)]);
    const client = createFinanceClient({ baseUrl: "http://finance.test", fetch });
    expect(await unwrap(client.GET("/v1/agents/me"))).toEqual({ data: { ok: 1 }, request_id: "r" });
    const error = await unwrap(client.GET("/v1/agents/me")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FinanceApiError);
    expect(error).toMatchObject({ status: 403, code: "scope_denied", details: { a: 1 }, requestId: "req_1", retryable: false });
  });

  it("reads Retry-After; a body that is not the contract's is code unknown", async () => {
    const limited = new FinanceApiError(json(429, {}, { "retry-after": "7" }), { error: { code: "rate_limited", message: "m" } });
    expect(limited).toMatchObject({ code: "rate_limited", retryAfterSeconds: 7, retryable: true });
    const proxy = new FinanceApiError(new Response("Bad gateway", { status: 502 }), "Bad gateway");
    expect(proxy).toMatchObject({ code: "unknown", status: 502, retryable: true, requestId: null });
  });

  it("heldApproval names the approval of a 202 only", () => {
    const approval = { id: "a1", status: "pending" };
    expect(heldApproval({ data: { data: { approval } }, response: new Response(null, { status: 202 }) })).toEqual(approval);
    expect(heldApproval({ data: { data: { id: "x" } }, response: new Response(null, { status: 201 }) })).toBeNull();
  });
});

describe("withRetries", () => {
  it("waits Retry-After after a 429, backs off after a 5xx, and resends the same key", async () => {
    const { sent, fetch } = recorder([
      json(429, { error: { code: "rate_limited", message: "m", request_id: "r" } }, { "retry-after": "2" }),
      json(500, { error: { code: "internal_error", message: "m", request_id: "r" } }),
      json(201, { data: { id: "d" } }),
    ]);
    const waits: number[] = [];
    const client = createFinanceClient({ baseUrl: "http://finance.test", fetch });
    const header = idempotent();
    const result = await withRetries(
      () => client.POST("/v1/agent-decisions", { params: { header }, body: { personal: true, title: "t", reason: "why" } }),
      { sleep: async (ms) => void waits.push(ms) },
    );
    expect(result.response.status).toBe(201);
    expect(sent.map((r) => r.headers.get("idempotency-key"))).toEqual([
      header["Idempotency-Key"],
      header["Idempotency-Key"],
      header["Idempotency-Key"],
    ]);
    expect(waits).toEqual([2000, 1000]);
  });

  it("answers the last answer when the attempts are spent", async () => {
    const { sent, fetch } = recorder([ERROR("rate_limited", 429), ERROR("rate_limited", 429)]);
    const waits: number[] = [];
    const client = createFinanceClient({ baseUrl: "http://finance.test", fetch });
    const result = await withRetries(() => client.GET("/v1/agents/me"), {
      attempts: 2,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(result.response.status).toBe(429);
    expect(sent).toHaveLength(2);
    expect(waits).toEqual([500]);
  });
});

describe("request types from the input schemas (issue 34)", () => {
  it("a grant without over_limit is a valid request body (its default makes it optional, not required)", () => {
    // A type check as much as a test: `tsc --noEmit` fails here if over_limit is required again.
    type TCreateAgent = paths["/v1/agents"]["post"]["requestBody"]["content"]["application/json"];
    const body: TCreateAgent = { name: "Ads optimizer", grants: [{ scope: "ads", resource: "*", level: "execute" }] };
    expect(body.grants?.[0]).not.toHaveProperty("over_limit");
  });
});
