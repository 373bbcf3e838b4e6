"use server";
// The email sign-in form's server action: asks Auth.js to mail a one-time link
// (signIn("nodemailer")), then shows the "check your inbox" state (/sign-in?sent=1).
//
// CSRF: Next.js accepts a server action only when its Origin matches the host the page was
// served from, so a foreign page cannot make a browser request links. The answer never says
// whether the address belongs to an owner (a new address becomes one at its first login).
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { signIn, EMAIL_PROVIDER_ID } from "@/server/sign-in/authjs";
import { clientIp } from "@/server/auth/client-ip";
import { PANEL_HOME } from "@/server/auth/panel-session";
import { getDatabase } from "@/server/db/client";
import { errorFields, log } from "@/server/log";
import { consumeIpLimit } from "@/server/rest/ip-limit";
import { ZLoginEmail } from "@/server/sessions/session.schema";

export type TEmailSignInState = { error: string | null; email: string };

export async function requestSignInLink(_previous: TEmailSignInState, form: FormData): Promise<TEmailSignInState> {
  const raw = form.get("email");
  const email = typeof raw === "string" ? raw : "";
  if (!email.trim()) return { error: "Enter your email address.", email };
  const parsed = ZLoginEmail.safeParse(email);
  if (!parsed.success) return { error: "That does not look like an email address. Check it and try again.", email };

  let next: string;
  try {
    // The login limit per client IP that POST /v1/auth/magic-link counts too (10 a minute);
    // Auth.js also caps live links per address. signIn() below calls Auth.js in process, not
    // through /api/auth, so this request is counted once.
    const attempts = await consumeIpLimit((await getDatabase()).prisma, "login", clientIp(await headers()));
    if (attempts.exceeded) return { error: "Too many attempts. Wait a minute and try again.", email };

    const location = await signIn(EMAIL_PROVIDER_ID, { email: parsed.data, redirectTo: PANEL_HOME, redirect: false });
    const failure = errorCodeOf(location);
    next = failure ? `/sign-in?error=${encodeURIComponent(failure)}` : "/sign-in?sent=1";
  } catch (error) {
    log.error("panel sign-in link failed", errorFields(error));
    return { error: "The sign-in mail could not be sent. Try again in a moment.", email };
  }
  // Outside the try: redirect() works by throwing.
  redirect(next);
}

/** Auth.js answers with the verify-request page, or its error page with `?error=<type>`. */
function errorCodeOf(location: string | undefined | null): string | null {
  if (!location) return null;
  try {
    return new URL(location, "http://localhost").searchParams.get("error");
  } catch {
    return null;
  }
}
