// HTTP load with autocannon: a warm-up run that is not counted, then the measured run, reduced
// to the figures the reports use. Shared by every benchmark module. measureAlternating compares
// several targets in turns, so that a change of the machine's load during a run touches them all.
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

export type TLoadTarget = {
  url: string;
  method?: TLoadOptions["method"];
  headers?: Record<string, string>;
  body?: string;
};

export type TAlternatingOptions = Omit<TLoadOptions, keyof TLoadTarget> & {
  /** Each target's measured time is split into this many turns, the targets taking turns. */
  rounds: number;
};

/** Each target's requests per second in each round (the spread of a ratio across rounds). */
export type TRoundRates<K extends string> = Array<Record<K, number>>;

/**
 * Measures `targets` in turns: a warm-up of each, then `rounds` rounds in which every target
 * runs for durationSeconds / rounds (the order rotating, so none is always first). Each
 * target's summary adds up its turns: requests over the time they took, CPU over the requests;
 * latencies are the turns' request-weighted means of their percentiles.
 */
export async function measureAlternating<K extends string>(
  targets: Record<K, TLoadTarget>,
  options: TAlternatingOptions,
): Promise<{ summaries: Record<K, TLoadSummary>; rounds: TRoundRates<K> }> {
  const keys = Object.keys(targets) as K[];
  const rounds = Math.max(1, Math.round(options.rounds));
  const turnSeconds = options.durationSeconds / rounds;
  if (options.warmupSeconds > 0) {
    for (const key of keys) await runOnce({ ...options, ...targets[key] }, options.warmupSeconds);
  }
  const turns = new Map<K, Array<{ result: autocannon.Result; cpu?: TCpuReading }>>(keys.map((key) => [key, []]));
  const rates: TRoundRates<K> = [];
  for (let round = 0; round < rounds; round++) {
    const rate = {} as Record<K, number>;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[(i + round) % keys.length]!;
      options.signal.throwIfAborted();
      await options.cpuProbe?.start();
      const result = await runOnce({ ...options, ...targets[key] }, turnSeconds);
      const cpu = await options.cpuProbe?.stop(result.requests.total);
      turns.get(key)!.push({ result, cpu });
      rate[key] = result.duration > 0 ? result.requests.total / result.duration : 0;
    }
    rates.push(rate);
  }
  options.signal.throwIfAborted();
  const summaries = {} as Record<K, TLoadSummary>;
  for (const key of keys) summaries[key] = combineTurns(turns.get(key)!);
  return { summaries, rounds: rates };
}

function combineTurns(turns: Array<{ result: autocannon.Result; cpu?: TCpuReading }>): TLoadSummary {
  let requests = 0;
  let duration = 0;
  const weighted = { p50: 0, p99: 0, avg: 0 };
  const cpu = { server_us: 0, postgres_us: 0, client_us: 0 };
  let cpuRequests = 0;
  const statusCodes: Record<string, number> = {};
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  for (const { result, cpu: reading } of turns) {
    const n = result.requests.total;
    requests += n;
    duration += result.duration;
    weighted.p50 += result.latency.p50 * n;
    weighted.p99 += result.latency.p99 * n;
    weighted.avg += result.latency.average * n;
    non2xx += result.non2xx;
    errors += result.errors;
    timeouts += result.timeouts;
    for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) {
      statusCodes[code] = (statusCodes[code] ?? 0) + (stat.count ?? 0);
    }
    if (reading) {
      cpuRequests += n;
      cpu.server_us += reading.server_us * n;
      cpu.postgres_us += reading.postgres_us * n;
      cpu.client_us += reading.client_us * n;
    }
  }
  const per = (total: number, count: number) => (count > 0 ? total / count : 0);
  return {
    requests_per_second: per(requests, duration),
    latency_p50_ms: per(weighted.p50, requests),
    latency_p99_ms: per(weighted.p99, requests),
    latency_avg_ms: per(weighted.avg, requests),
    requests,
    non_2xx: non2xx,
    errors,
    timeouts,
    duration_s: duration,
    status_codes: statusCodes,
    ...(cpuRequests > 0
      ? {
          cpu_per_request: {
            server_us: cpu.server_us / cpuRequests,
            postgres_us: cpu.postgres_us / cpuRequests,
            client_us: cpu.client_us / cpuRequests,
          },
        }
      : {}),
  };
}
