// Benchmark "upload" (issue 32 item 5, pinned-wave3 §1.5): the files that once took the server
// down, through the running production server, each alone and four at once, while a second
// client measures GET /v1/me back to back: the 556,911-row one-field file (10 MB), one 10 MB
// line, a 200,000-column file (1.7 MB), and a valid 250,000-row statement (the largest a
// preview may be). Per scenario: the answers' statuses, the upload time, GET /v1/me's p50/p99/max
// and the server's peak resident memory (VmHWM of every process of its group, reset before each
// scenario through /proc/<pid>/clear_refs).
// Targets: the refused files answer 413, the valid one 200; peak RSS < 512 MB; GET /v1/me p99 < 250 ms.
import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { peakRssByProcess } from "./server";
import type { TBenchContext, TBenchmark, TBenchOutcome } from "./types";

const TARGETS = { peak_rss_mb: 512, me_p99_ms: 250 };

const manyTinyRows = () => "x\n" + "1234567890123456\n".repeat(556_911);
const oneLongLine = () => "Date,Amount," + "y".repeat(10 * 1024 * 1024 - 100);
const wideFile = () => `${"c,".repeat(200_000)}\n${"1,".repeat(200_000)}\n`.slice(0, 1_700_000);
function validStatement(rows: number): string {
  const lines = ["Date,Amount,Currency,Description"];
  const start = Date.parse("2025-01-01T00:00:00Z");
  for (let i = 0; i < rows; i++) {
    const day = new Date(start + Math.floor((i / rows) * 600) * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${day},-${1 + (i % 900)}.${String(i % 100).padStart(2, "0")},EUR,Card ${i} Merchant ${i % 997}`);
  }
  return lines.join("\n");
}

type TScenario = { name: string; file: () => string; expect: number };
const SCENARIOS: TScenario[] = [
  { name: "556,911 one-field rows", file: manyTinyRows, expect: 413 },
  { name: "one 10 MB line", file: oneLongLine, expect: 413 },
  { name: "200,000 columns", file: wideFile, expect: 413 },
  { name: "valid 250,000 rows", file: () => validStatement(250_000), expect: 200 },
];

/** Resets the peak RSS of the server's processes (clear_refs 5), so each scenario reads its own. */
function resetPeaks(groupId: number): void {
  for (const key of Object.keys(peakRssByProcess(groupId))) {
    try {
      fs.writeFileSync(`/proc/${key.split(" ")[0]}/clear_refs`, "5");
    } catch {
      // gone, or not ours to reset: its peak then covers earlier scenarios too
    }
  }
}
const peakRssMb = (groupId: number) => Math.max(0, ...Object.values(peakRssByProcess(groupId)));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const uploadBenchmark: TBenchmark = {
  name: "upload",
  description: "hostile and largest valid statements, alone and four at once, while GET /v1/me is measured",
  describeLoad: () => "each scenario: 1 upload, then 4 at once; a second client calls GET /v1/me back to back meanwhile",
  async run(ctx: TBenchContext): Promise<TBenchOutcome> {
    const auth = { Authorization: `Bearer ${ctx.token}` };
    const created = await fetch(`${ctx.baseUrl}/v1/businesses`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify({ name: "Upload Bench", currency: "EUR" }),
    });
    if (created.status !== 201) throw new Error(`POST /v1/businesses answered ${created.status}`);
    const businessId = ((await created.json()) as { data: { id: string } }).data.id;

    const upload = async (file: string) => {
      const form = new FormData();
      form.set("business_id", businessId);
      form.set("file", new Blob([file], { type: "text/csv" }), "statement.csv");
      const res = await fetch(`${ctx.baseUrl}/v1/imports`, {
        method: "POST",
        headers: { ...auth, "Idempotency-Key": randomUUID() },
        body: form,
        signal: ctx.signal,
      });
      await res.arrayBuffer();
      return res.status;
    };

    const errors: string[] = [];
    const rows: Array<Record<string, unknown>> = [];
    for (const scenario of SCENARIOS) {
      const file = scenario.file();
      for (const concurrent of [1, 4]) {
        // A quiet moment first, so the peak is this scenario's.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        resetPeaks(ctx.serverPid);
        let probing = true;
        const latencies: number[] = [];
        const probe = (async () => {
          while (probing) {
            const started = performance.now();
            const res = await fetch(`${ctx.baseUrl}/v1/me`, { headers: auth });
            await res.arrayBuffer();
            latencies.push(performance.now() - started);
            if (res.status !== 200) errors.push(`GET /v1/me answered ${res.status} during ${scenario.name}`);
          }
        })();
        const started = performance.now();
        const statuses = await Promise.all(Array.from({ length: concurrent }, () => upload(file)));
        const uploadS = (performance.now() - started) / 1000;
        probing = false;
        await probe;
        const alive = await fetch(`${ctx.baseUrl}/v1/me`, { headers: auth });
        if (alive.status !== 200) errors.push(`the server did not answer after ${scenario.name} ×${concurrent}`);
        for (const status of statuses)
          if (status !== scenario.expect) errors.push(`${scenario.name} ×${concurrent}: ${status}, expected ${scenario.expect}`);
        const sorted = [...latencies].sort((a, b) => a - b);
        const peak = peakRssMb(ctx.serverPid);
        const meP99 = percentile(sorted, 99);
        rows.push({
          scenario: scenario.name,
          concurrent,
          file_mb: Number((Buffer.byteLength(file) / 1024 / 1024).toFixed(2)),
          statuses,
          upload_s: Number(uploadS.toFixed(2)),
          me_requests: sorted.length,
          me_p50_ms: Number(percentile(sorted, 50).toFixed(1)),
          me_p99_ms: Number(meP99.toFixed(1)),
          me_max_ms: Number((sorted.at(-1) ?? NaN).toFixed(1)),
          peak_rss_mb: peak,
          pass: peak < TARGETS.peak_rss_mb && meP99 < TARGETS.me_p99_ms && statuses.every((s) => s === scenario.expect),
        });
      }
    }
    const fmt = (value: unknown, width: number) => String(value).padStart(width);
    const report = [
      `${"scenario".padEnd(24)} ×n  status  upload s  /v1/me p50   p99    max  (n)   peak RSS`,
      ...rows.map(
        (r) =>
          `${String(r.scenario).padEnd(24)}${fmt(r.concurrent, 3)}  ${fmt((r.statuses as number[])[0], 6)}${fmt(r.upload_s, 10)}` +
          `${fmt(r.me_p50_ms, 12)}${fmt(r.me_p99_ms, 7)}${fmt(r.me_max_ms, 7)}${fmt(`(${String(r.me_requests)})`, 7)}` +
          `${fmt(`${String(r.peak_rss_mb)} MB`, 10)}  ${r.pass ? "PASS" : "FAIL"}`,
      ),
      `targets: peak RSS < ${TARGETS.peak_rss_mb} MB, GET /v1/me p99 < ${TARGETS.me_p99_ms} ms, refused files 413, the valid one 200`,
    ].join("\n");
    return { results: { targets: TARGETS, scenarios: rows }, report, errors };
  },
};
