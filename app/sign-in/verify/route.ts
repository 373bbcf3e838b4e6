// The link of the REST sign-in mail (POST /v1/auth/magic-link mails
// `${PUBLIC_BASE_URL}/sign-in/verify?token=…`): spends the login token through the sessions
// service (the same verifyMagicLink as POST /v1/auth/verify), keeps the new `ses_` session in
// the panel cookie and opens the panel. A used, expired or unknown link lands on the sign-in
// page with the same message as Auth.js's own links, which offers to send a new one.
import { clientIp } from "@/server/auth/client-ip";
import { newPanelRequestId, panelTokenFromRequest, SIGN_IN_PATH } from "@/server/auth/panel-session";
import { getDatabase } from "@/server/db/client";
import { toAppError } from "@/server/errors/to-app-error";
import { consumeIpLimit } from "@/server/rest/ip-limit";
import { errorFields, log } from "@/server/log";
import { verifyMagicLink } from "@/server/sessions/login-service";
import { endPanelSession, PRIVATE_REDIRECT, seeOther as redirect, setPanelCookie } from "../../api/panel/_lib";

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
    const ip = clientIp(req.headers);
    // Spending a login token is the public door: 60 a minute per client IP (server/rest/ip-limit.ts).
    if ((await consumeIpLimit(db, "public", ip)).exceeded) return seeOther(`${SIGN_IN_PATH}?error=rate_limited`);
    const session = await verifyMagicLink(db, {
      channel: "panel",
      token,
      userAgent: req.headers.get("user-agent"),
      ip,
      requestId,
    });
    // A session this browser held before is given up, not left behind alive.
    const previous = panelTokenFromRequest(req);
    if (previous !== session.session_token) await endPanelSession(previous, { db, requestId }).catch(() => null);
    const secondsLeft = Math.floor((Date.parse(session.expires_at) - Date.now()) / 1000);
    return setPanelCookie(seeOther(AFTER_SIGN_IN), req, session.session_token, Math.max(0, secondsLeft));
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code === "login_token_invalid") return seeOther(`${SIGN_IN_PATH}?error=login_token_invalid`);
    log.error("panel magic-link verify failed", { request_id: requestId, ...errorFields(appError.cause ?? appError) });
    return seeOther(`${SIGN_IN_PATH}?error=Default`);
  }
}

/** A 303 to a path of this site; the token in this URL is never sent on as a Referer. */
function seeOther(path: string) {
  return redirect(path, PRIVATE_REDIRECT);
}
