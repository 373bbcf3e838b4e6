// Benchmark "import": a generated 100,000-row bank statement (≈ 8 MB CSV) previewed with
// POST /v1/imports (multipart) and confirmed with POST /v1/imports/{id}/confirm on PostgreSQL,
// through the running server. Peak RSS is the highest VmHWM of the server's processes.
// Targets: preview ≤ 5 s, confirm ≤ 15 s, server peak RSS ≤ 512 MB.
import { randomUUID } from "node:crypto";
import { peakRssByProcess } from "./server";
import type { TBenchContext, TBenchmark, TBenchOutcome } from "./types";

const ROWS = 100_000;
const TARGETS = { preview_s: 5, confirm_s: 15, peak_rss_mb: 512 };

/** Highest resident set (VmHWM, MB) of the server's processes. */
function peakRssMb(groupId: number): number {
  return Math.max(0, ...Object.values(peakRssByProcess(groupId)));
}

/** A plausible statement: many counterparties, some monthly subscriptions, EUR, signed amounts. */
function statement(rows: number): string {
  const lines = ["Date,Amount,Currency,Description,Counterparty,IBAN"];
  const start = Date.parse("2025-01-01T00:00:00Z");
  for (let i = 0; i < rows; i++) {
    const day = new Date(start + Math.floor((i / rows) * 600) * 86_400_000).toISOString().slice(0, 10);
    const cents = 100 + ((i * 7919) % 250_000);
    const out = i % 5 !== 0;
    const amount = `${out ? "-" : ""}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
    const party = `Merchant ${i % 997}`;
    lines.push(`${day},${amount},EUR,Card payment ${i} ${party},${party},DE89370400440532${String(i % 10_000).padStart(6, "0")}`);
  }
  return lines.join("\n");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read field by field
async function json(res: Response, expected: number, what: string): Promise<any> {
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

export const importBenchmark: TBenchmark = {
  name: "import",
  description: "a 100,000-row CSV statement previewed and confirmed on PostgreSQL",
  async run(ctx: TBenchContext): Promise<TBenchOutcome> {
    const auth = { Authorization: `Bearer ${ctx.token}` };
    const business = await json(
      await fetch(`${ctx.baseUrl}/v1/businesses`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
        body: JSON.stringify({ name: "Import Bench", currency: "EUR" }),
      }),
      201,
      "POST /v1/businesses",
    );
    const csv = statement(ROWS);
    const form = new FormData();
    form.set("business_id", business.data.id);
    form.set("preset", "generic");
    form.set("file", new Blob([csv], { type: "text/csv" }), "statement.csv");
    const rssBefore = peakRssMb(ctx.serverPid);

    const previewStart = performance.now();
    const preview = await json(
      await fetch(`${ctx.baseUrl}/v1/imports`, {
        method: "POST",
        headers: { ...auth, "Idempotency-Key": randomUUID() },
        body: form,
        signal: ctx.signal,
      }),
      200,
      "POST /v1/imports",
    );
    const previewS = (performance.now() - previewStart) / 1000;
    const rssAfterPreview = peakRssMb(ctx.serverPid);

    const confirmStart = performance.now();
    const confirmed = await json(
      await fetch(`${ctx.baseUrl}/v1/imports/${preview.data.import_id}/confirm`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
        body: "{}",
        signal: ctx.signal,
      }),
      201,
      "POST /v1/imports/{id}/confirm",
    );
    const confirmS = (performance.now() - confirmStart) / 1000;
    const peak = peakRssMb(ctx.serverPid);

    const errors: string[] = [];
    if (confirmed.data.inserted + confirmed.data.deduped === 0) errors.push("confirm wrote nothing");
    const results = {
      rows: ROWS,
      file_mb: Buffer.byteLength(csv) / 1024 / 1024,
      preview_s: previewS,
      confirm_s: confirmS,
      inserted: confirmed.data.inserted,
      deduped: confirmed.data.deduped,
      rejected: confirmed.data.rejected.length,
      proposals: preview.data.preview.proposals.length,
      server_peak_rss_mb: peak,
      server_peak_rss_before_mb: rssBefore,
      server_peak_rss_after_preview_mb: rssAfterPreview,
      targets: TARGETS,
      met: previewS <= TARGETS.preview_s && confirmS <= TARGETS.confirm_s && peak <= TARGETS.peak_rss_mb,
    };
    const report = [
      `${ROWS} rows, ${results.file_mb.toFixed(1)} MB: preview ${previewS.toFixed(2)} s, confirm ${confirmS.toFixed(2)} s ` +
        `(${confirmed.data.inserted} inserted), server peak RSS ${peak.toFixed(0)} MB (before ${rssBefore.toFixed(0)} MB, ` +
        `after the preview ${rssAfterPreview.toFixed(0)} MB)`,
      `targets: preview ≤ ${TARGETS.preview_s} s, confirm ≤ ${TARGETS.confirm_s} s, peak RSS ≤ ${TARGETS.peak_rss_mb} MB: ${
        results.met ? "met" : "NOT met"
      }`,
    ].join("\n");
    return { results, report, errors };
  },
};
