// An answer sent before the body was read leaves the connection usable (pinned-wave3 §1.5,
// issue 32 item 6), and /mcp reads its body by /v1's rules (item 5): over a real HTTP server
// (the server entry's dispatch and settleUnreadBody), with one keep-alive socket, the next
// request after a 413, a 401 and a 415 with a 2 MB body is answered on the same socket; a body
// declared past the drain bound is answered with Connection: close. JSON nested past 64 levels
// is 400 validation_error on /v1 and on /mcp.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { serveApp, type TServedApp } from "../../test/helpers/http-app";
import { staticOwner } from "../../test/helpers/seed";
import { DRAIN_MAX_BYTES } from "../../scripts/serve.mjs";

let api: TTestApi;
let app: TServedApp;
let token: string;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  api = await createTestApi();
  token = (await staticOwner(api)).token;
  app = await serveApp(api);
});
afterAll(async () => {
  agent.destroy();
  await app?.close();
  await api?.close();
});

type TAnswer = { status: number; headers: http.IncomingHttpHeaders; body: string; reused: boolean; socket: unknown };

/** One request on the shared keep-alive agent; `declared` sends a Content-Length the body does not reach. */
function send(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: Buffer | string; declared?: number } = {},
): Promise<TAnswer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const req = http.request(
      new URL(path, app.url),
      {
        method,
        agent,
        headers: {
          ...(body ? { "content-length": String(options.declared ?? body.length) } : {}),
          ...options.headers,
        },
        timeout: 15_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            reused: req.reusedSocket,
            socket: req.socket,
          }),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer in 15 s (stalled connection)`)));
    req.on("error", (error: NodeJS.ErrnoException) => {
      // A client still writing a body the server refused may see its write end early.
      if (error.code === "EPIPE" || error.code === "ECONNRESET") return;
      reject(error);
    });
    if (body && options.declared === undefined) req.end(body);
    else if (body) req.write(body);
    else req.end();
  });
}

const bearer = () => ({ authorization: `Bearer ${token}` });
const twoMb = "x".repeat(2 * 1024 * 1024);

describe("an early answer leaves the connection usable", () => {
  it("answers the next request on the same socket after a 413, a 401 and a 415 that left a 2 MB body unread", async () => {
    const first = await send("GET", "/v1/me", { headers: bearer() });
    expect(first.status).toBe(200);

    const tooLarge = await send("POST", "/v1/businesses", {
      headers: { ...bearer(), "content-type": "application/json", "idempotency-key": "early-413" },
      body: JSON.stringify({ name: twoMb }),
    });
    expect(tooLarge.status).toBe(413);
    const afterTooLarge = await send("GET", "/v1/me", { headers: bearer() });
    expect(afterTooLarge.status).toBe(200);
    expect(afterTooLarge.reused).toBe(true);

    const unauthenticated = await send("POST", "/v1/businesses", {
      headers: { authorization: "Bearer not-a-token", "content-type": "application/json" },
      body: twoMb,
    });
    expect(unauthenticated.status).toBe(401);
    const afterUnauthenticated = await send("GET", "/v1/me", { headers: bearer() });
    expect(afterUnauthenticated.status).toBe(200);
    expect(afterUnauthenticated.reused).toBe(true);

    const mcpTooLarge = await send("POST", "/mcp", {
      headers: { ...bearer(), "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: twoMb,
    });
    expect(mcpTooLarge.status).toBe(413);
    const afterMcp = await send("GET", "/v1/me", { headers: bearer() });
    expect(afterMcp.status).toBe(200);
    expect(afterMcp.reused).toBe(true);

    const unsupported = await send("POST", "/v1/imports", {
      headers: { ...bearer(), "content-type": "text/csv", "idempotency-key": "early-415" },
      body: twoMb,
    });
    expect(unsupported.status).toBe(415);
    expect((await send("GET", "/v1/me", { headers: bearer() })).status).toBe(200);
  });

  it("closes the connection when the declared body is past what it would read to keep it", async () => {
    const answer = await send("POST", "/v1/businesses", {
      headers: { ...bearer(), "content-type": "application/json", "idempotency-key": "early-huge" },
      body: twoMb,
      declared: DRAIN_MAX_BYTES + 1,
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe("close");
    const next = await send("GET", "/v1/me", { headers: bearer() });
    expect(next.status).toBe(200);
    expect(next.reused).toBe(false);
  });
});

describe("JSON nested past 64 levels is one rule on /v1 and /mcp", () => {
  const deep = (levels: number) => `{"a":${"[".repeat(levels)}1${"]".repeat(levels)}}`;

  it("answers 400 validation_error on /v1, and a JSON-RPC -32600 carrying validation_error on /mcp; 100,000 levels too", async () => {
    for (const levels of [65, 100_000]) {
      const v1 = await send("POST", "/v1/businesses", {
        headers: { ...bearer(), "content-type": "application/json", "idempotency-key": `deep-${levels}` },
        body: deep(levels),
      });
      expect(v1.status).toBe(400);
      expect(JSON.parse(v1.body).error.code).toBe("validation_error");

      const message = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_agent_me","arguments":${deep(levels)}}}`;
      const mcp = await send("POST", "/mcp", {
        headers: { ...bearer(), "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: message,
      });
      expect(mcp.status, mcp.body).toBe(400);
      const rpc = JSON.parse(mcp.body);
      expect(rpc).toMatchObject({ jsonrpc: "2.0", error: { code: -32600, data: { code: "validation_error" } } });
      expect(rpc.error.data.issues[0]).toMatchObject({ code: "too_deep" });
      expect(rpc.error.data.request_id).toMatch(/^req_/);
    }
    const notJson = await send("POST", "/mcp", {
      headers: { ...bearer(), "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{not json",
    });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error).toMatchObject({ code: -32700, data: { code: "validation_error" } });
  });
});

describe("/mcp and the Origin header (Streamable HTTP)", () => {
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "origin-test", version: "1" } },
  });
  const mcpHeaders = (extra: Record<string, string> = {}) => ({
    ...bearer(),
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...extra,
  });

  it("refuses a foreign page's Origin with 403 csrf_rejected, and promises no list-change notifications", async () => {
    const foreign = await send("POST", "/mcp", { headers: mcpHeaders({ origin: "http://evil.example" }), body: initialize });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.code).toBe("csrf_rejected");

    const plain = await send("POST", "/mcp", { headers: mcpHeaders(), body: initialize });
    expect(plain.status, plain.body).toBe(200);
    const capabilities = JSON.parse(plain.body).result.capabilities;
    expect(capabilities.tools?.listChanged ?? false).toBe(false);
    expect(capabilities.resources?.listChanged ?? false).toBe(false);
  });
});
