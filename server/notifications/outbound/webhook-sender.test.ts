// Real receivers on 127.0.0.1 (allow-listed, as OUTBOUND_ALLOW_HOSTS would in a local setup): the
// signature is checked with an HMAC computed here, not with signWebhook, and every failure mode
// the delivery job records is produced by a real socket.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { TLookup } from "./url-policy";
import { DELIVERY_ERRORS, sendWebhook, WEBHOOK_USER_AGENT } from "./webhook-sender";

const SECRET = "whsec_Jq0sVw7bY9kQ2Zr4nP8xL1cT5mH3dF6gA0eU7iO2wRs";
const EVENT_ID = "0b9d1c52-7a43-4f0e-9a51-3c2e8d7f6a10";
// Non-ASCII on purpose: the bytes on the wire, the Content-Length and the signature must agree.
const BODY = JSON.stringify({
  id: EVENT_ID,
  type: "notification.created",
  created_at: "2026-01-01T00:00:00.000Z",
  data: { title: "Runway under 30 days — café Müller", body: "€ 1 234,56 ✓" },
});
// Milliseconds on purpose: the timestamp is the Unix second, truncated.
const NOW = new Date("2026-01-01T08:00:00.987Z");
const NOW_SECONDS = Math.floor(Date.UTC(2026, 0, 1, 8, 0, 0) / 1000);
const LOCAL = { allowHosts: ["127.0.0.1"] };
// A test-only self-signed certificate (localhost, receiver.test, 127.0.0.1; valid to 2126), made with
// `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500 -subj /CN=localhost
// -addext subjectAltName=DNS:localhost,DNS:receiver.test,IP:127.0.0.1`. Nothing trusts it: that is the point.
const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), "__fixtures__");

type TReceived = { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer };
type TReceiver = { port: number; received: TReceived[]; url: (path?: string) => string };

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** An HTTP receiver that records each request (raw body bytes) and answers with `respond`. */
async function startReceiver(
  respond: (request: http.IncomingMessage, response: http.ServerResponse, body: Buffer) => void = (_q, response) =>
    response.writeHead(200).end("ok"),
): Promise<TReceiver> {
  const received: TReceived[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      received.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body });
      respond(request, response, body);
    });
  });
  const port = await listen(server);
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { port, received, url: (p = "/hooks/notifications") => `http://127.0.0.1:${port}${p}` };
}

/** A raw TCP listener, for peers that accept and then misbehave. */
async function startTcp(onConnection: (socket: net.Socket) => void): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    onConnection(socket);
  });
  const port = await listen(server);
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return port;
}

function send(url: string, extra: Partial<Parameters<typeof sendWebhook>[0]> = {}) {
  return sendWebhook({ url, secret: SECRET, body: BODY, eventId: EVENT_ID, now: NOW, ...LOCAL, ...extra });
}

