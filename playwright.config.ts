// Browser tests of the owner panel: Debian's Chromium against `npm start` (migrate, build when
// stale, serve) on a fresh embedded database per run, or on PostgreSQL when DATABASE_URL is set.
// The server runs in AUTH_MODE=static (the owner token form) with magic links mailed to a real
// SMTP sink: scripts/e2e-server.ts starts the sink, points SMTP_URL at it and runs `npm start`;
// every mail lands as a JSON file in E2E_MAIL_DIR, where the tests read it.
import fs from "node:fs";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { E2E_LANDING_ORIGIN, E2E_OWNER_TOKEN, E2E_SOCIAL_ADS_SECRET } from "./e2e/support";

// E2E_PORT lets two checkouts run their browser tests side by side.
const PORT = Number(process.env.E2E_PORT ?? 3123);
// localhost, not 127.0.0.1: Next rewrites the host in route handlers and cookies would be lost.
const BASE_URL = `http://localhost:${PORT}`;

const DATA_ROOT = ".data";
const RUNS_KEPT = 3;

/** Every run gets its own embedded database; the last few are kept for a look after a failure. */
function freshDataDir(name: string): string {
  if (fs.existsSync(DATA_ROOT)) {
    const older = fs
      .readdirSync(DATA_ROOT)
      .filter((entry) => /^e2e-\d{4}-/i.test(entry))
      .sort()
      .slice(0, -(RUNS_KEPT - 1));
    for (const entry of older) fs.rmSync(path.join(DATA_ROOT, entry), { recursive: true, force: true });
  }
  const dir = path.join(DATA_ROOT, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

// The config is loaded by the runner and again by each worker; the runner picks the run's
// data directory and owner once and the workers inherit them through the environment.
// The owner is new every run too, so a reused PostgreSQL (DATABASE_URL) starts empty for it.
if (!process.env.E2E_RUN_ID) {
  const runId = new Date().toISOString().replace(/[:.]/g, "-").toLowerCase();
  process.env.E2E_RUN_ID = runId;
  process.env.E2E_DATA_DIR = freshDataDir(`e2e-${runId}`);
  process.env.E2E_OWNER_EMAIL = `owner-${runId}@e2e.test`;
  process.env.E2E_MAIL_DIR = path.join(process.env.E2E_DATA_DIR, "mail");
}
const dataDir = process.env.E2E_DATA_DIR!;

/** Specs that see the shared owner's empty books: they run before all the others. */
const EMPTY_STATE_SPECS = [/businesses\.spec\.ts$/, /finance-pages\.spec\.ts$/];

/** Makes the landing page's picture (public/landing/), not a test: collected only when asked. */
const MAKERS = process.env.LANDING_SHOT === "1" ? [] : [/landing-shot\.spec\.ts$/];

/**
 * Debian's Chromium (Playwright's own download cannot work here): its old headless shell
 * (package chromium-headless-shell), the lighter build Playwright itself runs headless by
 * default; about a third less CPU than the full browser in headless mode (the whole run: 483 s
 * against 685 s on one machine). The full browser when only it is installed.
 */
const DEBIAN_CHROMIUM_BINARY =
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((binary) => fs.existsSync(binary)) ?? "/usr/bin/chromium";

/** Debian's Chromium, quiet and without a sandbox. */
const DEBIAN_CHROMIUM = {
  ...devices["Desktop Chrome"],
  viewport: { width: 1280, height: 800 },
  launchOptions: {
    executablePath: DEBIAN_CHROMIUM_BINARY,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  },
};

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  // Two workers, one spec file each at a time (shell.spec.ts spreads its pages over both). The
  // specs that share the static owner assert only on their own records; those that count an
  // owner's things (notifications, integrations, plans) have an owner of their own.
  workers: 2,
  retries: 0,
  reporter: "list",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: BASE_URL,
    headless: true,
    // A failing test keeps its trace with the DOM at every step; without the screencast, which
    // was a sixth of the run's time (the final screenshot is taken on failure anyway).
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
  },
  // The specs share one owner. Those that check the first-run empty states (no businesses, no
  // balances) run first and alone, one after the other, in a project of their own; every other
  // spec may fill the books after them.
  projects: [
    {
      name: "empty-states",
      testMatch: EMPTY_STATE_SPECS,
      workers: 1,
      use: DEBIAN_CHROMIUM,
    },
    {
      name: "chromium",
      testIgnore: [...EMPTY_STATE_SPECS, ...MAKERS],
      dependencies: ["empty-states"],
      use: DEBIAN_CHROMIUM,
    },
  ],
  webServer: {
    command: "node --import tsx scripts/e2e-server.ts",
    url: `${BASE_URL}/sign-in`,
    // A clean clone builds the panel first: ~3 min on a quiet 2-core machine, more under load.
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    // Merged over process.env, so a DATABASE_URL set by the caller reaches the server.
    env: {
      PORT: String(PORT),
      AUTH_MODE: "static",
      STATIC_OWNER_TOKEN: E2E_OWNER_TOKEN,
      STATIC_OWNER_EMAIL: process.env.E2E_OWNER_EMAIL!,
      DATA_DIR: dataDir,
      E2E_MAIL_DIR: process.env.E2E_MAIL_DIR!,
      LOG_LEVEL: "warn",
      // The notification webhook's e2e receiver listens here (http, a loopback address: allowed only by this list).
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
      WEBHOOK_SECRET_SOCIAL_ADS: E2E_SOCIAL_ADS_SECRET,
      // The waitlist spec's landing page (a second origin it serves itself) may call POST /v1/waitlist.
      LANDING_ORIGIN: E2E_LANDING_ORIGIN,
    },
  },
});
