// Runs before every panel page (not /v1, /api or static files: see the matcher): a fresh CSP
// nonce per request, passed to Next through the request's Content-Security-Policy header
// (Next puts it on its own scripts), and the panel's security headers on the response.
// server/http/security-headers.ts.
import { NextResponse, type NextRequest } from "next/server";
import { AFTER_SIGN_IN_COOKIE, AFTER_SIGN_IN_MAX_AGE_SECONDS, isConsentPath } from "./server/oauth/after-sign-in";
import { isHttpsBaseUrl, newCspNonce, panelSecurityHeaders } from "./server/http/security-headers";

export function proxy(request: NextRequest): NextResponse {
  const nonce = newCspNonce();
  const headers = panelSecurityHeaders({
    nonce,
    pathname: request.nextUrl.pathname,
    https: isHttpsBaseUrl(process.env.PUBLIC_BASE_URL),
    dev: process.env.NODE_ENV === "development",
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]!);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  // An assistant's consent page: signing in first comes back to it (server/oauth/after-sign-in.ts).
  const consent = request.nextUrl.pathname + request.nextUrl.search;
  // Only for a browser not signed in (no panel cookie, server/auth/panel-session.ts PANEL_COOKIE).
  if (isConsentPath(consent) && !request.cookies.has("fbo_token")) {
    response.cookies.set(AFTER_SIGN_IN_COOKIE, consent, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      maxAge: AFTER_SIGN_IN_MAX_AGE_SECONDS,
    });
  }
  return response;
}

export const config = {
  matcher: [
    {
      // Everything but the API (/v1, /mcp, /api, OAuth's endpoints and metadata: static headers in next.config.mjs), Next's static
      // files, and the bench's bare routes.
      source:
        "/((?!v1(?:/|$)|mcp$|api/|oauth/(?:register|token)$|\\.well-known/|_next/static|_next/image|favicon.ico|icon.svg|bench/).*)",
      // Prefetches are not documents; their page gets its nonce when it is rendered for real.
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
