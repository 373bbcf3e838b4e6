// A /v1 request handed straight from Node's HTTP server (scripts/serve.mjs) to the REST layer's
// handler, past Next.js's request pipeline. The handler is the very function Next.js calls for
// app/v1/[[...path]]/route.ts (the route registers it here when Next.js first loads it); what
// Next.js did around it, for a route that renders nothing, was routing, a NextRequest, web-stream
// piping into the socket and a gzip stream for every answer, even a 200-byte one: 3–4 ms of a
// call (p50, interleaved A/B on the 100,000-event bench ledger: GET /v1/me 9.0 → 5.3 ms, the
// 90-day forecast 35.9 → 32.2 ms). The answer is the same: the headers next.config.mjs puts on
// /v1 (API_SECURITY_HEADERS; a test keeps the two lists equal), gzip when the client accepts it
// and the body is worth it (as Next's compression would), long bodies streamed (CSV exports).
//
// Only plain paths take this way (isDirectV1Path): anything Next.js would normalise or
// redirect first (a trailing slash, an empty, dot or percent-encoded segment) still goes
// through Next.js, as does every request before the route has been loaded once.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import zlib from "node:zlib";
import Negotiator from "negotiator";
import { INTERNAL_ERROR_WITHOUT_KEY_MESSAGE } from "../errors/app-error";
import { errorFields, log } from "../log";

/**
 * Where routes leave their dispatchers for scripts/serve.mjs, by name (a global Map: the server
 * entry is plain JavaScript outside the bundle): "v1", and the benchmark's bare routes.
 */
export const NODE_DISPATCH_KEY = Symbol.for("finance-back-office.node-dispatch");

/** What next.config.mjs sets on every /v1 answer (its API_SECURITY_HEADERS; node-dispatch.test.ts compares them). */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
};

/** Bodies shorter than this go as they are (the `compression` middleware's default threshold, 1 KiB). */
export const GZIP_FROM_BYTES = 1024;

export type TWebHandler = (request: Request) => Promise<Response>;
/** Takes the request (answering it asynchronously) and returns true, or returns false and leaves it to Next.js. */
export type TNodeDispatch = (req: IncomingMessage, res: ServerResponse) => boolean;

const gzip = promisify(zlib.gzip);

/** One plain segment: unreserved and sub-delimiter characters, no percent-encoding. */
const PLAIN_SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]+$/;

/**
 * A path Next.js hands to the /v1 route unchanged: `/v1/…` with plain segments, none empty,
 * `.` or `..`, and no trailing slash (Next.js redirects that one).
 */
export function isDirectV1Path(url: string): boolean {
  const path = url.split("?", 1)[0]!;
  if (!path.startsWith("/v1/")) return false;
  return path
    .slice(1)
    .split("/")
    .every((segment) => segment !== "." && segment !== ".." && PLAIN_SEGMENT.test(segment));
}

