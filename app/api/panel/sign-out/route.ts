// Signs the owner out of the panel: ends the `ses_` session on the server (a static token has
// none), forgets the cookie and goes back to the sign-in page. POST only, so a link or a
// prefetch can never sign anyone out.
import { NextResponse } from "next/server";
import { isSameOriginRequest, panelTokenFromRequest, SIGN_IN_PATH } from "@/server/auth/panel-session";
import { clearPanelCookie, endPanelSession, seeOther } from "../_lib";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function POST(req: Request): Promise<Response> {
  if (!isSameOriginRequest(req)) {
    return NextResponse.json({ error: { code: "csrf_rejected", message: "Cross-site request refused." } }, { status: 403 });
  }
  await endPanelSession(panelTokenFromRequest(req));
  return clearPanelCookie(seeOther(SIGN_IN_PATH), req);
}
