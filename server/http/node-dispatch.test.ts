// The /v1 dispatcher of the server entry (node-dispatch.ts), over real HTTP: a node:http server
// on 127.0.0.1 hands requests to it exactly as scripts/serve.mjs does, and a real client reads
// the raw answers (status, headers, bytes, gzip or not, streamed or not).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { NextConfig } from "next";
import * as serverEntry from "../../scripts/serve.mjs";
import {
  API_SECURITY_HEADERS,
  createNodeDispatch,
  GZIP_FROM_BYTES,
  isDirectV1Path,
  NODE_DISPATCH_KEY,
  nodeDispatchers,
  registerNodeDispatch,
  type TWebHandler,
} from "./node-dispatch";

type TRawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

const servers: http.Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  nodeDispatchers().clear();
});

/** A server that gives `handler` what the dispatcher takes, and answers 418 for what it leaves to Next.js. */
async function serve(handler: TWebHandler): Promise<string> {
  const dispatch = createNodeDispatch(handler);
  const server = http.createServer((req, res) => {
    serverEntry.stampSocketAddress(req);
    if (dispatch(req, res)) return;
    res.writeHead(418).end("left to Next.js");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A raw request: no automatic decompression, every byte as sent. */
function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<TRawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? "GET", headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    ...init,
    headers: { "content-type": "application/json; charset=utf-8", ...(init.headers as Record<string, string>) },
  });

describe("isDirectV1Path", () => {
  it.each([
    ["/v1/me", true],
    ["/v1/businesses/0b7c1f3e-5a7d-4f0e-9a57-1f1f7c1f3e5a/forecast?horizon=90", true],
    ["/v1/webhooks/generic/abc?x=1/2", true],
    ["/v1/auth/magic-link", true],
    ["/v1", false],
    ["/v1/", false],
    ["/v1/me/", false],
    ["/v1//me", false],
    ["/v1/./me", false],
    ["/v1/../api/trpc", false],
    ["/v1/%2e%2e/api", false],
    ["/v1/me%2Fx", false],
    ["/v1/me\\x", false],
    ["/v1x/me", false],
    ["/api/trpc/me.get", false],
    ["/overview", false],
  ])("%s → %s", (url, expected) => {
    expect(isDirectV1Path(url)).toBe(expected);
  });
});

describe("the /v1 dispatcher of the server entry", () => {
  it("sends the API security headers of next.config.mjs, and both ends agree on where the dispatcher lives", async () => {
    const { default: nextConfig } = (await import("../../next.config.mjs" as string)) as { default: NextConfig };
    const rules = await nextConfig.headers!();
    for (const source of ["/v1/:path*", "/v1"]) {
      const rule = rules.find((entry) => entry.source === source)!;
      expect(Object.fromEntries(rule.headers.map(({ key, value }) => [key.toLowerCase(), value]))).toEqual(API_SECURITY_HEADERS);
    }
    expect(serverEntry.NODE_DISPATCH_KEY).toBe(NODE_DISPATCH_KEY);
  });

  it("answers a short body as it is, with its length, the handler's headers and the security headers", async () => {
    const url = await serve(async () => json({ data: { ok: true } }, { status: 201, headers: { "x-request-id": "req_1" } }));
    const answer = await request(`${url}/v1/things`, { headers: { "accept-encoding": "gzip" } });
    expect(answer.status).toBe(201);
    expect(answer.body.toString()).toBe('{"data":{"ok":true}}');
    expect(answer.headers).toMatchObject({
      ...API_SECURITY_HEADERS,
      "content-type": "application/json; charset=utf-8",
      "content-length": String(answer.body.length),
      "x-request-id": "req_1",
      vary: "Accept-Encoding",
    });
    expect(answer.headers["content-encoding"]).toBeUndefined();
  });

  it("gzips a longer body when the client accepts gzip, and only then", async () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ id: i, amount_minor: 9_007_199_254_740_991 - i, note: "é\u0000€" }));
    const url = await serve(async () => json({ data: items }));
    const plain = JSON.stringify({ data: items });
    expect(Buffer.byteLength(plain)).toBeGreaterThan(GZIP_FROM_BYTES);

    const zipped = await request(`${url}/v1/things`, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers["content-length"]).toBe(String(zipped.body.length));
    expect(gunzipSync(zipped.body).toString("utf8")).toBe(plain);

    for (const acceptEncoding of [undefined, "identity", "gzip;q=0, identity", "br"]) {
      const answer = await request(`${url}/v1/things`, { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} });
      expect(answer.headers["content-encoding"], String(acceptEncoding)).toBeUndefined();
      expect(answer.body.toString("utf8")).toBe(plain);
    }
  });

  it("never compresses what is not text, nor what the handler encoded itself", async () => {
    const bytes = Buffer.alloc(4096, 7);
    const url = await serve(async (req) =>
      new URL(req.url).pathname === "/v1/binary"
        ? new Response(bytes, { headers: { "content-type": "application/octet-stream" } })
        : new Response(bytes, { headers: { "content-type": "text/plain", "content-encoding": "br" } }),
    );
    for (const path of ["/v1/binary", "/v1/encoded"]) {
      const answer = await request(`${url}${path}`, { headers: { "accept-encoding": "gzip" } });
      expect(answer.body.equals(bytes), path).toBe(true);
      expect(answer.headers.vary, path).toBeUndefined();
    }
  });

  it("streams a body that comes in parts (a CSV export), gzipped on the way when accepted", async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `2026-12-${String((i % 28) + 1).padStart(2, "0")},row ${i},"=SUM(A1)"\n`);
    const handler: TWebHandler = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          async start(controller) {
            for (const line of lines) {
              controller.enqueue(new TextEncoder().encode(line));
              await new Promise((resolve) => setTimeout(resolve, 1));
            }
            controller.close();
          },
        }),
        { headers: { "content-type": "text/csv; charset=utf-8" } },
      );
    const url = await serve(handler);
    const plain = await request(`${url}/v1/export`);
    expect(plain.headers["transfer-encoding"]).toBe("chunked");
    expect(plain.headers["content-length"]).toBeUndefined();
    expect(plain.body.toString()).toBe(lines.join(""));
    const zipped = await request(`${url}/v1/export`, { headers: { "accept-encoding": "gzip" } });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(zipped.body).toString()).toBe(lines.join(""));
  });

  it("hands the handler the method, path and query, every header (the stamped socket address too) and the body byte for byte", async () => {
    let seen: { method: string; url: string; headers: Record<string, string>; body: Buffer } | undefined;
    const url = await serve(async (req) => {
      seen = {
        method: req.method,
        url: req.url,
        headers: Object.fromEntries(req.headers),
        body: Buffer.from(await req.arrayBuffer()),
      };
      return new Response(null, { status: 204 });
    });
    const body = Buffer.from([0x7b, 0x00, 0xff, 0xe2, 0x82, 0xac, 0x7d]);
    const answer = await request(`${url}/v1/imports?dry_run=true`, {
      method: "POST",
      headers: { "content-type": "text/csv", "idempotency-key": "k-1", "x-fbo-socket-address": "203.0.113.9" },
      body,
    });
    expect(answer.status).toBe(204);
    expect(answer.body.length).toBe(0);
    expect(seen!.method).toBe("POST");
    expect(new URL(seen!.url).pathname + new URL(seen!.url).search).toBe("/v1/imports?dry_run=true");
    expect(seen!.headers).toMatchObject({ "content-type": "text/csv", "idempotency-key": "k-1" });
    // The client's copy of the socket-address header is replaced by the real peer.
    expect(seen!.headers[serverEntry.SOCKET_ADDRESS_HEADER]).toBe("127.0.0.1");
    expect(seen!.body.equals(body)).toBe(true);
  });

  it("a forged or malformed Host header neither fails the request nor moves its path", async () => {
    const seen: string[] = [];
    const url = await serve(async (req) => {
      seen.push(new URL(req.url).pathname + new URL(req.url).search);
      return new Response(null, { status: 204 });
    });
    for (const host of ["a b", "evil.example/x?", "evil.example#", "user@evil.example", "[::1", "", "127.0.0.1:80"]) {
      const answer = await request(`${url}/v1/imports?dry_run=true`, { headers: { host } });
      expect(answer.status, JSON.stringify(host)).toBe(204);
    }
    expect(new Set(seen)).toEqual(new Set(["/v1/imports?dry_run=true"]));
    expect(seen).toHaveLength(7);
  });

  it("answers HEAD with the headers and no body", async () => {
    const url = await serve(async () => json({ data: "x".repeat(5000) }));
    const answer = await request(`${url}/v1/things`, { method: "HEAD", headers: { "accept-encoding": "gzip" } });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(0);
    expect(answer.headers["x-frame-options"]).toBe("DENY");
  });

  it("leaves every other path, and any method the routes do not export, to Next.js", async () => {
    const url = await serve(async () => json({ data: null }));
    for (const path of ["/v1/me/", "/v1/%2e%2e/x", "/overview", "/api/trpc/me.get"]) {
      expect((await request(`${url}${path}`)).status, path).toBe(418);
    }
    expect((await request(`${url}/v1/me`, { method: "PROPFIND" })).status).toBe(418);
    expect((await request(`${url}/v1/me`, { method: "OPTIONS" })).status).toBe(200);
  });

  it("answers the contract's internal_error body if the handler itself throws, and logs it with secrets masked", async () => {
    const url = await serve(async () => {
      throw new Error("boom for agt_live_0123456789abcdef");
    });
    const lines: string[] = [];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    vi.stubEnv("LOG_LEVEL", "error");
    try {
      const answer = await request(`${url}/v1/things`);
      expect(answer.status).toBe(500);
      expect(JSON.parse(answer.body.toString())).toEqual({
        error: { code: "internal_error", message: expect.stringMatching(/on our side/) },
      });
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    } finally {
      stderr.mockRestore();
      vi.unstubAllEnvs();
    }
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([
      expect.objectContaining({ level: "error", method: "GET", url: "/v1/things", error: "boom for agt_[redacted]" }),
    ]);
  });

  it("aborts the request's signal when the client goes away before the answer", async () => {
    let aborted: Promise<boolean> | undefined;
    const url = await serve(
      (req) =>
        new Promise<Response>((resolve) => {
          aborted = new Promise((done) => req.signal.addEventListener("abort", () => done(true)));
          setTimeout(() => resolve(json({ data: "late" })), 2_000);
        }),
    );
    const req = http.request(`${url}/v1/slow`);
    req.on("error", () => {});
    req.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    req.destroy();
    expect(await aborted).toBe(true);
  });

  it("is reached from the server entry only once a route registered it, and never in development", async () => {
    let calls = 0;
    const server = http.createServer((req, res) => {
      if (serverEntry.dispatchDirectly(req, res, { dev: req.headers["x-dev"] === "1" })) return;
      res.writeHead(418).end();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await request(`${url}/v1/me`)).status).toBe(418);
    registerNodeDispatch("v1", async () => {
      calls += 1;
      return new Response(null, { status: 204 });
    });
    expect((await request(`${url}/v1/me`)).status).toBe(204);
    expect((await request(`${url}/v1/me`, { headers: { "x-dev": "1" } })).status).toBe(418);
    expect((await request(`${url}/overview`)).status).toBe(418);
    // A second name takes its own paths; the first keeps its own.
    registerNodeDispatch(
      "other",
      async () => new Response(null, { status: 202 }),
      (path) => path.startsWith("/other/"),
    );
    expect((await request(`${url}/other/x`)).status).toBe(202);
    expect((await request(`${url}/v1/me`)).status).toBe(204);
    expect(calls).toBe(2);
  });
});
