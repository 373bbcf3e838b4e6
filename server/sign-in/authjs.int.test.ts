// The panel's sign-in through Auth.js's own route handlers, with real parts: csrf → signin →
// the mail through a real SMTP server → callback → the `fbo_token` cookie holding a `ses_`
// session of channel "panel" → sign-out revokes it. On PGlite and PostgreSQL.
//
// next-auth imports `next/server` without a file extension, which Node's own ESM loader
// refuses; vitest must bundle next-auth (vitest.config.ts: server.deps.inline ["next-auth"]).
import { stat, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyTestEnv, type TTestApi } from "../../test/helpers/api";
import { loginLinkFrom, type TSmtpSink } from "../../test/helpers/owners";
import {
  authenticationError,
  cookieHeader,
  SIGN_IN_BASE_URL,
  startSignInWorld,
  storeCookies,
  type TCookieJar,
  type TSignInWorld,
} from "../../test/helpers/panel-sign-in";
import { authenticateToken } from "../auth/authenticate";
import { SOCKET_ADDRESS_HEADER } from "../auth/client-ip";
import { confirmLoginLink } from "./login-link";
import { MAX_LIVE_LOGIN_TOKENS } from "../sessions/session-tokens";
import { sha256Hex } from "../auth/tokens";

const BASE_URL = SIGN_IN_BASE_URL;
const DAY = 24 * 60 * 60 * 1000;

let world: TSignInWorld;
let api: TTestApi;
let sink: TSmtpSink;
let authjs: typeof import("./authjs");
let handlers: (typeof import("./authjs"))["handlers"];

beforeAll(async () => {
  world = await startSignInWorld();
  ({ api, sink } = world);
  try {
    authjs = await import("./authjs");
    handlers = authjs.handlers;
  } catch (error) {
    throw new Error(
      'next-auth cannot load under vitest; add `server: { deps: { inline: ["next-auth"] } }` to the test block of vitest.config.ts.',
      { cause: error },
    );
  }
});
afterAll(async () => world?.close());

type TJar = TCookieJar;

