// The process's Prometheus metrics, in the text exposition format (version 0.0.4), without a
// library: counters and histograms recorded as requests end, and gauges read at scrape time by
// collectors (job queues, pools, replica lag). One registry per process, kept on globalThis so
// the server entry (scripts/serve.mjs, plain JavaScript outside the bundle) renders the same one
// the bundled route handlers record into. serve.mjs serves it on METRICS_PORT, on loopback only
// (METRICS_HOST), never on the public port: see docs/scaling.md.

export const METRICS_KEY = Symbol.for("finance-back-office.metrics");

/** Request latency buckets in seconds (a /v1 call here is 2–50 ms; a report export up to seconds). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

export type TLabels = Record<string, string>;
export type TSample = { name: string; help: string; type: "gauge" | "counter"; labels?: TLabels; value: number };
export type TCollector = () => Promise<TSample[]>;

type THistogram = { labels: TLabels; counts: number[]; sum: number; count: number };

function labelText(labels: TLabels | undefined): string {
  const entries = Object.entries(labels ?? {});
  if (!entries.length) return "";
  const escape = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
  return `{${entries.map(([key, value]) => `${key}="${escape(value)}"`).join(",")}}`;
}

export class MetricsRegistry {
  private readonly counters = new Map<string, { labels: TLabels; value: number }>();
  private readonly histograms = new Map<string, THistogram>();
  private readonly collectors = new Map<string, TCollector>();

  /** One finished /v1 call: its operation (operationId), HTTP status and duration. */
  recordRequest(operation: string, method: string, status: number, seconds: number): void {
    const labels = { operation, method, status: String(status) };
    const key = `${operation} ${method} ${status}`;
    const counter = this.counters.get(key) ?? { labels, value: 0 };
    counter.value += 1;
    this.counters.set(key, counter);
    let histogram = this.histograms.get(key);
    if (!histogram) {
      histogram = { labels, counts: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.histograms.set(key, histogram);
    }
    LATENCY_BUCKETS.forEach((bound, index) => {
      if (seconds <= bound) histogram.counts[index]! += 1;
    });
    histogram.sum += seconds;
    histogram.count += 1;
  }

  /** A named source of gauges read at each scrape (a later one of the same name replaces it). */
  addCollector(name: string, collect: TCollector): void {
    this.collectors.set(name, collect);
  }

  async render(): Promise<string> {
    const lines: string[] = [];
    lines.push("# HELP fbo_http_requests_total /v1 requests by operation, method and status.");
    lines.push("# TYPE fbo_http_requests_total counter");
    for (const { labels, value } of this.counters.values()) lines.push(`fbo_http_requests_total${labelText(labels)} ${value}`);
    lines.push("# HELP fbo_http_request_duration_seconds /v1 request latency by operation, method and status.");
    lines.push("# TYPE fbo_http_request_duration_seconds histogram");
    for (const histogram of this.histograms.values()) {
      LATENCY_BUCKETS.forEach((bound, index) => {
        lines.push(
          `fbo_http_request_duration_seconds_bucket${labelText({ ...histogram.labels, le: String(bound) })} ${histogram.counts[index]}`,
        );
      });
      lines.push(`fbo_http_request_duration_seconds_bucket${labelText({ ...histogram.labels, le: "+Inf" })} ${histogram.count}`);
      lines.push(`fbo_http_request_duration_seconds_sum${labelText(histogram.labels)} ${histogram.sum}`);
      lines.push(`fbo_http_request_duration_seconds_count${labelText(histogram.labels)} ${histogram.count}`);
    }
    const samples = (
      await Promise.all(
        [...this.collectors.entries()].map(([name, collect]) =>
          collect().catch((error: unknown) => [
            {
              name: "fbo_metrics_collector_errors",
              help: "Collectors that failed at this scrape.",
              type: "gauge" as const,
              labels: { collector: name, error: error instanceof Error ? error.message.slice(0, 80) : "error" },
              value: 1,
            },
          ]),
        ),
      )
    ).flat();
    const described = new Set<string>();
    for (const sample of samples.sort((a, b) => a.name.localeCompare(b.name))) {
      if (!described.has(sample.name)) {
        described.add(sample.name);
        lines.push(`# HELP ${sample.name} ${sample.help}`);
        lines.push(`# TYPE ${sample.name} ${sample.type}`);
      }
      lines.push(`${sample.name}${labelText(sample.labels)} ${sample.value}`);
    }
    return lines.join("\n") + "\n";
  }
}

/** The process's registry (created on first use). */
export function metrics(): MetricsRegistry {
  const store = globalThis as unknown as Record<symbol, MetricsRegistry | undefined>;
  return (store[METRICS_KEY] ??= new MetricsRegistry());
}
