// Signs the owner into the panel: checks the token exactly as /v1 would and keeps it in the
// httpOnly panel cookie. Answers JSON to the sign-in page's script, and a redirect to a plain
// form post (the page also works without JavaScript).
import { NextResponse } from "next/server";
import { authenticateToken } from "@/server/auth/authenticate";
import { clientIp } from "@/server/auth/client-ip";
import { isSameOriginRequest, PANEL_HOME, SIGN_IN_PATH } from "@/server/auth/panel-session";
import { getDatabase } from "@/server/db/client";
import { AFTER_SIGN_IN_COOKIE, afterSignInPath } from "@/server/oauth/after-sign-in";
import { errorFields, log } from "@/server/log";
import { consumeIpLimit } from "@/server/rest/ip-limit";
import { seeOther, setPanelCookie } from "../_lib";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type TFailure = {
  code: "invalid_token" | "missing_token" | "rate_limited" | "csrf_rejected" | "internal_error";
  message: string;
  status: number;
};

const FAILURES = {
  missing_token: { code: "missing_token", message: "Enter your owner token.", status: 400 },
  invalid_token: { code: "invalid_token", message: "That token is not valid. Check it and try again.", status: 401 },
  rate_limited: { code: "rate_limited", message: "Too many attempts. Wait a minute and try again.", status: 429 },
  csrf_rejected: { code: "csrf_rejected", message: "Sign-in must come from this site's sign-in page.", status: 403 },
  internal_error: { code: "internal_error", message: "Something went wrong on our side. Try again.", status: 500 },
} as const satisfies Record<string, TFailure>;

export async function POST(req: Request): Promise<Response> {
  const wantsJson = (req.headers.get("content-type") ?? "").includes("application/json");
  const fail = (failure: TFailure) =>
    wantsJson
      ? NextResponse.json({ error: { code: failure.code, message: failure.message } }, { status: failure.status })
      : seeOther(`${SIGN_IN_PATH}?error=${failure.code}`);

  if (!isSameOriginRequest(req)) return fail(FAILURES.csrf_rejected);

  const token = await readToken(req, wantsJson);
  if (!token) return fail(FAILURES.missing_token);

  try {
    const db = (await getDatabase()).prisma;
    // Every attempt spends the client IP's public budget (60 a minute), the one /v1's refused
    // bearers spend too: guessing tokens through either door is the same guessing.
    const attempts = await consumeIpLimit(db, "public", clientIp(req.headers));
    if (attempts.exceeded) return fail(FAILURES.rate_limited);

    const actor = await authenticateToken(db, token).catch(() => null);
    // Agent tokens authenticate on /v1 but the panel is the owner's alone.
    if (actor?.type !== "owner") return fail(FAILURES.invalid_token);

    // Back to an assistant's consent page when sign-in interrupted it (server/oauth/after-sign-in.ts).
    const home = afterSignInPath(req.headers.get("cookie")) ?? PANEL_HOME;
    const response = wantsJson ? NextResponse.json({ data: { redirect_to: home } }) : seeOther(home);
    if (home !== PANEL_HOME) response.cookies.delete(AFTER_SIGN_IN_COOKIE);
    return setPanelCookie(response, req, token);
  } catch (error) {
    log.error("panel sign-in failed", errorFields(error));
    return fail(FAILURES.internal_error);
  }
}

async function readToken(req: Request, wantsJson: boolean): Promise<string | null> {
  try {
    if (wantsJson) {
      const body = (await req.json()) as unknown;
      const token = body && typeof body === "object" && "token" in body ? body.token : null;
      return typeof token === "string" && token.trim() ? token.trim() : null;
    }
    const token = (await req.formData()).get("token");
    return typeof token === "string" && token.trim() ? token.trim() : null;
  } catch {
    return null;
  }
}
