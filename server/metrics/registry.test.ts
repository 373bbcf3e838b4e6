import { describe, expect, it } from "vitest";
import { MetricsRegistry } from "./registry";

describe("the metrics registry", () => {
  it("renders counters, cumulative histograms and collected gauges in Prometheus text", async () => {
    const registry = new MetricsRegistry();
    registry.recordRequest("events-list", "GET", 200, 0.004);
    registry.recordRequest("events-list", "GET", 200, 0.03);
    registry.addCollector("queue", async () => [
      { name: "fbo_job_queue_depth", help: "Jobs.", type: "gauge", labels: { queue: 'a"b' }, value: 2 },
    ]);
    registry.addCollector("broken", async () => {
      throw new Error("down");
    });
    const text = await registry.render();
    expect(text).toContain('fbo_http_requests_total{operation="events-list",method="GET",status="200"} 2');
    expect(text).toContain(
      'fbo_http_request_duration_seconds_bucket{operation="events-list",method="GET",status="200",le="0.005"} 1',
    );
    expect(text).toContain(
      'fbo_http_request_duration_seconds_bucket{operation="events-list",method="GET",status="200",le="0.05"} 2',
    );
    expect(text).toContain(
      'fbo_http_request_duration_seconds_bucket{operation="events-list",method="GET",status="200",le="+Inf"} 2',
    );
    expect(text).toContain('fbo_http_request_duration_seconds_count{operation="events-list",method="GET",status="200"} 2');
    expect(text).toContain('fbo_job_queue_depth{queue="a\\"b"} 2');
    expect(text).toContain('fbo_metrics_collector_errors{collector="broken",error="down"} 1');
    expect(text.match(/# TYPE fbo_job_queue_depth gauge/g)).toHaveLength(1);
  });
});
