// The mailed sign-in links, both kinds: the REST mail's (`/sign-in/verify?token=…`, POST
// /v1/auth/magic-link) and the panel's Auth.js mail (same page, plus `email` and
// `callbackUrl`). Opening a link (GET) only shows a confirmation page and spends nothing; the
// page's "Sign in" button POSTs the link to /api/panel/verify, which spends the token and sets
// the panel cookie only for a request from this site (server/auth/csrf.ts).
//
// Why: a GET that signs in lets any foreign page navigate a browser to the attacker's own link
// and replace the victim's session with the attacker's (login CSRF); and mail scanners that
// open links would burn them.
import { AFTER_SIGN_IN_COOKIE, afterSignInPath } from "../oauth/after-sign-in";
import { NextRequest } from "next/server";
import type { TDb } from "../db/client";
import { getDatabase } from "../db/client";
import { toAppError } from "../errors/to-app-error";
import { errorFields, log } from "../log";
import { consumeIpLimit } from "../rest/ip-limit";
import { verifyMagicLink } from "../sessions/login-service";
import { authSecret, EMAIL_CALLBACK_PATH, handlers } from "./authjs";
import { endPanelSession, PRIVATE_REDIRECT, seeOther, setPanelCookie } from "./panel-response";
import { clientIp, SOCKET_ADDRESS_HEADER } from "../auth/client-ip";
import {
  isSameOriginRequest,
  newPanelRequestId,
  panelTokenFromRequest,
  PANEL_HOME,
  SIGN_IN_PATH,
  VERIFY_PATH,
} from "../auth/panel-session";
import { sha256Hex } from "../auth/tokens";

/** Login tokens are 43 characters of base64url; anything much longer is not one. */
const MAX_TOKEN_LENGTH = 256;
const MAX_EMAIL_LENGTH = 320;
const MAX_CALLBACK_URL_LENGTH = 2048;

export type TLoginLink =
  /** The REST mail's link: a login token of POST /v1/auth/magic-link. */
  | { kind: "session"; token: string }
  /** The panel's Auth.js mail: Auth.js's token for `email`, and where to go afterwards. */
  | { kind: "authjs"; token: string; email: string; callbackUrl: string | null };

type TParams = { get(name: string): unknown };

function text(params: TParams, name: string, max: number): string | null {
  const value = params.get(name);
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed && trimmed.length <= max ? trimmed : null;
}

/** The link a query string (GET) or the confirmation form (POST) holds, or null when malformed. */
export function loginLinkFrom(params: TParams): TLoginLink | null {
  const token = text(params, "token", MAX_TOKEN_LENGTH);
  if (!token) return null;
  if (params.get("email") === null || params.get("email") === undefined) return { kind: "session", token };
  const email = text(params, "email", MAX_EMAIL_LENGTH);
  if (!email) return null;
  return { kind: "authjs", token, email, callbackUrl: text(params, "callbackUrl", MAX_CALLBACK_URL_LENGTH) };
}

/** The error code the sign-in page shows for a used, expired or unknown link of this kind. */
export function invalidLinkCode(link: TLoginLink | null): string {
  return link?.kind === "authjs" ? "Verification" : "login_token_invalid";
}

/**
 * The address a link would sign in as, when its token is still unused and unexpired; null
 * otherwise. Reads only: the confirmation page shows it, and opening a link spends nothing.
 */
export async function loginLinkEmail(db: TDb, link: TLoginLink): Promise<string | null> {
  // Auth.js stores sha256(token + secret) as its token, and our adapter the SHA-256 of that.
  const tokenHash = link.kind === "session" ? sha256Hex(link.token) : sha256Hex(sha256Hex(`${link.token}${await authSecret()}`));
  const row = await db.loginToken.findFirst({
    where: {
      tokenHash,
      usedAt: null,
      expiresAt: { gt: new Date() },
      ...(link.kind === "authjs" ? { identifier: link.email.toLowerCase() } : {}),
    },
    select: { identifier: true },
  });
  return row?.identifier ?? null;
}

/** A 303 to a path of this site; never cached, never sent on as a Referer (the body held a token). */
function redirectTo(path: string) {
  return seeOther(path, PRIVATE_REDIRECT);
}

/**
 * POST /api/panel/verify: the confirmation page's "Sign in" button. Only a request from this
 * site (Origin / Sec-Fetch-Site / Referer, csrf.ts) spends the token and sets the panel
 * cookie; anything else goes back to the sign-in page with the token untouched.
 */
