// Issue #11 item 6: after a 30,000-line statement on the embedded database, a restart died with
// "JavaScript heap out of memory" and the next one listened but answered nothing for minutes,
// because the reconciliation run at start held the only connection for one huge transaction.
//
// This restarts the real server (`npm start` = scripts/start.ts: migrate, build when stale,
// `next start` with its bounded heap) on an embedded DATA_DIR holding 100,000 imported lines
// (written with set-based SQL, as a confirm leaves them) and a payments integration that covers
// them, so the run at start has lines to match and alerts to raise. While that run goes on, the
// server must answer within 10 s of listening and keep answering, and no process of it may
// exceed 512 MB resident. PGlite only: on PostgreSQL the run goes through pg-boss on its cron,
// never at start.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findFreePort, peakRssByProcess, startServer, type TRunningServer } from "../../scripts/bench/server";
import { testEngine } from "../../test/helpers/database";
import { connectDatabase } from "../db/client";
import { migrateDatabase } from "../db/migrate";
import { seedImportedLines } from "../../test/helpers/reconciliation";

const LINES = 100_000;
const DAYS = 300;
const TOKEN = "restart-owner-token-0123456789";
const EMAIL = "restart-owner@example.test";
const ANSWER_WITHIN_MS = 10_000;
const PEAK_RSS_MB = 512;

let server: TRunningServer | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fbo-restart-"));
const target = { engine: "pglite" as const, dataDir: path.join(dataDir, "pglite") };
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The statement and what the integration reported, written while the server is down. */
async function seed(): Promise<void> {
  await migrateDatabase(target);
  const database = await connectDatabase(target);
  try {
    const db = database.prisma;
    const owner = await db.owner.create({ data: { email: EMAIL, baseCurrency: "EUR" } });
    const business = await db.business.create({ data: { ownerId: owner.id, name: "Shop", currency: "EUR" } });
    const manual = await db.integration.create({
      data: {
        ownerId: owner.id,
        provider: "manual_import",
        name: "Bank statement imports",
        businessId: business.id,
        accountId: `manual:${owner.id}`,
      },
    });
    const payments = await db.integration.create({
      data: {
        ownerId: owner.id,
        provider: "payments_a",
        name: "Payments A",
        businessId: business.id,
        accountId: `acct_${randomUUID()}`,
        createdAt: new Date("2025-06-01T00:00:00Z"),
        lastSyncAt: new Date(Date.now() - 86_400_000),
      },
    });
    await seedImportedLines(db, {
      ownerId: owner.id,
      businessId: business.id,
      integrationId: manual.id,
      importId: randomUUID(),
      count: LINES,
      from: "2026-01-01",
      days: DAYS,
    });
    // One line in a hundred has its charge or payout, a day later: the run at start matches them.
    await db.$executeRaw`
      INSERT INTO financial_events (id, owner_id, business_id, type, state, status, amount_minor, currency,
                                    occurred_on, source_type, integration_id, external_id, chain_external_id,
                                    payload, created_at, updated_at)
      SELECT gen_random_uuid(), owner_id, business_id, type, 'actual', 'confirmed', amount_minor, currency,
             occurred_on + 1, 'PAYMENTS_API', ${payments.id}::uuid, 'ch_' || external_id, 'ch_' || external_id,
             '{}'::jsonb, now(), now()
        FROM financial_events
       WHERE integration_id = ${manual.id}::uuid AND (payload->>'row')::int % 100 = 0`;
  } finally {
    await database.close();
  }
}

describe.skipIf(testEngine() !== "pglite")("restart on an embedded database holding 100,000 imported lines", () => {
  it(
    "answers within 10 s of listening and all along the reconciliation run, under 512 MB",
    { timeout: 15 * 60_000 },
    async () => {
      await seed();

      let listeningAt: number | undefined;
      let run: { at: number; result: { matched: number; signaled: number; unreconciled: number; complete: boolean } } | undefined;
      const errors: string[] = [];
      const port = await findFreePort(3300 + (process.pid % 500));
      server = await startServer({
        cwd: process.cwd(),
        port,
        readyPath: "/v1/openapi.json",
        readyTimeoutMs: 10 * 60_000, // a first `next build` on a busy machine
        env: {
          DATA_DIR: dataDir,
          AUTH_MODE: "static",
          STATIC_OWNER_TOKEN: TOKEN,
          STATIC_OWNER_EMAIL: EMAIL,
          LOG_LEVEL: "debug",
          RATE_LIMIT_PER_MINUTE: "100000",
          DATABASE_URL: "",
          NODE_ENV: "production",
        },
        onLine: (line) => {
          // The server entry (scripts/serve.mjs) prints "Ready on <url>" once it listens.
          if (listeningAt === undefined && /Ready on |Local:|Ready in/.test(line)) listeningAt = Date.now();
          if (line.startsWith("{") && line.includes('"level":"error"')) errors.push(line);
          if (line.startsWith('{"') && line.includes('"message":"reconciliation"')) {
            run = { at: Date.now(), result: JSON.parse(line).result };
          }
        },
      });
      const answeredAt = Date.now();
      expect(listeningAt).toBeDefined();
      expect(answeredAt - listeningAt!).toBeLessThan(ANSWER_WITHIN_MS);

      // Until the run at start ends: an authenticated read every 250 ms, each within 10 s.
      const latencies: number[] = [];
      const deadline = Date.now() + 10 * 60_000;
      while (!run && Date.now() < deadline) {
        const started = Date.now();
        const res = await fetch(`${server.baseUrl}/v1/me`, {
          headers: { authorization: `Bearer ${TOKEN}` },
          signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
        });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { data: { email: string } }).data.email).toBe(EMAIL);
        latencies.push(Date.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const peaks = peakRssByProcess(server.pid);
      console.log(
        `restart: answered ${answeredAt - listeningAt!} ms after listening; run ${JSON.stringify(run?.result)} ` +
          `ended ${run ? run.at - listeningAt! : "-"} ms after; ${latencies.length} reads during it, slowest ` +
          `${Math.max(...latencies)} ms; peak RSS ${JSON.stringify(peaks)}`,
      );
      expect(errors).toEqual([]);
      expect(run?.result.complete).toBe(true);
      // The requests really ran beside the job.
      expect(latencies.length).toBeGreaterThanOrEqual(5);
      // The server process (scripts/serve.mjs); the launcher (scripts/start.ts) only migrates and waits.
      const serverPeaks = Object.entries(peaks).filter(([name]) => name.includes("serve.mjs"));
      expect(serverPeaks).toHaveLength(1);
      expect(serverPeaks[0]![1]).toBeLessThan(PEAK_RSS_MB);
      await server.stop();
      server = undefined;

      // One alert per import and date, naming its lines: none per line. The payments integration
      // reports money out only (its charges copy even, money-out rows), so only the 50,000
      // money-out lines count, less the 1,000 matched: 49,000, on 294 dates (on 6 dates every
      // money-out line matched).
      expect(run!.result).toEqual({ matched: 1_000, signaled: DAYS - 6, unreconciled: 49_000, complete: true });
      const database = await connectDatabase(target);
      try {
        const alerts = await database.prisma.alert.findMany({ where: { code: "integration.unreconciled" } });
        expect(alerts).toHaveLength(DAYS - 6);
        const counts = alerts.map((a) => Number(/^(\d+) bank lines of \d{4}-\d{2}-\d{2} \(import /.exec(a.message)?.[1]));
        expect(counts.reduce((sum, n) => sum + n, 0)).toBe(49_000);
      } finally {
        await database.close();
      }
    },
  );
});