describe("sendWebhook: a delivery", () => {
  it("POSTs the body byte for byte with the signed headers, verified with an independent HMAC", async () => {
    const receiver = await startReceiver((_q, response) => response.writeHead(200).end());
    const outcome = await send(receiver.url("/hooks/notifications?tenant=a"));

    expect(outcome).toEqual({ status: "delivered", httpStatus: 200 });
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("/hooks/notifications?tenant=a");
    expect(request!.body.equals(Buffer.from(BODY, "utf8"))).toBe(true);

    const { headers } = request!;
    expect(headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(headers["content-length"]).toBe(String(Buffer.byteLength(BODY, "utf8")));
    expect(headers["user-agent"]).toBe(WEBHOOK_USER_AGENT);
    expect(headers["host"]).toBe(`127.0.0.1:${receiver.port}`);
    expect(headers["x-service-event-id"]).toBe(EVENT_ID);
    expect(headers["x-service-timestamp"]).toBe(String(NOW_SECONDS));

    // What a receiver does: HMAC-SHA256 over "<timestamp>.<raw body bytes>" with the secret.
    const timestamp = headers["x-service-timestamp"] as string;
    const expected = createHmac("sha256", SECRET)
      .update(Buffer.concat([Buffer.from(`${timestamp}.`, "utf8"), request!.body]))
      .digest("hex");
    expect(headers["x-service-signature"]).toBe(`sha256=${expected}`);
  });

  it.each([200, 201, 202, 204, 299])("counts %i as delivered", async (status) => {
    const receiver = await startReceiver((_q, response) => response.writeHead(status).end());
    await expect(send(receiver.url())).resolves.toEqual({ status: "delivered", httpStatus: status });
  });

  it.each([400, 401, 404, 410, 429, 500, 502, 503])("records %i as http_<status>", async (status) => {
    const receiver = await startReceiver((_q, response) => response.writeHead(status).end("nope"));
    await expect(send(receiver.url())).resolves.toEqual({ status: "failed", error: `http_${status}` });
  });

  it("reads only a little of a response that does not end, and hangs up", async () => {
    let closed = false;
    const receiver = await startReceiver((_q, response) => {
      response.writeHead(200, { "Content-Type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "x");
      const timer = setInterval(() => response.write(chunk), 5);
      response.on("close", () => {
        closed = true;
        clearInterval(timer);
      });
    });
    const started = Date.now();
    await expect(send(receiver.url(), { timeoutMs: 5_000 })).resolves.toEqual({ status: "delivered", httpStatus: 200 });
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect.poll(() => closed, { timeout: 2_000 }).toBe(true);
  });
});

describe("sendWebhook: no redirects", () => {
  it.each([301, 302, 303, 307, 308])("refuses a %i and sends nothing to its Location", async (status) => {
    const target = await startReceiver();
    const redirecting = await startReceiver((_q, response) =>
      response.writeHead(status, { Location: target.url("/stolen") }).end(),
    );
    const outcome = await send(redirecting.url(), { allowHosts: ["127.0.0.1"] });
    expect(outcome).toEqual({ status: "failed", error: "redirect_refused" });
    expect(redirecting.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
  });

  it("refuses a redirect to a private address (the metadata service)", async () => {
    const redirecting = await startReceiver((_q, response) =>
      response.writeHead(302, { Location: "http://169.254.169.254/latest/meta-data/" }).end(),
    );
    await expect(send(redirecting.url())).resolves.toEqual({ status: "failed", error: "redirect_refused" });
  });
});

describe("sendWebhook: refused before connecting", () => {
  it("refuses a private address that is not allow-listed, and the receiver hears nothing", async () => {
    const receiver = await startReceiver();
    await expect(send(receiver.url().replace("http:", "https:"), { allowHosts: [] })).resolves.toEqual({
      status: "failed",
      error: "address_refused",
    });
    await expect(send(receiver.url(), { allowHosts: [] })).resolves.toEqual({
      status: "failed",
      error: "address_refused",
    });
    expect(receiver.received).toHaveLength(0);
  });

  it("refuses a name that now resolves to a private address", async () => {
    const lookup: TLookup = async () => [{ address: "10.0.0.5", family: 4 }];
    await expect(send("https://hooks.example.com/n", { allowHosts: [], lookup })).resolves.toEqual({
      status: "failed",
      error: "address_refused",
    });
  });

  it("answers dns_failed for a name that does not resolve, allow-listed or not", async () => {
    const lookup: TLookup = async (hostname) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    };
    await expect(send("https://gone.example.com/n", { allowHosts: [], lookup })).resolves.toEqual({
      status: "failed",
      error: "dns_failed",
    });
    await expect(send("http://receiver.test/n", { allowHosts: ["receiver.test"], lookup })).resolves.toEqual({
      status: "failed",
      error: "dns_failed",
    });
  });

  it("answers address_refused for a URL the rules no longer accept (scheme, credentials, not absolute)", async () => {
    for (const url of ["http://93.184.216.34/n", "https://u:p@93.184.216.34/n", "not a url"]) {
      await expect(send(url, { allowHosts: [] })).resolves.toEqual({ status: "failed", error: "address_refused" });
    }
  });
});

describe("sendWebhook: connects to the checked address", () => {
  it("resolves the name once, for the check, and keeps the name as the Host header", async () => {
    const receiver = await startReceiver();
    // A rebinding resolver: the first answer is the receiver, later ones point elsewhere. The
    // system resolver does not know receiver.test (a reserved name) at all.
    const answers: string[] = [];
    const lookup: TLookup = async () => {
      const address = answers.length === 0 ? "127.0.0.1" : "10.255.255.1";
      answers.push(address);
      return [{ address, family: 4 }];
    };
    const outcome = await send(`http://receiver.test:${receiver.port}/n`, { allowHosts: ["receiver.test"], lookup });

    expect(outcome).toEqual({ status: "delivered", httpStatus: 200 });
    expect(answers).toEqual(["127.0.0.1"]);
    expect(receiver.received[0]!.headers["host"]).toBe(`receiver.test:${receiver.port}`);
  });

  it("checks again on every attempt", async () => {
    const receiver = await startReceiver();
    let calls = 0;
    const lookup: TLookup = async () => {
      calls += 1;
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const url = `http://receiver.test:${receiver.port}/n`;
    await send(url, { allowHosts: ["receiver.test"], lookup });
    await send(url, { allowHosts: ["receiver.test"], lookup });
    expect(calls).toBe(2);
    expect(receiver.received).toHaveLength(2);
  });

  it("sends the name, not the address, as the TLS server name", async () => {
    const serverNames: string[] = [];
    const server = https.createServer({
      key: readFileSync(path.join(FIXTURES, "self-signed-localhost.key.pem")),
      cert: readFileSync(path.join(FIXTURES, "self-signed-localhost.cert.pem")),
      SNICallback: (name, callback) => {
        serverNames.push(name);
        callback(null);
      },
    });
    const port = await listen(server);
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const lookup: TLookup = async () => [{ address: "127.0.0.1", family: 4 }];

    // The certificate is self-signed, so the handshake fails after the server saw the name.
    await expect(send(`https://receiver.test:${port}/n`, { allowHosts: ["receiver.test"], lookup })).resolves.toEqual({
      status: "failed",
      error: "tls_failed",
    });
    expect(serverNames).toEqual(["receiver.test"]);
  });
});

describe("sendWebhook: network failures", () => {
  it("times out on a receiver that never answers", async () => {
    const receiver = await startReceiver(() => undefined);
    const started = Date.now();
    await expect(send(receiver.url(), { timeoutMs: 200 })).resolves.toEqual({ status: "failed", error: "timeout" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(receiver.received).toHaveLength(1);
  });

  it("times out on a TLS handshake that never finishes", async () => {
    const port = await startTcp(() => undefined);
    await expect(send(`https://127.0.0.1:${port}/n`, { timeoutMs: 200 })).resolves.toEqual({
      status: "failed",
      error: "timeout",
    });
  });

  it("times out on a resolver that never answers", async () => {
    const lookup: TLookup = () => new Promise(() => undefined);
    await expect(send("https://slow.example.com/n", { allowHosts: [], lookup, timeoutMs: 200 })).resolves.toEqual({
      status: "failed",
      error: "timeout",
    });
  });

  it("reports connection_failed for a closed port", async () => {
    const port = await startTcp(() => undefined);
    await cleanups.pop()!(); // closed again: nothing listens on the port now
    await expect(send(`http://127.0.0.1:${port}/n`)).resolves.toEqual({ status: "failed", error: "connection_failed" });
  });

  it("reports connection_failed when the receiver hangs up without answering", async () => {
    const port = await startTcp((socket) => socket.once("data", () => socket.destroy()));
    await expect(send(`http://127.0.0.1:${port}/n`)).resolves.toEqual({ status: "failed", error: "connection_failed" });
  });

  it("reports tls_failed for https to a plain HTTP receiver", async () => {
    const receiver = await startReceiver();
    await expect(send(receiver.url().replace("http:", "https:"))).resolves.toEqual({
      status: "failed",
      error: "tls_failed",
    });
  });

  it("reports tls_failed for a self-signed certificate", async () => {
    const server = https.createServer(
      {
        key: readFileSync(path.join(FIXTURES, "self-signed-localhost.key.pem")),
        cert: readFileSync(path.join(FIXTURES, "self-signed-localhost.cert.pem")),
      },
      (_q, response) => response.end("ok"),
    );
    const port = await listen(server);
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    await expect(send(`https://127.0.0.1:${port}/n`)).resolves.toEqual({ status: "failed", error: "tls_failed" });
  });

  it("names only errors from DELIVERY_ERRORS or http_<status>", () => {
    expect(DELIVERY_ERRORS).toEqual([
      "redirect_refused",
      "timeout",
      "address_refused",
      "dns_failed",
      "connection_failed",
      "tls_failed",
    ]);
  });
});
