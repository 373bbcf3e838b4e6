// The no-JavaScript round trip of the waitlist form (server side only: the route and the landing
// page): the route keeps what was typed and the errors in a short-lived cookie, then sends the
// browser back to the landing page, which shows them in place. Nothing in it is trusted beyond
// being shown as text: it holds only what the visitor typed and our own messages.
import type { TWaitlistFormErrors } from "./waitlist-form";

export const WAITLIST_FLASH_COOKIE = "fbo_waitlist_form";
/** The landing page reads the cookie only when its address says so (`/?waitlist=check`). */
export const WAITLIST_FLASH_PARAM = "waitlist";
export const WAITLIST_FLASH_VALUE = "check";
export const WAITLIST_FLASH_MAX_AGE_SECONDS = 600;
/** Longer values are not echoed back (a cookie holds about 4 KB; no address is this long). */
const ECHO_MAX = 320;

export type TWaitlistFlash = { email: string; source: string; errors: TWaitlistFormErrors };

const echo = (value: unknown) => (typeof value === "string" && value.length <= ECHO_MAX ? value : "");

export function encodeWaitlistFlash(flash: TWaitlistFlash): string {
  const errors = { email: flash.errors.email?.slice(0, 400), form: flash.errors.form?.slice(0, 400) };
  return Buffer.from(JSON.stringify({ email: echo(flash.email), source: echo(flash.source), errors }), "utf8").toString(
    "base64url",
  );
}

/** The flash of a cookie value, or null when there is none or it is not one of ours. */
export function decodeWaitlistFlash(value: string | undefined): TWaitlistFlash | null {
  if (!value || value.length > 4096) return null;
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as Partial<TWaitlistFlash> | null;
    const errors = parsed?.errors ?? {};
    const text = (message: unknown) => (typeof message === "string" && message ? message : undefined);
    return {
      email: echo(parsed?.email),
      source: echo(parsed?.source),
      errors: {
        ...(text(errors.email) ? { email: text(errors.email) } : {}),
        ...(text(errors.form) ? { form: text(errors.form) } : {}),
      },
    };
  } catch {
    return null;
  }
}
