// Cross-site request forgery check for requests a browser authenticates with the panel's
// cookie. SameSite=Lax already keeps the cookie off cross-site POSTs from other sites; this
// also covers sibling subdomains (same-site, so Lax sends the cookie), login CSRF (a
// foreign form signing the browser in) and old browsers. The rule, in order:
//
// 1. Safe methods (GET, HEAD, OPTIONS) pass: they must not change state.
// 2. A request with `Authorization: Bearer …` passes: a page on another origin cannot add
//    that header without a CORS preflight, which this server never grants, so such a call
//    carries no ambient authority (the REST API is never affected).
// 3. `Sec-Fetch-Site: cross-site` or `same-site` is refused; `same-origin` and `none` (typed
//    into the address bar, a bookmark) go on to the Origin check. Unknown values are refused.
// 4. `Origin`, when present, must be exactly the allowed origin (PUBLIC_BASE_URL's origin);
//    `Origin: null` (sandboxed frames, some redirects) is refused.
// 5. With neither header, a browser that sends neither is too old to trust (every current
//    browser sends Origin on POST): `Referer` must then name the allowed origin, and with no
//    Referer either the request is refused. Scripts use the bearer API instead.
//
// A browser on another spelling of the host (http://127.0.0.1:3000 while PUBLIC_BASE_URL says
// http://localhost:3000) is refused by rule 4: set PUBLIC_BASE_URL to the address users open.
import { AppError } from "../errors/app-error";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function originOf(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/** Why the request is refused, or null when it may go on. */
export function crossSiteReason(req: Request, allowedOrigin: string): string | null {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return null;
  if (/^Bearer\s/i.test(req.headers.get("authorization") ?? "")) return null;

  const allowed = originOf(allowedOrigin);
  if (!allowed) return "The server's own origin is not configured (PUBLIC_BASE_URL).";

  const site = req.headers.get("sec-fetch-site")?.trim().toLowerCase();
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    return `Sec-Fetch-Site is ${site}: the request came from another site.`;
  }

  const origin = req.headers.get("origin");
  if (origin !== null) {
    return originOf(origin) === allowed ? null : `Origin ${origin} is not ${allowed}.`;
  }
  if (site !== undefined) return null; // a browser vouched for same-origin (or user-initiated)

  const referer = req.headers.get("referer");
  if (referer !== null) {
    return originOf(referer) === allowed ? null : "The Referer is not this site.";
  }
  return "Neither Origin, Sec-Fetch-Site nor Referer shows that the request came from this site.";
}

/** Refuses a cookie-authenticated state-changing request that did not come from `allowedOrigin`. */
export function assertSameOrigin(req: Request, allowedOrigin: string): void {
  const reason = crossSiteReason(req, allowedOrigin);
  if (reason) throw new AppError("csrf_rejected", `Cross-site request refused. ${reason}`);
}
