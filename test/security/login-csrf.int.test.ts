// Login CSRF: a foreign page must not be able to sign a browser in with the attacker's own
// sign-in link (replacing the victim's session), and opening a link (a GET: a navigation, a
// mail scanner) must spend nothing. Both links (the REST mail's /sign-in/verify and the
// panel's Auth.js mail) only show a confirmation page; only a same-origin POST of its form
// spends the token. Real Auth.js handlers, a real SMTP server, a real database.
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as authRouteGet, POST as authRoutePost } from "../../app/api/auth/[...nextauth]/route";
import { POST as confirmRoutePost } from "../../app/api/panel/verify/route";
import type { TTestApi } from "../helpers/api";
import { loginLinkFrom, type TSmtpSink } from "../helpers/owners";
import { SIGN_IN_BASE_URL, startSignInWorld, type TSignInWorld } from "../helpers/panel-sign-in";
import { handlers } from "../../server/sign-in/authjs";
import { sha256Hex } from "../../server/auth/tokens";

const BASE_URL = SIGN_IN_BASE_URL;
const EVIL = "https://evil.example";

let world: TSignInWorld;
let api: TTestApi;
let sink: TSmtpSink;

beforeAll(async () => {
  world = await startSignInWorld();
  ({ api, sink } = world);
});
afterAll(async () => world?.close());

/** The REST mail's link for `email` (POST /v1/auth/magic-link). */
async function restLink(email: string): Promise<string> {
  const since = sink.messages.length;
  const asked = await api.call("POST", "/v1/auth/magic-link", { token: null, body: { email } });
  expect(asked.status).toBe(202);
  return loginLinkFrom(await sink.waitForMail(email, { since }));
}

/** The panel's Auth.js mail's link for `email` (csrf → signin/nodemailer, as the sign-in page does). */
async function authjsLink(email: string): Promise<string> {
  const since = sink.messages.length;
  const csrf = await handlers.GET(new NextRequest(`${BASE_URL}/api/auth/csrf`));
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const started = await handlers.POST(
    new NextRequest(`${BASE_URL}/api/auth/signin/nodemailer`, {
      method: "POST",
      headers: { cookie, origin: BASE_URL, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, csrfToken, callbackUrl: `${BASE_URL}/businesses` }).toString(),
    }),
  );
  expect(started.status).toBe(302);
  return loginLinkFrom(await sink.waitForMail(email, { since }));
}

/** Whether the link's token is still unused (the REST token's hash, or Auth.js's). */
async function unusedTokens(email: string): Promise<number> {
  return api.db.loginToken.count({ where: { identifier: email, usedAt: null } });
}

/** The confirmation page's form, posted with `headers` (a browser adds Origin and Sec-Fetch-Site). */
function confirm(link: string, headers: Record<string, string>): Promise<Response> {
  const form = new URLSearchParams();
  for (const [name, value] of new URL(link).searchParams) form.set(name, value);
  return confirmRoutePost(
    new Request(`${BASE_URL}/api/panel/verify`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "vitest-browser/2.0", ...headers },
      body: form.toString(),
    }),
  );
}

const SAME_ORIGIN = { origin: BASE_URL, "sec-fetch-site": "same-origin" };
const CROSS_SITE = { origin: EVIL, "sec-fetch-site": "cross-site" };

function panelCookie(response: Response): string | undefined {
  return response.headers
    .getSetCookie()
    .find((line) => line.startsWith("fbo_token="))
    ?.split(";")[0]
    ?.slice("fbo_token=".length);
}

describe("login CSRF: opening a mailed link spends nothing; only a same-origin POST signs in", () => {
  it("mails both links to the confirmation page on PUBLIC_BASE_URL", async () => {
    expect((await restLink("mail-rest@example.test")).startsWith(`${BASE_URL}/sign-in/verify?token=`)).toBe(true);
    const link = new URL(await authjsLink("mail-panel@example.test"));
    expect(`${link.origin}${link.pathname}`).toBe(`${BASE_URL}/sign-in/verify`);
    expect(link.searchParams.get("email")).toBe("mail-panel@example.test");
    expect(link.searchParams.get("token")).toBeTruthy();
  });

  it("answers a GET (or POST) of Auth.js's email callback with the confirmation page: no cookie, token unspent", async () => {
    const email = "callback-get@example.test";
    const link = new URL(await authjsLink(email));
    // The callback URL older mails (and a hand-made attack) carry: same parameters, Auth.js's path.
    const callback = `${BASE_URL}/api/auth/callback/nodemailer${link.search}`;
    for (const method of ["GET", "POST"] as const) {
      const request = new NextRequest(callback, { method, headers: { "sec-fetch-site": "cross-site", origin: EVIL } });
      const response = await (method === "GET" ? authRouteGet : authRoutePost)(request);
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe(`/sign-in/verify${link.search}`);
      expect(panelCookie(response)).toBeUndefined();
    }
    expect(await unusedTokens(email)).toBe(1);

    // The token still works from the confirmation page's own POST.
    const signedIn = await confirm(link.toString(), SAME_ORIGIN);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("location")).toBe(`${BASE_URL}/businesses`);
    expect(panelCookie(signedIn)).toMatch(/^ses_/);
    expect(await unusedTokens(email)).toBe(0);
  });

  for (const kind of ["REST", "Auth.js"] as const) {
    const linkFor = kind === "REST" ? restLink : authjsLink;

    it(`refuses a cross-site POST of a ${kind} link: no cookie, token unspent and still usable`, async () => {
      const email = `cross-site-${kind === "REST" ? "rest" : "panel"}@example.test`;
      const link = await linkFor(email);
      const foreign: Record<string, string>[] = [
        CROSS_SITE,
        { origin: EVIL },
        { "sec-fetch-site": "same-site", origin: BASE_URL },
        {},
      ];
      for (const headers of foreign) {
        const refused = await confirm(link, headers);
        expect(refused.status).toBe(303);
        expect(refused.headers.get("location")).toBe("/sign-in?error=csrf_rejected");
        expect(panelCookie(refused)).toBeUndefined();
      }
      expect(await unusedTokens(email)).toBe(1);
      expect(await api.db.session.count({ where: { owner: { email } } })).toBe(0);

      const signedIn = await confirm(link, SAME_ORIGIN);
      expect(signedIn.status).toBe(303);
      expect(panelCookie(signedIn)).toMatch(/^ses_/);
    });

    it(`signs in with a same-origin POST of a ${kind} link, once`, async () => {
      const email = `same-origin-${kind === "REST" ? "rest" : "panel"}@example.test`;
      const link = await linkFor(email);
      const signedIn = await confirm(link, SAME_ORIGIN);
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get("cache-control")).toBe("no-store");
      const token = panelCookie(signedIn)!;
      expect(token).toMatch(/^ses_/);
      const session = await api.db.session.findUniqueOrThrow({
        where: { tokenHash: sha256Hex(token) },
        include: { owner: true },
      });
      expect(session).toMatchObject({ channel: "panel", revokedAt: null, owner: { email } });

      const again = await confirm(link, SAME_ORIGIN);
      expect(again.headers.get("location")).toMatch(/\/sign-in\?error=(login_token_invalid|Verification)$/);
      expect(panelCookie(again)).toBeUndefined();
    });
  }
});
