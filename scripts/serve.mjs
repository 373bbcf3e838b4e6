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

async function main() {
  const dev = process.argv.includes("--dev");
  // As `next start` / `next dev` set it, before Next.js loads.
  process.env.NODE_ENV = dev ? "development" : "production";
  const port = Number(process.env.PORT ?? 3000);
  const { default: next } = await import("next");
  const app = next({ dev, dir: process.cwd(), port });
  const handle = app.getRequestHandler();
  await app.prepare();

  const server = http.createServer((req, res) => {
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

  const stop = () => {
    server.close(() => process.exit(0));
    // Keep-alive connections would hold close() open.
    server.closeAllConnections();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}
