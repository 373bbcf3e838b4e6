// The panel's statement upload: the browser posts the multipart form here with the panel cookie
// (XMLHttpRequest, for the upload's progress); this hands it to the ONE REST layer as
// POST /v1/imports with the owner's bearer token from that cookie. The body is passed on as a
// stream, untouched, so the layer's own rules apply exactly as on /v1: body cap (413), the
// Idempotency-Key over the raw bytes, authentication, rate limit, the plain route (415, 400).
import { getV1Handler } from "@/server/rest/v1";
import { isSameOriginRequest, newPanelRequestId, panelTokenFromRequest } from "@/server/auth/panel-session";
import { AppError } from "@/server/errors/app-error";
import { errorOutcome, toResponse } from "@/server/rest/outcome";
import { asOwnerHeaders, FORWARDED_HEADERS } from "@/server/rest/panel-download";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Headers of the browser's request that the REST layer reads (besides Authorization). */
const UPLOAD_HEADERS = [
  "content-type",
  "content-length",
  "idempotency-key",
  "x-service-contract-min",
  ...FORWARDED_HEADERS, // the user agent and the client IP as server/auth/client-ip.ts reads it
];

function refuse(error: AppError): Response {
  const requestId = newPanelRequestId();
  return toResponse(errorOutcome(error), requestId, {});
}

/**
 * The CSRF rule of the tRPC endpoint. The browser's own Authorization header (if any) is left
 * out of the check: this endpoint's authority is the cookie, so a bearer header must not
 * exempt it (csrf.ts rule 2 is for requests that are NOT cookie-authenticated).
 */
function cameFromThisSite(req: Request): boolean {
  const headers = new Headers(req.headers);
  headers.delete("authorization");
  return isSameOriginRequest(new Request(req.url, { method: req.method, headers }));
}

export async function POST(req: Request): Promise<Response> {
  if (!cameFromThisSite(req)) return refuse(new AppError("csrf_rejected"));
  const token = panelTokenFromRequest(req);
  if (!token) return refuse(new AppError("unauthenticated", "You are signed out: sign in to the panel again."));

  const headers = asOwnerHeaders(req, token, UPLOAD_HEADERS);

  const forwarded = new Request(new URL("/v1/imports", req.url), {
    method: "POST",
    headers,
    body: req.body,
    // A streamed body (Node's fetch requires it to say so).
    duplex: "half",
  } as RequestInit & { duplex: "half" });
  return getV1Handler()(forwarded);
}
