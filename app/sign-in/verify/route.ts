// The link of the REST sign-in mail (POST /v1/auth/magic-link mails
// `${PUBLIC_BASE_URL}/sign-in/verify?token=…`): spends the login token through the sessions
// service (the same verifyMagicLink as POST /v1/auth/verify), keeps the new `ses_` session in
// the panel cookie and opens the panel. A used, expired or unknown link lands on the sign-in
// page with the same message as Auth.js's own links, which offers to send a new one.
import { NextResponse } from "next/server";
import {
  clientIpFromHeaders,
  newPanelRequestId,
  PANEL_COOKIE,
  panelCookieOptions,
  panelTokenFromRequest,
  SIGN_IN_PATH,
} from "@/server/auth/panel-session";
import { getDatabase } from "@/server/db/client";
import { toAppError } from "@/server/errors/to-app-error";
import { errorFields, log } from "@/server/log";
import { verifyMagicLink } from "@/server/sessions/login-service";
import { revokeSessionByToken } from "@/server/sessions/session-service";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const AFTER_SIGN_IN = "/";
/** Login tokens are 43 characters of base64url; anything much longer is not one. */
const MAX_TOKEN_LENGTH = 256;

export async function GET(req: Request): Promise<Response> {
  const token = new URL(req.url).searchParams.get("token")?.trim() ?? "";
  if (!token || token.length > MAX_TOKEN_LENGTH) return seeOther(`${SIGN_IN_PATH}?error=login_token_invalid`);

  const requestId = newPanelRequestId();
  try {
    const db = (await getDatabase()).prisma;
    const session = await verifyMagicLink(db, {
      channel: "panel",
      token,
      userAgent: req.headers.get("user-agent"),
      ip: clientIpFromHeaders(req.headers),
      requestId,
    });
    // A session this browser held before is given up, not left behind alive.
    const previous = panelTokenFromRequest(req);
    if (previous?.startsWith("ses_") && previous !== session.session_token) {
      await revokeSessionByToken(db, previous, { requestId }).catch(() => null);
    }
    const response = seeOther(AFTER_SIGN_IN);
    const secondsLeft = Math.floor((Date.parse(session.expires_at) - Date.now()) / 1000);
    response.cookies.set(PANEL_COOKIE, session.session_token, panelCookieOptions(req, Math.max(0, secondsLeft)));
    return response;
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code === "login_token_invalid") return seeOther(`${SIGN_IN_PATH}?error=login_token_invalid`);
    log.error("panel magic-link verify failed", { request_id: requestId, ...errorFields(appError.cause ?? appError) });
    return seeOther(`${SIGN_IN_PATH}?error=Default`);
  }
}

/** A 303 to a path of this site; the token in this URL is never sent on as a Referer. */
function seeOther(path: string): NextResponse {
  return new NextResponse(null, {
    status: 303,
    headers: { Location: path, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
  });
}
