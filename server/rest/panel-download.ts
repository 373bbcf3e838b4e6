// The panel's download links (Export CSV on Events, Download CSV on the Waitlist): the browser
// opens them with the panel cookie, and each is handed to the ONE REST layer as a GET of its
// /v1 operation with the owner's bearer token from that cookie, so the layer's own rules (auth,
// rate limit, the route's validation and access, the file and its Content-Disposition, the
// audit entry) apply exactly as on /v1. A foreign page can start such a download but never read
// it (the cookie is SameSite=Lax, so only a top-level navigation carries it), and a browser that
// says the request is cross-site or same-site is refused outright.
import { AppError } from "../errors/app-error";
import { errorOutcome, toResponse } from "./outcome";
import { getV1Handler } from "./v1";
import { SOCKET_ADDRESS_HEADER } from "../auth/client-ip";
import { newPanelRequestId, panelTokenFromRequest } from "../auth/panel-session";

/** The browser's headers the REST layer reads for any call: its user agent and client address. */
export const FORWARDED_HEADERS = ["user-agent", SOCKET_ADDRESS_HEADER, "x-forwarded-for"] as const;

/** The headers of a panel request handed to the REST layer: `names` copied, and the owner's bearer from the cookie. */
export function asOwnerHeaders(req: Request, token: string, names: readonly string[] = FORWARDED_HEADERS): Headers {
  const headers = new Headers();
  for (const name of names) {
    const value = req.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  headers.set("authorization", `Bearer ${token}`);
  return headers;
}

function refuse(error: AppError): Response {
  return toResponse(errorOutcome(error), newPanelRequestId(), {});
}

/** Answers `req` with the REST layer's answer to GET `v1Url` (path and query) as the signed-in owner. */
export async function panelDownload(req: Request, v1Url: string, what: string): Promise<Response> {
  const site = req.headers.get("sec-fetch-site")?.trim().toLowerCase();
  if (site === "cross-site" || site === "same-site") {
    return refuse(
      new AppError("csrf_rejected", `Cross-site request refused. Sec-Fetch-Site is ${site}: open the ${what} from the panel.`),
    );
  }
  const token = panelTokenFromRequest(req);
  if (!token) return refuse(new AppError("unauthenticated", "You are signed out: sign in to the panel again."));
  return getV1Handler()(new Request(new URL(v1Url, req.url), { method: "GET", headers: asOwnerHeaders(req, token) }));
}
