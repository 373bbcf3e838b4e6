// The Waitlist page's "Download CSV" link: as the events export (../../events/export/route.ts),
// the browser opens this with the panel cookie and it is handed to the ONE REST layer as
// GET /v1/waitlist?format=csv with the owner's bearer token from that cookie, so the readers
// rule, the CSV, its Content-Disposition and the waitlist.export audit entry are the API's own.
// A cross-site page can start the download but never read it; Sec-Fetch-Site refuses it anyway.
import { SOCKET_ADDRESS_HEADER } from "@/server/auth/client-ip";
import { newPanelRequestId, panelTokenFromRequest } from "@/server/auth/panel-session";
import { AppError } from "@/server/errors/app-error";
import { errorOutcome, toResponse } from "@/server/rest/outcome";
import { getV1Handler } from "@/server/rest/v1";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const FORWARDED_HEADERS = ["user-agent", SOCKET_ADDRESS_HEADER, "x-forwarded-for"];

export async function GET(req: Request): Promise<Response> {
  const site = req.headers.get("sec-fetch-site")?.trim().toLowerCase();
  if (site === "cross-site" || site === "same-site") {
    const error = new AppError(
      "csrf_rejected",
      `Cross-site request refused. Sec-Fetch-Site is ${site}: open the download from the panel.`,
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
  return getV1Handler()(new Request(new URL("/v1/waitlist?format=csv", req.url), { method: "GET", headers }));
}