export async function confirmLoginLink(req: Request): Promise<Response> {
  if (!isSameOriginRequest(req)) return redirectTo(`${SIGN_IN_PATH}?error=csrf_rejected`);
  const form = await req.formData().catch(() => null);
  const link = form ? loginLinkFrom(form) : null;
  if (!link) return redirectTo(`${SIGN_IN_PATH}?error=${invalidLinkCode(link)}`);
  return link.kind === "authjs" ? spendAuthjsLink(req, link) : spendSessionLink(req, link);
}

/** The REST mail's token: spent through the sessions service (as POST /v1/auth/verify). */
async function spendSessionLink(req: Request, link: Extract<TLoginLink, { kind: "session" }>): Promise<Response> {
  const requestId = newPanelRequestId();
  try {
    const db = (await getDatabase()).prisma;
    const ip = clientIp(req.headers);
    // Spending a login token is the public door: 60 a minute per client IP (server/rest/ip-limit.ts).
    // Auth.js's links are counted by its own handlers (authjs.ts).
    if ((await consumeIpLimit(db, "public", ip)).exceeded) return redirectTo(`${SIGN_IN_PATH}?error=rate_limited`);
    const session = await verifyMagicLink(db, {
      channel: "panel",
      token: link.token,
      userAgent: req.headers.get("user-agent"),
      ip,
      requestId,
    });
    // A session this browser held before is given up, not left behind alive.
    const previous = panelTokenFromRequest(req);
    if (previous !== session.session_token) await endPanelSession(previous, { db, requestId }).catch(() => null);
    const secondsLeft = Math.floor((Date.parse(session.expires_at) - Date.now()) / 1000);
    // Back to an assistant's consent page when sign-in interrupted it (server/oauth/after-sign-in.ts).
    const home = afterSignInPath(req.headers.get("cookie")) ?? PANEL_HOME;
    const response = redirectTo(home);
    if (home !== PANEL_HOME) response.cookies.delete(AFTER_SIGN_IN_COOKIE);
    return setPanelCookie(response, req, session.session_token, Math.max(0, secondsLeft));
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code === "login_token_invalid") return redirectTo(`${SIGN_IN_PATH}?error=login_token_invalid`);
    log.error("panel magic-link verify failed", { request_id: requestId, ...errorFields(appError.cause ?? appError) });
    return redirectTo(`${SIGN_IN_PATH}?error=Default`);
  }
}

/**
 * Auth.js's token: handed to Auth.js's own email callback, called in process with this
 * request's cookies and client headers, so Auth.js checks and spends it and sets its session
 * cookie exactly as it would on its link. Its answer (a redirect with Set-Cookie) goes back.
 */
async function spendAuthjsLink(req: Request, link: Extract<TLoginLink, { kind: "authjs" }>): Promise<Response> {
  const callback = new URL(EMAIL_CALLBACK_PATH, req.url);
  callback.search = new URLSearchParams({
    token: link.token,
    email: link.email,
    ...(link.callbackUrl ? { callbackUrl: link.callbackUrl } : {}),
  }).toString();
  const headers = new Headers();
  for (const name of [
    "cookie",
    "user-agent",
    SOCKET_ADDRESS_HEADER,
    "x-forwarded-for",
    "x-forwarded-host",
    "x-forwarded-proto",
    "host",
  ]) {
    const value = req.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const answer = await handlers.GET(new NextRequest(callback, { headers }));
  const response = new Response(null, { status: answer.status === 302 ? 303 : answer.status, headers: answer.headers });
  for (const [name, value] of Object.entries(PRIVATE_REDIRECT)) response.headers.set(name, value);
  return response;
}

/**
 * Auth.js's routes for the browser. Its email callback would spend a token on any GET (or
 * POST); a request for it goes to the confirmation page instead, with the same link. Only
 * confirmLoginLink calls the callback itself.
 */
function guarded(handler: (req: NextRequest) => Promise<Response>) {
  return (req: NextRequest): Promise<Response> => {
    const url = new URL(req.url);
    if (url.pathname === EMAIL_CALLBACK_PATH) return Promise.resolve(redirectTo(`${VERIFY_PATH}${url.search}`));
    return handler(req);
  };
}

export const authjsRoutes = { GET: guarded(handlers.GET), POST: guarded(handlers.POST) };
