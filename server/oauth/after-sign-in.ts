// Coming back to the consent page after signing in (pinned-wave3 §2.2: "the owner signs in if
// needed"). proxy.ts keeps the /oauth/authorize URL in a short-lived cookie when the page is
// opened; the sign-in doors that set the panel cookie (the token form, a mailed link) send the
// browser back to it instead of the Overview, and drop the cookie. Only a path of the consent
// page is ever followed, so the cookie cannot send anyone elsewhere. No imports: proxy.ts runs it.

export const AFTER_SIGN_IN_COOKIE = "fbo_after_sign_in";
/** As long as an authorization code lives: an abandoned request is not resumed later. */
export const AFTER_SIGN_IN_MAX_AGE_SECONDS = 600;
const CONSENT_PATH = "/oauth/authorize";

/** The consent URL a request's Cookie header holds, or null. */
export function afterSignInPath(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== AFTER_SIGN_IN_COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
    return isConsentPath(value) ? value : null;
  }
  return null;
}

/** A path of this site's consent page (and nothing that could leave the site: no //, no scheme). */
export function isConsentPath(value: string): boolean {
  return (value === CONSENT_PATH || value.startsWith(`${CONSENT_PATH}?`)) && value.length <= 4000;
}
