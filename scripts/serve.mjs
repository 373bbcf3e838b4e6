// The HTTP server in front of Next.js (run by scripts/start.ts instead of `next start`).
//
// It exists for one reason: route handlers get a web Request without the socket, and Next.js
// only fills X-Forwarded-For with the socket's address when the client sent none, so the app
// could not tell the real peer from a forged header. Here, before Next.js sees a request, any
// client copy of the socket-address header is dropped and the socket's address put in its
// place (server/auth/client-ip.ts reads it, and X-Forwarded-For only as far as TRUST_PROXY
// says). Everything else is Next.js's own request handler, as `next start` runs it, but for
// the plain /v1 paths once their route is loaded: those go straight to the REST layer's handler
// (dispatchDirectly; server/http/node-dispatch.ts says why).
//
// Plain JavaScript on purpose: loading it through tsx cost the server process ~100 MB of
// resident memory, which the 100,000-line restart test (512 MB) cannot spare. scripts/start.ts
// has validated the environment before it runs this.
//
//   node scripts/serve.mjs [--dev]      (PORT from the environment; all interfaces)
import http from "node:http";

/** The header server/auth/client-ip.ts trusts (its test keeps the two names equal). */
export const SOCKET_ADDRESS_HEADER = "x-fbo-socket-address";

/**
 * Where routes leave their dispatchers once Next.js has loaded them, by name: app/v1's for the
 * plain /v1 paths (server/http/node-dispatch.ts NODE_DISPATCH_KEY; its test keeps the two equal).
 */
export const NODE_DISPATCH_KEY = Symbol.for("finance-back-office.node-dispatch");

/**
 * Hands the request straight to a registered route handler (a plain /v1 path: the REST layer's)
 * and returns true, or returns false: nothing registered takes it yet, or in development (the
 * routes are reloaded there).
 */
export function dispatchDirectly(req, res, { dev = false } = {}) {
  const dispatchers = dev ? undefined : globalThis[NODE_DISPATCH_KEY];
  if (!dispatchers) return false;
  for (const dispatch of dispatchers.values()) {
    if (dispatch(req, res) === true) return true;
  }
  return false;
}

/** A client's own copy of the header is dropped and the socket's address put in its place. */
export function stampSocketAddress(req) {
  delete req.headers[SOCKET_ADDRESS_HEADER];
  const address = req.socket.remoteAddress;
  if (address) req.headers[SOCKET_ADDRESS_HEADER] = address;
}

/** How much of a body an early answer left unread is read and discarded to keep the connection (more: it is closed). */
export const DRAIN_MAX_BYTES = 32 * 1024 * 1024;
/** How long the rest of such a body may take to arrive before the connection is closed. */
export const DRAIN_MAX_MS = 10_000;

/**
 * An answer sent before the request's body was read (413 at the cap, 401, 415, 404) must not
 * stall the client's next request on the connection (pinned-wave3 §1.5): once the answer is
 * out, the rest of the body is read and discarded, up to DRAIN_MAX_BYTES and DRAIN_MAX_MS;
 * past either the connection is closed. A body declared longer than that is answered with
 * `Connection: close` to begin with, so the client does not reuse the connection.
 */
export function settleUnreadBody(req, res) {
  const declared = Number(req.headers["content-length"] ?? NaN);
  const hasBody = declared > 0 || req.headers["transfer-encoding"] !== undefined;
  if (!hasBody) return;
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    if (!req.complete && !(declared <= DRAIN_MAX_BYTES)) this.setHeader("connection", "close");
    return writeHead.apply(this, args);
  };
  res.once("finish", () => {
    if (req.complete || req.destroyed) return;
    let drained = 0;
    const close = () => {
      clearTimeout(timer);
      req.socket?.destroy();
    };
    const timer = setTimeout(close, DRAIN_MAX_MS);
    timer.unref();
    req.on("data", (chunk) => {
      drained += chunk.length;
      if (drained > DRAIN_MAX_BYTES) close();
    });
    req.once("end", () => clearTimeout(timer));
    req.resume();
  });
}

/** What the app leaves for this entry (server/fleet/install.ts FLEET_HOOKS_KEY): readiness, metrics. */
export const FLEET_HOOKS_KEY = Symbol.for("finance-back-office.fleet-hooks");
/** What must finish before the process exits, after the requests (server/jobs/start-in-server.ts). */
export const SHUTDOWN_HOOKS_KEY = Symbol.for("finance-back-office.shutdown-hooks");

/** The liveness and readiness paths (HAProxy's health check asks /readyz: deploy/haproxy.cfg). */
export const LIVENESS_PATH = "/livez";
export const READINESS_PATH = "/readyz";

