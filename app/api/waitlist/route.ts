// The waitlist form without JavaScript: the landing page's <form method="post"> (and the
// embeddable snippet's, on LANDING_ORIGIN) posts here. The fields are handed to the ONE REST
// layer as POST /v1/waitlist (JSON, the request's own client address and User-Agent), so its
// validation, honeypot, dedupe and per-IP limits are exactly the API's, counted once; the
// answer becomes a page: 303 to the thank-you page, or back to the landing page with what was
// typed and every error, kept for a few minutes in a cookie (lib/waitlist-flash.ts).
//
// Cross-site: the API cannot be posted from a foreign page's form (it takes JSON only, and CORS
// lets no origin but LANDING_ORIGIN send that), so this door must not open it: a form post is
// accepted only from this site's own pages and from LANDING_ORIGIN, by Origin (or, without one,
// by Sec-Fetch-Site and Referer: server/auth/csrf.ts). Otherwise any site could have its
// visitors' browsers sign up addresses of its choosing, each from the visitor's own address,
// past the per-IP limit.
import { NextResponse } from "next/server";
import {
  encodeWaitlistFlash,
  WAITLIST_FLASH_COOKIE,
  WAITLIST_FLASH_MAX_AGE_SECONDS,
  WAITLIST_FLASH_PARAM,
  WAITLIST_FLASH_VALUE,
} from "@/lib/waitlist-flash";
import { WAITLIST_FIELDS, WAITLIST_THANKS_PATH, waitlistOutcome } from "@/lib/waitlist-form";
import { SOCKET_ADDRESS_HEADER } from "@/server/auth/client-ip";
import { crossSiteReason } from "@/server/auth/csrf";
import { newPanelRequestId, panelCookieOptions } from "@/server/auth/panel-session";
import { getEnv } from "@/server/env";
import { AppError } from "@/server/errors/app-error";
import { getV1Handler } from "@/server/rest/v1";
import { errorOutcome, toResponse } from "@/server/rest/outcome";
import { seeOther } from "@/server/sign-in/panel-response";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** A form of three short fields; anything bigger is not one. */
const MAX_FORM_BYTES = 8 * 1024;
const FORWARDED_HEADERS = ["user-agent", SOCKET_ADDRESS_HEADER, "x-forwarded-for"];

function refuse(code: "csrf_rejected" | "payload_too_large" | "unsupported_media_type", message: string): Response {
  return toResponse(errorOutcome(new AppError(code, message)), newPanelRequestId(), {});
}

/** Why a form post is not ours to take, or null: this site's pages, or LANDING_ORIGIN's. */
function foreignReason(req: Request): string | null {
  const env = getEnv();
  const origin = req.headers.get("origin");
  if (origin !== null) {
    const allowed = [new URL(env.publicBaseUrl).origin, env.LANDING_ORIGIN].filter(Boolean);
    return allowed.includes(origin) ? null : `Origin ${origin} may not post this form.`;
  }
  return crossSiteReason(req, env.publicBaseUrl);
}

/** The body, at most MAX_FORM_BYTES (a chunked body is cut off as it comes, not after). */
async function readCapped(req: Request): Promise<Uint8Array | null> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_FORM_BYTES || !req.body) return declared > MAX_FORM_BYTES ? null : new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FORM_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The form's fields (the first of each name; others ignored), as strings. */
async function readForm(req: Request, bytes: Uint8Array): Promise<Record<string, string> | null> {
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  let form: URLSearchParams | FormData;
  if (type.startsWith("application/x-www-form-urlencoded")) form = new URLSearchParams(Buffer.from(bytes).toString("utf8"));
  else if (type.startsWith("multipart/form-data"))
    form = await new Response(Buffer.from(bytes), { headers: { "content-type": type } }).formData();
  else return null;
  const fields: Record<string, string> = {};
  for (const name of WAITLIST_FIELDS) {
    const value = form.get(name);
    if (typeof value === "string") fields[name] = value;
  }
  return fields;
}

export async function POST(req: Request): Promise<Response> {
  const foreign = foreignReason(req);
  if (foreign) return refuse("csrf_rejected", `Cross-site request refused. ${foreign}`);
  const bytes = await readCapped(req);
  if (!bytes) return refuse("payload_too_large", `The form is over ${MAX_FORM_BYTES} bytes.`);
  const fields = await readForm(req, bytes).catch(() => null);
  if (!fields) return refuse("unsupported_media_type", "Post the waitlist form as a form (or JSON to POST /v1/waitlist).");

  const headers = new Headers({ "content-type": "application/json" });
  for (const name of FORWARDED_HEADERS) {
    const value = req.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const answer = await getV1Handler()(
    new Request(new URL("/v1/waitlist", req.url), { method: "POST", headers, body: JSON.stringify(fields) }),
  );
  const body: unknown = await answer.json().catch(() => null);
  const outcome = waitlistOutcome(answer.status, body, answer.headers.get("retry-after"));

  if (outcome.accepted) {
    const response = seeOther(WAITLIST_THANKS_PATH, { "Cache-Control": "no-store" });
    response.cookies.set(WAITLIST_FLASH_COOKIE, "", panelCookieOptions(req, 0));
    return response;
  }
  const response: NextResponse = seeOther(`/?${WAITLIST_FLASH_PARAM}=${WAITLIST_FLASH_VALUE}#join`, {
    "Cache-Control": "no-store",
  });
  const flash = encodeWaitlistFlash({ email: fields.email ?? "", source: fields.source ?? "", errors: outcome.errors });
  response.cookies.set(WAITLIST_FLASH_COOKIE, flash, panelCookieOptions(req, WAITLIST_FLASH_MAX_AGE_SECONDS));
  return response;
}
