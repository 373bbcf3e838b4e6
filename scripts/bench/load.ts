// HTTP load with autocannon: a warm-up run that is not counted, then the measured run, reduced
// to the figures the reports use. Shared by every benchmark module.
import autocannon from "autocannon";
import type { TCpuProbe, TCpuReading } from "./cpu";

export type TLoadOptions = {
  url: string;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  signal: AbortSignal;
  /** Samples CPU around the measured run (not the warm-up): `cpu_per_request` in the summary. */
  cpuProbe?: TCpuProbe;
};

export type TLoadSummary = {
  requests_per_second: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  latency_avg_ms: number;
  requests: number;
  non_2xx: number;
  errors: number;
  timeouts: number;
  duration_s: number;
  status_codes: Record<string, number>;
  /** µs of CPU per request of the server process and of PostgreSQL, when a probe was given. */
  cpu_per_request?: TCpuReading;
};

function runOnce(options: TLoadOptions, durationSeconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: options.method ?? "GET",
        headers: options.headers,
        body: options.body,
        connections: options.connections,
        pipelining: 1,
        duration: durationSeconds,
      },
      (error: unknown, result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(result)),
    );
    const onAbort = () => instance.stop();
    options.signal.addEventListener("abort", onAbort, { once: true });
    instance.on("done", () => options.signal.removeEventListener("abort", onAbort));
  });
}

export async function measure(options: TLoadOptions): Promise<TLoadSummary> {
  if (options.warmupSeconds > 0) await runOnce(options, options.warmupSeconds);
  options.signal.throwIfAborted();
  await options.cpuProbe?.start();
  const result = await runOnce(options, options.durationSeconds);
  const cpu = await options.cpuProbe?.stop(result.requests.total);
  options.signal.throwIfAborted();
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  return {
    requests_per_second: result.requests.average,
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    latency_avg_ms: result.latency.average,
    requests: result.requests.total,
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    duration_s: result.duration,
    status_codes: statusCodes,
    ...(cpu ? { cpu_per_request: cpu } : {}),
  };
}

/** Problems that make a load run invalid (the figures would measure error paths). */
export function loadErrors(label: string, summary: TLoadSummary): string[] {
  const errors: string[] = [];
  if (summary.non_2xx > 0) errors.push(`${label}: ${summary.non_2xx} non-2xx answers (${JSON.stringify(summary.status_codes)})`);
  if (summary.errors > 0) errors.push(`${label}: ${summary.errors} connection errors (${summary.timeouts} timeouts)`);
  if (summary.requests === 0) errors.push(`${label}: no request completed`);
  return errors;
}
