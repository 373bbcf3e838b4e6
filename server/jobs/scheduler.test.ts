import { describe, expect, it, vi } from "vitest";
import type { TDbOrTx } from "../db/client";
import { JOBS } from "./registry";
import { startJobs } from "./scheduler";

process.env.LOG_LEVEL = "silent";

describe("startJobs", () => {
  it("runs each job at once, never overlapping itself, and survives a failing run", async () => {
    let runs = 0;
    let release: () => void = () => {};
    const scheduler = startJobs(
      [
        {
          name: "slow",
          intervalMs: 60_000,
          run: () => {
            runs++;
            return new Promise<void>((resolve) => (release = resolve));
          },
        },
        { name: "broken", intervalMs: 60_000, run: async () => Promise.reject(new Error("boom")) },
      ],
      async () => ({}) as TDbOrTx,
    );
    await vi.waitFor(() => expect(runs).toBe(1)); // the run at start began
    const again = scheduler.runNow("slow"); // joins the run in progress
    expect(runs).toBe(1);
    release();
    await again;
    await expect(scheduler.runNow("broken")).resolves.toBeUndefined();
    scheduler.stop();
  });

  it("runs the jobs at start one after another, in their order", async () => {
    const order: string[] = [];
    const releases: Array<() => void> = [];
    const job = (name: string) => ({
      name,
      intervalMs: 60_000,
      run: () => {
        order.push(name);
        return new Promise<void>((resolve) => releases.push(resolve));
      },
    });
    const scheduler = startJobs([job("first"), job("second")], async () => ({}) as TDbOrTx);
    await vi.waitFor(() => expect(order).toEqual(["first"]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(["first"]); // the second waits for the first
    releases[0]!();
    await vi.waitFor(() => expect(order).toEqual(["first", "second"]));
    releases[1]!();
    scheduler.stop();
  });

  it("registers maintenance, the FX refresh, notification delivery, the token expiry notice, the daily brief, the plan expiry and the reconciliation (last)", () => {
    expect(JOBS.map((j) => j.name)).toEqual([
      "maintenance",
      "fx-refresh",
      "notification-delivery",
      "agent-token-expiry",
      "daily-brief",
      "plan-expiry",
      "reconciliation",
    ]);
  });
});
