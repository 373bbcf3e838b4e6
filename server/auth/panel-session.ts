// The owner panel's session: the owner's bearer token kept in an httpOnly cookie. The
// cookie holds the same token the REST API takes (the static owner token now, a `ses_`
// session token once magic-link login arrives), so the panel authenticates through the same
// `authenticateToken` as /v1 and never has a second notion of who is signed in.
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDatabase, type TDb } from "../db/client";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import { PUBLIC_ACTOR, type TActor, type TOwnerActor } from "./actor";
import { authenticateToken } from "./authenticate";
import { crossSiteReason } from "./csrf";
import { newRequestId } from "./request-context";

export const PANEL_COOKIE = "fbo_token";
export const SIGN_IN_PATH = "/sign-in";
/** Where the panel opens once signed in: the Overview (every sign-in door lands here). */
export const PANEL_HOME = "/overview";
/** The page a mailed sign-in link opens: it confirms, and its button signs in (server/sign-in/login-link.ts). */
export const VERIFY_PATH = "/sign-in/verify";

/** How long the browser keeps the cookie; a session token's own expiry still applies. */
const COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** Longest token we bother checking; anything longer is not one of ours. */
const MAX_TOKEN_LENGTH = 512;

export type TPanelSession = { db: TDb; actor: TActor };
export type TOwnerPanelSession = { db: TDb; actor: TOwnerActor };

/**
 * The actor for a panel token. Only the owner may use the panel: an agent token, an unknown,
 * expired or revoked token, or no token at all is the public actor, which every owner
 * procedure refuses with `unauthenticated`.
 */
export async function panelActorFromToken(db: TDb, token: string | undefined | null): Promise<TActor> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return PUBLIC_ACTOR;
  try {
    const actor = await authenticateToken(db, token);
    return actor.type === "owner" ? actor : PUBLIC_ACTOR;
  } catch {
    return PUBLIC_ACTOR;
  }
}

/** The panel token of a request's `Cookie` header (route handlers get a plain Request). */
export function panelTokenFromRequest(req: Request): string | undefined {
  const header = req.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== PANEL_COOKIE) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/**
 * Session of a route handler's request, and what it came from. A request that carries an
 * `Authorization` header is authenticated by that header alone: it must be an owner's bearer
 * token, and is never replaced by the cookie. (csrf.ts lets bearer calls through because a
 * foreign page cannot add the header; falling back to the cookie would turn any junk bearer
 * into a CSRF bypass.) Without the header, the cookie decides.
 */
export async function panelSessionFromRequest(req: Request): Promise<TPanelSession & { via: "bearer" | "cookie" }> {
  const db = (await getDatabase()).prisma;
  const authorization = req.headers.get("authorization");
  if (authorization !== null) {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    const actor = await panelActorFromToken(db, token);
    if (actor.type !== "owner") {
      throw new AppError("unauthenticated", "The Authorization header does not hold a valid owner token.");
    }
    return { db, actor, via: "bearer" };
  }
  return { db, actor: await panelActorFromToken(db, panelTokenFromRequest(req)), via: "cookie" };
}

/** Session of the request a server component renders (once per request). */
export const getPanelSession = cache(async (): Promise<TPanelSession> => {
  const db = (await getDatabase()).prisma;
  const token = (await cookies()).get(PANEL_COOKIE)?.value;
  return { db, actor: await panelActorFromToken(db, token) };
});

/** For panel pages: the owner's session, or a redirect to the sign-in page. */
export async function requireOwnerSession(): Promise<TOwnerPanelSession> {
  const session = await getPanelSession();
  if (session.actor.type !== "owner") redirect(SIGN_IN_PATH);
  return { db: session.db, actor: session.actor };
}

/** A request id in the REST layer's format, so panel and /v1 logs read alike. */
export const newPanelRequestId = newRequestId;

function isHttps(req: Request): boolean {
  const forwarded = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  if (forwarded) return forwarded === "https";
  return new URL(req.url).protocol === "https:";
}

export type TCookieOptions = {
  httpOnly: true;
  sameSite: "lax";
  secure: boolean;
  path: "/";
  maxAge: number;
};

/** The cookie's attributes: httpOnly, SameSite=Lax, Secure whenever the request is https. */
export function panelCookieOptions(req: Request, maxAge = COOKIE_MAX_AGE_SECONDS): TCookieOptions {
  return { httpOnly: true, sameSite: "lax", secure: isHttps(req), path: "/", maxAge };
}

/** The CSRF rule of server/auth/csrf.ts, against the one origin the panel is served from. */
export function isSameOriginRequest(req: Request): boolean {
  return crossSiteReason(req, getEnv().publicBaseUrl) === null;
}