function answerJson(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "cache-control": "no-store",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * /livez: the process answers (200). /readyz: 200 when the app is ready (its database answers
 * and holds every migration of this build), 503 with the reason otherwise: "warming up" until
 * its first /v1 request has loaded the REST layer, "draining" from the moment a SIGTERM arrives.
 */
async function answerHealth(req, res, state) {
  const path = (req.url ?? "/").split("?", 1)[0];
  if (path === LIVENESS_PATH) return (answerJson(res, 200, { live: true }), true);
  if (path !== READINESS_PATH) return false;
  if (state.draining) return (answerJson(res, 503, { ready: false, reason: "draining" }), true);
  if (!state.warm) return (answerJson(res, 503, { ready: false, reason: "warming up" }), true);
  const hooks = globalThis[FLEET_HOOKS_KEY];
  const result = hooks ? await hooks.readiness() : { ready: false, reason: "starting" };
  answerJson(res, result.ready ? 200 : 503, result);
  return true;
}

/**
 * The Prometheus endpoint on its own listener (METRICS_PORT), bound to METRICS_HOST (default
 * 127.0.0.1): never on the public port, so nothing behind the balancer can read it.
 */
function startMetricsServer(state) {
  const port = Number(process.env.METRICS_PORT ?? 0);
  if (!port) return null;
  const host = process.env.METRICS_HOST || "127.0.0.1";
  const server = http.createServer((req, res) => {
    if ((req.url ?? "").split("?", 1)[0] !== "/metrics") return answerJson(res, 404, { error: "not found" });
    const hooks = globalThis[FLEET_HOOKS_KEY];
    Promise.resolve(hooks ? hooks.renderMetrics() : "")
      .then((text) => {
        const own = [
          "# HELP fbo_http_in_flight Requests this instance is answering.",
          "# TYPE fbo_http_in_flight gauge",
          `fbo_http_in_flight ${state.inFlight.size}`,
          "# HELP fbo_draining Whether this instance is draining (SIGTERM received).",
          "# TYPE fbo_draining gauge",
          `fbo_draining ${state.draining ? 1 : 0}`,
          "",
        ].join("\n");
        res.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
        res.end(text + own);
      })
      .catch((error) => {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      });
  });
  server.listen(port, host);
  server.unref();
  return server;
}

/** How long a draining instance keeps accepting, answering not ready, so the balancer sees it first. */
function drainDelayMs() {
  return Number(process.env.SHUTDOWN_DRAIN_MS ?? 0);
}
/** How long in-flight requests and jobs may take after SIGTERM before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 30_000;

async function main() {
  const dev = process.argv.includes("--dev");
  // As `next start` / `next dev` set it, before Next.js loads.
  process.env.NODE_ENV = dev ? "development" : "production";
  const port = Number(process.env.PORT ?? 3000);
  // Before Next.js loads the app: its instrumentation (the jobs) registers its shutdown here.
  globalThis[SHUTDOWN_HOOKS_KEY] ??= new Set();
  const { default: next } = await import("next");
  const app = next({ dev, dir: process.cwd(), port });
  const handle = app.getRequestHandler();
  await app.prepare();

  const state = { draining: false, warm: dev, inFlight: new Set() };
  const server = http.createServer((req, res) => {
    state.inFlight.add(res);
    res.once("close", () => state.inFlight.delete(res));
    // Draining: each answer closes its connection, so no keep-alive connection outlives the drain.
    if (state.draining) res.shouldKeepAlive = false;
    if (req.url === LIVENESS_PATH || req.url === READINESS_PATH) {
      void answerHealth(req, res, state);
      return;
    }
    stampSocketAddress(req);
    settleUnreadBody(req, res);
    if (dispatchDirectly(req, res, { dev })) return;
    handle(req, res).catch((error) => {
      console.error(error);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  // Idle keep-alive sockets are closed after 65 s, not Node's 5 s: a client that reuses a socket
  // just as the server closes it gets ECONNRESET (seen once in the e2e run), and proxies in front
  // commonly keep idle sockets for 60 s. Headers must still arrive within the keep-alive time.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Upgrades (dev's hot reload socket) go to Next.js with the same stamp.
  const upgrade = app.getUpgradeHandler();
  server.on("upgrade", (req, socket, head) => {
    stampSocketAddress(req);
    void upgrade(req, socket, head);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, resolve); // every interface, as `next start`
  });
  console.log(`Ready on http://localhost:${port}`);
  // Warm-up: the first /v1 request loads the REST layer's bundle, which held the event loop for
  // seconds on a loaded machine (health checks timed out, and a balancer took the instance out
  // with requests on it). One request to itself first; /readyz says "warming up" until it ends.
  if (!state.warm) {
    http
      .get({ host: "127.0.0.1", port, path: "/v1/openapi.json" }, (response) => {
        response.resume();
        response.once("end", () => (state.warm = true));
      })
      .once("error", () => (state.warm = true));
  }

  startMetricsServer(state);

  // Graceful shutdown: answer not ready at once (the balancer stops sending within its check
  // interval; SHUTDOWN_DRAIN_MS covers that), then stop accepting, let the requests in flight
  // finish (their connections close after the answer), then the jobs (a run in progress ends),
  // then exit. A second signal, or SHUTDOWN_TIMEOUT_MS, exits at once.
  const stop = async () => {
    if (state.draining) process.exit(1);
    state.draining = true;
    const deadline = setTimeout(() => {
      console.error(`Shutdown took over ${SHUTDOWN_TIMEOUT_MS} ms; exiting with ${state.inFlight.size} request(s) in flight.`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    deadline.unref();
    for (const res of state.inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    await new Promise((resolve) => setTimeout(resolve, drainDelayMs()));
    // close() also closes the connections without a request in progress (Node ≥ 19).
    const closed = new Promise((resolve) => server.close(resolve));
    while (state.inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    server.closeAllConnections();
    await closed;
    await Promise.all([...globalThis[SHUTDOWN_HOOKS_KEY]].map((hook) => hook()));
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}
