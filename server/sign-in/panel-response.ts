// What the panel's own route handlers (sign-in, sign-out, the mailed sign-in link's
// confirmation) share: answering with a redirect, keeping or forgetting the panel cookie,
// ending a `ses_` session.
import { NextResponse } from "next/server";
import { getDatabase, type TDb } from "../db/client";
import { revokeSessionByToken } from "../sessions/session-service";
import { PANEL_COOKIE, panelCookieOptions } from "../auth/panel-session";

/**
 * A 303 to a path of this site. The Location is relative: the browser resolves it against the
 * address it is actually on (a proxy's or Next's idea of the host never matters).
 */
export function seeOther(path: string, headers: Record<string, string> = {}): NextResponse {
  return new NextResponse(null, { status: 303, headers: { Location: path, ...headers } });
}

/** Headers for a redirect away from a URL that holds a secret: never cached, never sent on as a Referer. */
export const PRIVATE_REDIRECT = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

/** Keeps `token` in the panel cookie (for `maxAge` seconds; default: the cookie's usual lifetime). */
export function setPanelCookie(response: NextResponse, req: Request, token: string, maxAge?: number): NextResponse {
  response.cookies.set(PANEL_COOKIE, token, maxAge === undefined ? panelCookieOptions(req) : panelCookieOptions(req, maxAge));
  return response;
}

/** Forgets the panel cookie. */
export function clearPanelCookie(response: NextResponse, req: Request): NextResponse {
  return setPanelCookie(response, req, "", 0);
}

/** Ends the session a panel token stands for; a static owner token has none (nothing is done). */
export async function endPanelSession(token: string | undefined, options: { db?: TDb; requestId?: string } = {}): Promise<void> {
  if (!token?.startsWith("ses_")) return;
  const db = options.db ?? (await getDatabase()).prisma;
  await revokeSessionByToken(db, token, options.requestId === undefined ? {} : { requestId: options.requestId });
}