/** Whether an answer of this type is worth compressing (JSON, text, XML, YAML; not an event stream, whose events must not wait in a gzip buffer). */
function isCompressible(contentType: string | null): boolean {
  const essence = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (essence === "text/event-stream") return false;
  return (
    essence.startsWith("text/") || /^application\/(?:json|xml|yaml|javascript|(?:[a-z0-9!#$&^_.-]+\+)(?:json|xml))$/.test(essence)
  );
}

/** A Host the URL may be built on: a name or address, with a port or not. */
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The request's URL: its own path and query, on the Host it named when that is a plain host
 * (nothing downstream reads /v1's host), else on localhost, so that a forged Host ("a b",
 * "evil/x?") can neither fail the request nor move its path into the query.
 */
function requestUrl(req: IncomingMessage): string {
  const host = req.headers.host;
  return `http://${host && PLAIN_HOST.test(host) ? host : "localhost"}${req.url ?? "/"}`;
}

/**
 * The request body as a web stream that reads the socket only when the handler reads it, and
 * leaves the rest there when the handler stops (a 413 at the cap, a 401 before the body): the
 * server entry then reads and discards it (scripts/serve.mjs settleUnreadBody), so the client's
 * next request on the connection is answered. (Readable.toWeb reads ahead into a queue of its
 * own and destroys the request when cancelled, which reset or stalled keep-alive clients.)
 */
function requestBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks = req.iterator({ destroyOnReturn: false });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else {
          const chunk = next.value as Buffer;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        }
      },
      async cancel() {
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

function toWebRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(requestUrl(req), {
    method,
    headers,
    signal,
    ...(hasBody ? { body: requestBody(req), duplex: "half" } : {}),
  } as RequestInit);
}

/** The response's headers for Node: the API security headers first, the handler's over them; Set-Cookie kept apart. */
function nodeHeaders(response: Response): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = { ...API_SECURITY_HEADERS };
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  return headers;
}

function addVary(headers: Record<string, string | string[]>, value: string) {
  const existing = headers.vary;
  const list = typeof existing === "string" ? existing.split(",").map((part) => part.trim()) : [];
  if (!list.some((part) => part.toLowerCase() === value.toLowerCase() || part === "*")) list.push(value);
  headers.vary = list.filter(Boolean).join(", ");
}

async function send(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const headers = nodeHeaders(response);
  const compressible = isCompressible(response.headers.get("content-type")) && !response.headers.has("content-encoding");
  if (compressible) addVary(headers, "Accept-Encoding");
  const acceptsGzip = compressible && new Negotiator(req).encoding(["gzip", "identity"]) === "gzip";

  if (!response.body || req.method === "HEAD") {
    res.writeHead(response.status, headers);
    res.end();
    await response.body?.cancel();
    return;
  }

  // Most answers are one string: they arrive whole in the first read, and go with their length.
  const reader = response.body.getReader();
  const first = await reader.read();
  const second = first.done ? first : await reader.read();
  if (second.done) {
    let body: Buffer = first.done ? Buffer.alloc(0) : Buffer.from(first.value);
    if (acceptsGzip && body.length >= GZIP_FROM_BYTES) {
      body = await gzip(body);
      headers["content-encoding"] = "gzip";
    }
    headers["content-length"] = String(body.length);
    res.writeHead(response.status, headers);
    res.end(body);
    return;
  }

  // A long body (a CSV export) is streamed as it comes, gzipped on the way when accepted.
  async function* chunks() {
    yield (first as ReadableStreamReadResult<Uint8Array>).value!;
    yield (second as ReadableStreamReadResult<Uint8Array>).value!;
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      yield next.value;
    }
  }
  delete headers["content-length"];
  if (acceptsGzip) headers["content-encoding"] = "gzip";
  res.writeHead(response.status, headers);
  try {
    if (acceptsGzip) await pipeline(Readable.from(chunks()), zlib.createGzip(), res);
    else await pipeline(Readable.from(chunks()), res);
  } catch (error) {
    // The client went away (or the body failed): stop reading the handler's stream.
    await reader.cancel(error).catch(() => {});
    if (!res.destroyed) res.destroy();
  }
}

/**
 * The last resort when the handler itself throws (the REST layer answers its own errors): the
 * contract's error body, and a line in the structured log (which masks secrets).
 */
function sendInternalError(req: IncomingMessage, res: ServerResponse, error: unknown) {
  log.error("request failed before an answer", { method: req.method, url: req.url, ...errorFields(error) });
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { code: "internal_error", message: INTERNAL_ERROR_WITHOUT_KEY_MESSAGE } });
  res.writeHead(500, {
    ...API_SECURITY_HEADERS,
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "content-length": String(Buffer.byteLength(body)),
  });
  res.end(body);
}

/** The methods the routes export; any other is Next.js's to refuse (405). */
const ROUTE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** A dispatcher that takes the requests `accepts` names (by default the plain /v1 paths: isDirectV1Path) to `handler`. */
export function createNodeDispatch(handler: TWebHandler, accepts: (url: string) => boolean = isDirectV1Path): TNodeDispatch {
  return (req, res) => {
    if (!ROUTE_METHODS.has(req.method ?? "") || !accepts(req.url ?? "")) return false;
    // Aborted when the client goes away before the answer is sent (as Next.js's request signal).
    const controller = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    void (async () => {
      try {
        await send(req, res, await handler(toWebRequest(req, controller.signal)));
      } catch (error) {
        sendInternalError(req, res, error);
      }
    })();
    return true;
  };
}

/** The dispatchers routes registered, by name (the Map scripts/serve.mjs reads). */
export function nodeDispatchers(): Map<string, TNodeDispatch> {
  const holder = globalThis as Record<symbol, Map<string, TNodeDispatch> | undefined>;
  holder[NODE_DISPATCH_KEY] ??= new Map();
  return holder[NODE_DISPATCH_KEY];
}

/**
 * Called by a route module when Next.js loads it: later requests `accepts` takes (by default the
 * plain /v1 paths) reach `handler` without Next.js's pipeline. Registering a name again replaces it.
 */
export function registerNodeDispatch(
  name: string,
  handler: TWebHandler,
  accepts: (url: string) => boolean = isDirectV1Path,
): void {
  nodeDispatchers().set(name, createNodeDispatch(handler, accepts));
}
