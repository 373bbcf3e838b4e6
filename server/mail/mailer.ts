// Outgoing mail. With SMTP_URL set, mail goes through nodemailer to that server (the URL is
// handed to nodemailer as a string, e.g. `smtp://host:587` or `smtp://host:25?ignoreTLS=true`;
// an options object loses the URL's settings). Without SMTP_URL, nothing is sent: the mail's
// link is written to the server log at level info, the documented development behaviour.
import { createTransport, type Transporter } from "nodemailer";
import { getEnv } from "../env";
import { log } from "../log";

export type TMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The one link the mail exists for; logged instead of sent when SMTP_URL is unset. */
  link?: string;
};

export type TMailResult = { delivered: "smtp" | "log" };

/** One transport per SMTP URL (tests point SMTP_URL at a sink of their own). */
const transports = new Map<string, Transporter>();

function transportFor(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    transport = createTransport(url);
    transports.set(url, transport);
  }
  return transport;
}

/** Where the URL points, without credentials, for log lines. */
function describeServer(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return "(unparseable SMTP_URL)";
  }
}

export async function sendMail(mail: TMail): Promise<TMailResult> {
  const env = getEnv();
  if (!env.SMTP_URL) {
    log.info("mail not sent (SMTP_URL is unset); its link follows", {
      to: mail.to,
      subject: mail.subject,
      link: mail.link ?? firstLink(mail.text),
    });
    return { delivered: "log" };
  }
  const result = await transportFor(env.SMTP_URL).sendMail({
    from: env.MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  });
  const refused = [...(result.rejected ?? []), ...((result as { pending?: unknown[] }).pending ?? [])];
  if (refused.length > 0) {
    throw new Error(`The SMTP server at ${describeServer(env.SMTP_URL)} refused the recipient.`);
  }
  return { delivered: "smtp" };
}

function firstLink(text: string): string | null {
  return /https?:\/\/\S+/.exec(text)?.[0] ?? null;
}
