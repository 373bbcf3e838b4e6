// The browser tests' server: a real SMTP sink, then `npm start` with SMTP_URL pointing at it.
// Playwright starts this as its webServer (playwright.config.ts), so the sink lives exactly as
// long as the server. Every mail the server sends is written, decoded, as one JSON file into
// E2E_MAIL_DIR, where the tests read it (e2e/support.ts waitForMail).
//
// The sink is the one the integration tests use (test/helpers/owners.ts startSmtpSink); it
// keeps the mails in memory, and this script copies each new one to a file.
//
//   E2E_MAIL_DIR=.data/e2e-…/mail node --import tsx scripts/e2e-server.ts
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startSmtpSink, type TReceivedMail } from "../test/helpers/owners";

/** How often the sink's new mails are written out. */
const WRITE_INTERVAL_MS = 25;

const mailDir = process.env.E2E_MAIL_DIR;
if (!mailDir) {
  console.error("E2E_MAIL_DIR is not set (playwright.config.ts sets it).");
  process.exit(1);
}
fs.mkdirSync(mailDir, { recursive: true });

const sink = await startSmtpSink();
console.log(`e2e: SMTP sink on ${sink.url}, mails in ${mailDir}`);

let written = 0;
function writeNewMails() {
  while (written < sink.messages.length) {
    writeMail(sink.messages[written]!, written + 1);
    written += 1;
  }
}
const writer = setInterval(writeNewMails, WRITE_INTERVAL_MS);

function writeMail({ from, to, subject, text, html }: TReceivedMail, number: number) {
  const mail = { received_at: new Date().toISOString(), from, to, subject, text, html };
  // Written whole, then renamed: a reader never sees half a file.
  const name = `${String(number).padStart(5, "0")}.json`;
  const partial = path.join(mailDir!, `.${name}.tmp`);
  fs.writeFileSync(partial, JSON.stringify(mail, null, 2));
  fs.renameSync(partial, path.join(mailDir!, name));
}

let closing: Promise<void> | undefined;
/** Writes what is left, then stops the sink (once, whether a signal or the server's exit comes first). */
function closeSink(): Promise<void> {
  if (!closing) {
    clearInterval(writer);
    writeNewMails();
    closing = sink.close();
  }
  return closing;
}

const server = spawn("npm", ["start"], { stdio: "inherit", env: { ...process.env, SMTP_URL: sink.url } });
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.kill(signal);
    void closeSink();
  });
}
server.on("exit", (code, signal) => {
  void closeSink().then(() => process.exit(code ?? (signal ? 0 : 1)));
});
