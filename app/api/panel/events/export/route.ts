// The panel's "Export CSV" link: the browser opens this with the panel cookie; it hands the
// request to the ONE REST layer as GET /v1/events/export with the owner's bearer token from
// that cookie and the same query string, so the layer's own rules (auth, rate limit, the
// route's validation, the CSV and its Content-Disposition) apply exactly as on /v1. A GET
// that only reads (and audits the export): a foreign page can start the download but cannot
// read it (the cookie is SameSite=Lax, so only a top-level navigation carries it).
import { getV1Handler } from "@/server/rest/v1";
import { SOCKET_ADDRESS_HEADER } from "@/server/auth/client-ip";
import { newPanelRequestId, panelTokenFromRequest } from "@/server/auth/panel-session";
import { AppError } from "@/server/errors/app-error";
import { errorOutcome, toResponse } from "@/server/rest/outcome";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const FORWARDED_HEADERS = ["user-agent", SOCKET_ADDRESS_HEADER, "x-forwarded-for"];

export async function GET(req: Request): Promise<Response> {
  const site = req.headers.get("sec-fetch-site")?.trim().toLowerCase();
  if (site === "cross-site" || site === "same-site") {
    const error = new AppError(
      "csrf_rejected",
      `Cross-site request refused. Sec-Fetch-Site is ${site}: open the export from the panel.`,
    );
    return toResponse(errorOutcome(error), newPanelRequestId(), {});
  }
  const token = panelTokenFromRequest(req);
  if (!token) {
    const error = new AppError("unauthenticated", "You are signed out: sign in to the panel again.");
    return toResponse(errorOutcome(error), newPanelRequestId(), {});
  }
  const headers = new Headers();
  for (const name of FORWARDED_HEADERS) {
    const value = req.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  headers.set("authorization", `Bearer ${token}`);
  const url = new URL(req.url);
  const forwarded = new URL("/v1/events/export", req.url);
  forwarded.search = url.search;
  return getV1Handler()(new Request(forwarded, { method: "GET", headers }));
}
