// The sign-in mail: one link, how long it works, and what to do if it was not you. Plain text
// for every client, plus a simple HTML part with the same content.
import type { TMail } from "./mailer";

export type TLoginMailInput = {
  to: string;
  /** The sign-in link (holds the single-use login token). */
  link: string;
  /** How long the link works, in minutes. */
  validMinutes: number;
};

function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

export function loginMail({ to, link, validMinutes }: TLoginMailInput): TMail {
  const host = new URL(link).host;
  const subject = `Your sign-in link for ${host}`;
  const text = [
    `Sign in to your finance back office at ${host}:`,
    "",
    link,
    "",
    `The link works once, for ${validMinutes} minutes.`,
    "If you did not ask to sign in, ignore this mail: nothing happens without the link.",
    "",
  ].join("\n");
  const href = escapeHtml(link);
  const html = `<!doctype html>
<html>
  <body style="font-family: system-ui, -apple-system, Segoe UI, sans-serif; color: #1f2933; line-height: 1.5;">
    <p>Sign in to your finance back office at <strong>${escapeHtml(host)}</strong>:</p>
    <p>
      <a href="${href}" style="display: inline-block; padding: 10px 18px; background: #1f4fd1; color: #ffffff; border-radius: 6px; text-decoration: none;">Sign in</a>
    </p>
    <p style="font-size: 13px; color: #52606d;">Or paste this address into your browser:<br /><span style="word-break: break-all;">${href}</span></p>
    <p style="font-size: 13px; color: #52606d;">The link works once, for ${validMinutes} minutes. If you did not ask to sign in, ignore this mail: nothing happens without the link.</p>
  </body>
</html>
`;
  return { to, subject, text, html, link };
}
