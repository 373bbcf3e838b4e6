// Real owners with real session tokens for tests: the magic-link flow end to end, through a
// real SMTP server (the `smtp-server` package) that keeps every message it receives.
//
//   const alice = await signInOwner(api, "alice@example.test");
//   await api.call("GET", "/v1/me", { token: alice.token });
//
// signInOwner starts one shared sink on first use and points SMTP_URL at it; tests that look
// at mail themselves start their own with startSmtpSink().
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { applyTestEnv, freshClientIp, type TTestApi } from "./api";

export type TReceivedMail = {
  /** Envelope sender and recipients (lower case). */
  from: string;
  to: string[];
  subject: string;
  /** The decoded text/plain part ("" when there is none). */
  text: string;
  /** The decoded text/html part ("" when there is none). */
  html: string;
  raw: string;
};

export type TSmtpSink = {
  port: number;
  /** For SMTP_URL: plain SMTP, no STARTTLS. */
  url: string;
  messages: TReceivedMail[];
  /** The first message after `since` (an index into messages) to `to` that arrives within the timeout. */
  waitForMail: (to: string, options?: { since?: number; timeoutMs?: number }) => Promise<TReceivedMail>;
  close: () => Promise<void>;
};

/** An SMTP server on a free local port that accepts every message and keeps it. */
export async function startSmtpSink(): Promise<TSmtpSink> {
  const messages: TReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const envelopeFrom = session.envelope.mailFrom;
        messages.push({
          ...parseMessage(raw),
          from: envelopeFrom ? envelopeFrom.address.toLowerCase() : "",
          to: session.envelope.rcptTo.map((address) => address.address.toLowerCase()),
          raw,
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  // A forgotten sink must not keep the test process alive.
  server.server.unref();

  async function waitForMail(to: string, options: { since?: number; timeoutMs?: number } = {}): Promise<TReceivedMail> {
    const address = to.toLowerCase();
    const since = options.since ?? 0;
    const find = () => messages.slice(since).find((mail) => mail.to.includes(address));
    const deadline = Date.now() + (options.timeoutMs ?? 5_000);
    for (;;) {
      const found = find();
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No mail to ${to} arrived (${messages.length} messages in the sink).`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        waiters.add(wake);
      });
    }
  }

  return {
    port,
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    messages,
    waitForMail,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The login token in a sign-in mail (the `token` parameter of its link). */
export function loginTokenFrom(mail: TReceivedMail): string {
  const link = loginLinkFrom(mail);
  const token = new URL(link).searchParams.get("token");
  if (!token) throw new Error(`The link ${link} holds no token.`);
  return token;
}

/** The sign-in link of a mail (the first http(s) URL of its text part). */
export function loginLinkFrom(mail: TReceivedMail): string {
  const link = /https?:\/\/[^\s<>"]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`No link in the mail "${mail.subject}":\n${mail.text}`);
  return link;
}

let sharedSink: Promise<TSmtpSink> | undefined;

/** The sink signInOwner uses, started on first use. */
export function sharedSmtpSink(): Promise<TSmtpSink> {
  sharedSink ??= startSmtpSink();
  return sharedSink;
}

export async function stopSharedSmtpSink(): Promise<void> {
  const sink = sharedSink;
  sharedSink = undefined;
  if (sink) await (await sink).close();
}

/**
 * Signs an owner in the way a client does: POST /v1/auth/magic-link, the mail from the
 * SMTP server, POST /v1/auth/verify. A new email becomes a new owner.
 */
export async function signInOwner(api: TTestApi, email: string): Promise<{ token: string; ownerId: string }> {
  const sink = await sharedSmtpSink();
  if (process.env.SMTP_URL !== sink.url) applyTestEnv({ SMTP_URL: sink.url });
  const since = sink.messages.length;
  // Each sign-in from its own address, so a file signing many owners in stays under the per-IP limits.
  const clientIp = freshClientIp();
  const requested = await api.call("POST", "/v1/auth/magic-link", { token: null, body: { email }, clientIp });
  if (requested.status !== 202) throw new Error(`magic-link answered ${requested.status}: ${requested.text}`);
  const mail = await sink.waitForMail(email, { since });
  const verified = await api.call("POST", "/v1/auth/verify", { token: null, body: { token: loginTokenFrom(mail) }, clientIp });
  if (verified.status !== 200) throw new Error(`verify answered ${verified.status}: ${verified.text}`);
  return { token: verified.body.data.session_token, ownerId: verified.body.data.user.id };
}

// --- a small MIME reader: enough for what nodemailer sends (one level of multipart) ---

type TPart = { headers: Map<string, string>; body: string };

function splitPart(raw: string): TPart {
  const normalized = raw.replace(/\r\n/g, "\n");
  const end = normalized.indexOf("\n\n");
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? "" : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(part: TPart): string {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (encoding === "base64") return Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = part.body
      .replace(/=\n/g, "")
      .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return part.body;
}

function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) =>
    kind.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : Buffer.from(
          text.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          "latin1",
        ).toString("utf8"),
  );
}

function parseMessage(raw: string): Pick<TReceivedMail, "subject" | "text" | "html"> {
  const message = splitPart(raw);
  const subject = decodeHeader(message.headers.get("subject") ?? "");
  const type = message.headers.get("content-type") ?? "text/plain";
  const parts: TPart[] = [];
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith("multipart/") && boundary) {
    for (const chunk of message.body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith("--")) break;
      parts.push(splitPart(chunk.replace(/^\n/, "")));
    }
  } else {
    parts.push(message);
  }
  const of = (mime: string) => {
    const part = parts.find((p) => (p.headers.get("content-type") ?? "text/plain").toLowerCase().startsWith(mime));
    return part ? decodeBody(part) : "";
  };
  return { subject, text: of("text/plain"), html: of("text/html") };
}
