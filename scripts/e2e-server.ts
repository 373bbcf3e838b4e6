// The browser tests' server: a real SMTP sink, then `npm start` with SMTP_URL pointing at it.
// Playwright starts this as its webServer (playwright.config.ts), so the sink lives exactly as
// long as the server. Every mail the server sends is written, decoded, as one JSON file into
// E2E_MAIL_DIR, where the tests read it (e2e/support.ts waitForMail).
//
//   E2E_MAIL_DIR=.data/e2e-…/mail node --import tsx scripts/e2e-server.ts
import { spawn } from "node:child_process";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer } from "smtp-server";

const mailDir = process.env.E2E_MAIL_DIR;
if (!mailDir) {
  console.error("E2E_MAIL_DIR is not set (playwright.config.ts sets it).");
  process.exit(1);
}
fs.mkdirSync(mailDir, { recursive: true });

let received = 0;

const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      received += 1;
      const mail = {
        received_at: new Date().toISOString(),
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address.toLowerCase() : "",
        to: session.envelope.rcptTo.map((address) => address.address.toLowerCase()),
        ...parseMessage(raw),
      };
      // Written whole, then renamed: a reader never sees half a file.
      const name = `${String(received).padStart(5, "0")}.json`;
      const partial = path.join(mailDir!, `.${name}.tmp`);
      fs.writeFileSync(partial, JSON.stringify(mail, null, 2));
      fs.renameSync(partial, path.join(mailDir!, name));
      callback();
    });
  },
});

await new Promise<void>((resolve, reject) => {
  sink.server.once("error", reject);
  sink.listen(0, "127.0.0.1", () => resolve());
});
const { port } = sink.server.address() as AddressInfo;
const smtpUrl = `smtp://127.0.0.1:${port}?ignoreTLS=true`;
console.log(`e2e: SMTP sink on ${smtpUrl}, mails in ${mailDir}`);

const server = spawn("npm", ["start"], { stdio: "inherit", env: { ...process.env, SMTP_URL: smtpUrl } });
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.kill(signal);
    sink.close(() => undefined);
  });
}
server.on("exit", (code, signal) => {
  sink.close(() => process.exit(code ?? (signal ? 0 : 1)));
});

// --- a small MIME reader: enough for what nodemailer sends (one level of multipart) ---

type TPart = { headers: Map<string, string>; body: string };

function splitPart(raw: string): TPart {
  const normalized = raw.replace(/\r\n/g, "\n");
  const end = normalized.indexOf("\n\n");
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? "" : normalized.slice(end + 2);
  const headers = new Map<string, string>();
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

function parseMessage(raw: string): { subject: string; text: string; html: string } {
  const message = splitPart(raw);
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
  return { subject: decodeHeader(message.headers.get("subject") ?? ""), text: of("text/plain"), html: of("text/html") };
}
