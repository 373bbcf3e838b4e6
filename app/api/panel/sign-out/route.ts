// Signs the owner out of the panel: ends the `ses_` session on the server (a static token has
// none), forgets the cookie and goes back to the sign-in page. POST only, so a link or a
// prefetch can never sign anyone out.
import { NextResponse } from "next/server";
import {
  isSameOriginRequest,
  PANEL_COOKIE,
  panelCookieOptions,
  panelTokenFromRequest,
  SIGN_IN_PATH,
} from "@/server/auth/panel-session";
import { getDatabase } from "@/server/db/client";
import { revokeSessionByToken } from "@/server/sessions/session-service";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function POST(req: Request): Promise<Response> {
  if (!isSameOriginRequest(req)) {
    return NextResponse.json({ error: { code: "csrf_rejected", message: "Cross-site request refused." } }, { status: 403 });
  }
  const token = panelTokenFromRequest(req);
  if (token?.startsWith("ses_")) await revokeSessionByToken((await getDatabase()).prisma, token);
  // Relative Location: the browser resolves it against the address it is actually on.
  const response = new NextResponse(null, { status: 303, headers: { Location: SIGN_IN_PATH } });
  response.cookies.set(PANEL_COOKIE, "", panelCookieOptions(req, 0));
  return response;
}
