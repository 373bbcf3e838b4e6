// The waitlist form's words, shared by the landing page's script (components/landing/) and the
// no-JavaScript route (app/api/waitlist/route.ts): how the answer of POST /v1/waitlist reads
// beside the form. No rule of the waitlist lives here (what is valid, the honeypot, the limits:
// server/waitlist and the REST layer decide); only which field an answer is about and its words.

/** Where the form posts without JavaScript (app/api/waitlist/route.ts), and the thank-you page it answers. */
export const WAITLIST_FORM_PATH = "/api/waitlist";
export const WAITLIST_THANKS_PATH = "/joined";

/** The form's fields, as POST /v1/waitlist names them. */
export const WAITLIST_FIELDS = ["email", "source", "website"] as const;
export type TWaitlistField = (typeof WAITLIST_FIELDS)[number];

export type TWaitlistFormErrors = {
  /** Beside the email field. */
  email?: string;
  /** About the form as a whole: a bad source tag (a hidden field), too many tries, a failure. */
  form?: string;
};

/** What the form shows after an answer: accepted, or every error at once. */
export type TWaitlistOutcome = { accepted: true } | { accepted: false; errors: TWaitlistFormErrors };

const FIELD_NAMES: Record<string, string> = { email: "Email", source: "The link's source tag", website: "The form" };

function issuesOf(body: unknown): { path: string; message: string }[] {
  const details = (body as { error?: { details?: { issues?: unknown } } } | null)?.error?.details;
  const issues = Array.isArray(details?.issues) ? details.issues : [];
  return issues.flatMap((issue: unknown) => {
    const { path, message } = (issue ?? {}) as { path?: unknown; message?: unknown };
    return typeof path === "string" && typeof message === "string" ? [{ path, message }] : [];
  });
}

/** "in 55 seconds", "in 3 minutes", "in 2 hours": a Retry-After in words. */
export function retryWords(retryAfterSeconds: number | null): string {
  if (retryAfterSeconds === null || !Number.isFinite(retryAfterSeconds) || retryAfterSeconds <= 0) return "in a moment";
  if (retryAfterSeconds < 90) return `in ${Math.ceil(retryAfterSeconds)} seconds`;
  if (retryAfterSeconds < 90 * 60) return `in ${Math.ceil(retryAfterSeconds / 60)} minutes`;
  return `in ${Math.ceil(retryAfterSeconds / 3600)} hours`;
}

/** Reads an answer of POST /v1/waitlist (status, JSON body, Retry-After) as the form shows it. */
export function waitlistOutcome(status: number, body: unknown, retryAfter: string | null): TWaitlistOutcome {
  if (status === 202) return { accepted: true };
  if (status === 429) {
    const seconds = retryAfter === null ? null : Number(retryAfter);
    return {
      accepted: false,
      errors: { form: `Too many sign-ups from your network. Try again ${retryWords(seconds)}.` },
    };
  }
  if (status === 400) {
    const errors: TWaitlistFormErrors = {};
    const other: string[] = [];
    for (const { path, message } of issuesOf(body)) {
      if (path === "email") errors.email ??= `${FIELD_NAMES.email} ${message}.`;
      else other.push(`${FIELD_NAMES[path] ?? "The form"} ${message}.`);
    }
    if (other.length > 0) errors.form = [...new Set(other)].join(" ");
    if (!errors.email && !errors.form) errors.form = "The form could not be read. Check it and try again.";
    return { accepted: false, errors };
  }
  return { accepted: false, errors: { form: "We could not add you just now. Try again in a moment." } };
}