describe("panel sign-in through Auth.js", () => {
  async function send(jar: TJar, method: "GET" | "POST", url: string, form?: Record<string, string>): Promise<Response> {
    const headers = new Headers({
      cookie: cookieHeader(jar),
      "user-agent": "vitest-browser/2.0",
      [SOCKET_ADDRESS_HEADER]: "198.51.100.23",
    });
    let body: string | undefined;
    if (form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      headers.set("origin", BASE_URL);
      body = new URLSearchParams(form).toString();
    }
    const request = new NextRequest(url, { method, headers, body });
    const response = await (method === "GET" ? handlers.GET : handlers.POST)(request);
    storeCookies(jar, response);
    return response;
  }

  /** The confirmation page's "Sign in" button: its form, posted from this site. */
  async function confirm(jar: TJar, link: string): Promise<Response> {
    const response = await confirmLoginLink(
      new Request(`${BASE_URL}/api/panel/verify`, {
        method: "POST",
        headers: {
          cookie: cookieHeader(jar),
          origin: BASE_URL,
          "sec-fetch-site": "same-origin",
          "content-type": "application/x-www-form-urlencoded",
          "user-agent": "vitest-browser/2.0",
          [SOCKET_ADDRESS_HEADER]: "198.51.100.23",
        },
        body: new URL(link).searchParams.toString(),
      }),
    );
    storeCookies(jar, response);
    return response;
  }

  async function csrfToken(jar: TJar): Promise<string> {
    const response = await send(jar, "GET", `${BASE_URL}/api/auth/csrf`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { csrfToken: string }).csrfToken;
  }

  it("mails a link to PUBLIC_BASE_URL, and its confirmation sets fbo_token to a ses_ session of channel panel", async () => {
    const jar: TJar = new Map();
    const email = "panel-owner@example.test";
    const since = sink.messages.length;
    const started = await send(jar, "POST", `${BASE_URL}/api/auth/signin/nodemailer`, {
      email: "  Panel-Owner@Example.test ",
      csrfToken: await csrfToken(jar),
      callbackUrl: `${BASE_URL}/businesses`,
    });
    expect(started.status).toBe(302);
    const verifyRequest = started.headers.get("location")!;
    expect(verifyRequest).toBe(`${BASE_URL}/api/auth/verify-request?provider=nodemailer&type=email`);
    const sentPage = await send(jar, "GET", verifyRequest);
    expect(sentPage.status).toBe(302);
    const landing = new URL(sentPage.headers.get("location")!, BASE_URL);
    expect(landing.pathname).toBe("/sign-in");
    expect(landing.searchParams.get("sent")).toBe("1");

    const mail = await sink.waitForMail(email, { since });
    const link = loginLinkFrom(mail);
    // The confirmation page (login-link.ts); its button posts the link's parameters.
    expect(link.startsWith(`${BASE_URL}/sign-in/verify?`)).toBe(true);
    const stored = await api.db.loginToken.findMany({ where: { identifier: email } });
    expect(stored).toHaveLength(1);

    const callback = await confirm(jar, link);
    expect(callback.status).toBe(303);
    expect(callback.headers.get("location")).toBe(`${BASE_URL}/businesses`);
    const setCookie = callback.headers.getSetCookie().find((line) => line.startsWith("fbo_token="));
    expect(setCookie).toMatch(/^fbo_token=ses_[A-Za-z0-9_-]{43,};/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const sessionToken = jar.get("fbo_token")!;

    const row = await api.db.session.findUniqueOrThrow({ where: { tokenHash: sha256Hex(sessionToken) } });
    expect(row).toMatchObject({ channel: "panel", userAgent: "vitest-browser/2.0", ip: "198.51.100.23", revokedAt: null });
    const owner = await api.db.owner.findUniqueOrThrow({ where: { email } });
    expect(row.ownerId).toBe(owner.id);
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(30 * DAY - 60_000);
    expect(await authenticateToken(api.db, sessionToken)).toMatchObject({ type: "owner", ownerId: owner.id });

    const session = await send(jar, "GET", `${BASE_URL}/api/auth/session`);
    expect(await session.json()).toMatchObject({ user: { email } });

    // The link worked once.
    const reused = await confirm(new Map(), link);
    expect(reused.status).toBe(303);
    expect(reused.headers.get("location")).toBe(`${BASE_URL}/sign-in?error=Verification`);

    // Auth.js's sign-out revokes the session: the token is refused from then on.
    const out = await send(jar, "POST", `${BASE_URL}/api/auth/signout`, { csrfToken: await csrfToken(jar) });
    expect(out.status).toBe(302);
    expect(jar.has("fbo_token")).toBe(false);
    expect(await authenticationError(api.db, sessionToken)).toBe("session_revoked");
    expect((await api.db.session.findUniqueOrThrow({ where: { id: row.id } })).revokedAt).not.toBeNull();
  });

  it("points the mailed link at PUBLIC_BASE_URL whatever host the request named", async () => {
    const jar: TJar = new Map();
    const email = "forwarded-host@example.test";
    const since = sink.messages.length;
    const csrf = await handlers.GET(
      new NextRequest(`${BASE_URL}/api/auth/csrf`, { headers: { "x-forwarded-host": "evil.example" } }),
    );
    storeCookies(jar, csrf);
    const { csrfToken: token } = (await csrf.json()) as { csrfToken: string };
    const response = await handlers.POST(
      new NextRequest(`${BASE_URL}/api/auth/signin/nodemailer`, {
        method: "POST",
        headers: {
          cookie: cookieHeader(jar),
          "content-type": "application/x-www-form-urlencoded",
          "x-forwarded-host": "evil.example",
        },
        body: new URLSearchParams({ email, csrfToken: token }).toString(),
      }),
    );
    expect(response.status).toBe(302);
    const link = loginLinkFrom(await sink.waitForMail(email, { since }));
    expect(new URL(link).origin).toBe(BASE_URL);
  });

  it(`mails at most ${MAX_LIVE_LOGIN_TOKENS} live links per address, like /v1`, async () => {
    const email = "panel-throttle@example.test";
    const since = sink.messages.length;
    for (let i = 0; i < MAX_LIVE_LOGIN_TOKENS + 2; i++) {
      const jar: TJar = new Map();
      const response = await send(jar, "POST", `${BASE_URL}/api/auth/signin/nodemailer`, {
        email,
        csrfToken: await csrfToken(jar),
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toContain("/api/auth/verify-request");
    }
    expect(sink.messages.slice(since).filter((mail) => mail.to.includes(email))).toHaveLength(MAX_LIVE_LOGIN_TOKENS);
  });
});

describe("AUTH_SECRET", () => {
  it("is generated once into DATA_DIR/auth-secret (0600) when unset", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "fbo-auth-secret-"));
    const previous = process.env.AUTH_SECRET;
    try {
      applyTestEnv({ AUTH_SECRET: undefined, DATA_DIR: dir });
      const secret = await authjs.authSecret();
      expect(secret.length).toBeGreaterThanOrEqual(43);
      const file = path.join(dir, "auth-secret");
      expect((await readFile(file, "utf8")).trim()).toBe(secret);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await authjs.authSecret()).toBe(secret);
      applyTestEnv({ AUTH_SECRET: "from-the-environment-0123456789" });
      expect(await authjs.authSecret()).toBe("from-the-environment-0123456789");
    } finally {
      applyTestEnv({ AUTH_SECRET: previous, DATA_DIR: undefined });
      await rm(dir, { recursive: true, force: true });
    }
  });
});
