// The panel's email sign-in (Auth.js, /api/auth/*) is the same door as /v1: it spends the same
// per-IP login budget as POST /v1/auth/magic-link, its other endpoints the public one, and at
// LOG_LEVEL=debug its adapter's log lines carry no live session token.
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { applyTestEnv, freshClientIp, type TTestApi } from "../helpers/api";
import { loginLinkFrom, type TSmtpSink } from "../helpers/owners";
import { cookieHeader, SIGN_IN_BASE_URL, startSignInWorld, storeCookies } from "../helpers/panel-sign-in";
import type { TCookieJar, TSignInWorld } from "../helpers/panel-sign-in";
import { SOCKET_ADDRESS_HEADER } from "../../server/auth/client-ip";
import { confirmLoginLink } from "../../server/sign-in/login-link";
import { consumeIpLimit, IP_LIMITS } from "../../server/rest/ip-limit";
import { fixedClock } from "../../server/shared/clock";

const BASE_URL = SIGN_IN_BASE_URL;

let world: TSignInWorld;
let api: TTestApi;
let sink: TSmtpSink;
let handlers: ReturnType<(typeof import("../../server/sign-in/authjs"))["authjsHandlers"]>;
// The REST layer and Auth.js's door count the per-IP windows on this clock, which stands still:
// a sequence never straddles two windows (each test spends the budget of fresh addresses).
const clock = fixedClock("2026-11-22T10:00:05Z");

beforeAll(async () => {
  world = await startSignInWorld({ clock });
  ({ api, sink } = world);
  handlers = (await import("../../server/sign-in/authjs")).authjsHandlers(clock);
});
afterAll(async () => {
  applyTestEnv({ LOG_LEVEL: "silent" });
  await world?.close();
});

type TJar = TCookieJar;

async function send(jar: TJar, ip: string, method: "GET" | "POST", url: string, form?: Record<string, string>) {
  const headers = new Headers({
    cookie: cookieHeader(jar),
    [SOCKET_ADDRESS_HEADER]: ip,
  });
  let body: string | undefined;
  if (form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    headers.set("origin", BASE_URL);
    body = new URLSearchParams(form).toString();
  }
  const response = await (method === "GET" ? handlers.GET : handlers.POST)(new NextRequest(url, { method, headers, body }));
  storeCookies(jar, response);
  return response;
}

async function requestMail(ip: string, email: string): Promise<Response> {
  const jar: TJar = new Map();
  const csrf = await send(jar, ip, "GET", `${BASE_URL}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return send(jar, ip, "POST", `${BASE_URL}/api/auth/signin/nodemailer`, { email, csrfToken });
}

describe("Auth.js behind the per-IP door", () => {
  it("refuses a panel sign-in mail from an IP that used its 10 on POST /v1/auth/magic-link", async () => {
    const ip = freshClientIp();
    for (let i = 0; i < IP_LIMITS.login; i++) {
      const rest = await api.call("POST", "/v1/auth/magic-link", {
        token: null,
        body: { email: `rest-${i}@example.test` },
        clientIp: ip,
      });
      expect(rest.status).toBe(202);
    }
    const refused = await requestMail(ip, "panel-door@example.test");
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("10");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await requestMail(freshClientIp(), "panel-door@example.test")).status).toBe(302);
  });

  it("spends the public budget on the callback that spends a login token", async () => {
    const ip = freshClientIp();
    for (let i = 0; i < IP_LIMITS.public; i++) await consumeIpLimit(api.db, "public", ip, clock.now());
    const response = await send(
      new Map(),
      ip,
      "GET",
      `${BASE_URL}/api/auth/callback/nodemailer?token=guess&email=a%40example.test`,
    );
    expect(response.status).toBe(429);
    expect(response.headers.get("x-ratelimit-limit")).toBe("60");
  });
});

describe("Auth.js at LOG_LEVEL=debug", () => {
  it("signs in and reads the session without a live ses_ token in the log", async () => {
    const output: string[] = [];
    const capture = (chunk: string | Uint8Array) => {
      output.push(String(chunk));
      return true;
    };
    applyTestEnv({ LOG_LEVEL: "debug" });
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(capture);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(capture);
    let sessionToken: string | undefined;
    try {
      const ip = freshClientIp();
      const email = "debug-log@example.test";
      const since = sink.messages.length;
      expect((await requestMail(ip, email)).status).toBe(302);
      const jar: TJar = new Map();
      // The mailed link's confirmation page posts it to /api/panel/verify (server/sign-in/login-link.ts).
      const link = new URL(loginLinkFrom(await sink.waitForMail(email, { since })));
      const callback = await confirmLoginLink(
        new Request(`${BASE_URL}/api/panel/verify`, {
          method: "POST",
          headers: {
            origin: BASE_URL,
            "sec-fetch-site": "same-origin",
            "content-type": "application/x-www-form-urlencoded",
            [SOCKET_ADDRESS_HEADER]: ip,
          },
          body: link.searchParams.toString(),
        }),
      );
      expect(callback.status).toBe(303);
      storeCookies(jar, callback);
      sessionToken = jar.get("fbo_token");
      expect(sessionToken).toMatch(/^ses_/);
      // The adapter looks the session up (getSessionAndUser) on the session endpoint.
      expect((await send(jar, ip, "GET", `${BASE_URL}/api/auth/session`)).status).toBe(200);
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
      applyTestEnv({ LOG_LEVEL: "silent" });
    }
    const text = output.join("");
    expect(text).toContain("adapter_createSession");
    expect(text).not.toContain(sessionToken!);
    expect(text).not.toContain(sessionToken!.slice(4));
  });
});
