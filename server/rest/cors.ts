// CORS for the routes that declare it (today only POST /v1/waitlist, pinned-wave2.md §5.1): the
// one origin LANDING_ORIGIN may call them from a browser. Any other origin, or none configured,
// gets no CORS header at all (the browser then refuses the answer), and an OPTIONS preflight
// from it stays 405 like OPTIONS anywhere else. Preflights spend no rate limit.
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import type { RouteTable, TRoute } from "./route-table";

const PREFLIGHT_HEADERS = {
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type",
  "Access-Control-Max-Age": "600",
} as const;

function allowedOrigin(route: TRoute, origin: string | null): string | null {
  if (route.cors !== "landing" || origin === null) return null;
  const landing = getEnv().LANDING_ORIGIN;
  return landing !== undefined && origin === landing ? origin : null;
}

/** The CORS headers a call of `route` from `origin` answers with (none for any other origin). */
export function corsHeaders(route: TRoute, origin: string | null): Record<string, string> {
  const allowed = allowedOrigin(route, origin);
  return allowed ? { "Access-Control-Allow-Origin": allowed, Vary: "Origin" } : {};
}

/** A preflight's headers when some route at the path allows the origin; null → not a CORS preflight we answer. */
export function preflightHeaders(table: RouteTable, pathname: string, origin: string | null): Record<string, string> | null {
  for (const method of ["POST"] as const) {
    const found = table.match(method, pathname);
    if (!found || "allowed" in found) continue;
    const allowed = allowedOrigin(found.route, origin);
    if (allowed) return { "Access-Control-Allow-Origin": allowed, ...PREFLIGHT_HEADERS, Vary: "Origin" };
  }
  return null;
}

/**
 * A browser's call of a CORS route from a page that is neither LANDING_ORIGIN nor this service's
 * own is refused (403 csrf_rejected) before anything runs. CORS alone only hides the answer: a
 * foreign page can still send a "simple" POST (a body without a JSON Content-Type, no preflight)
 * and have each visitor's browser sign up an address of its choosing from the visitor's own IP.
 * Calls without an Origin (servers, scripts) are not browsers' and go on.
 */
export function assertCorsOrigin(route: TRoute, origin: string | null): void {
  if (route.cors !== "landing" || origin === null) return;
  const env = getEnv();
  if (origin === env.LANDING_ORIGIN || origin === new URL(env.publicBaseUrl).origin) return;
  throw new AppError(
    "csrf_rejected",
    `Origin ${origin} may not call this operation; only LANDING_ORIGIN and this service's own pages may.`,
  );
}
