import { describe, expect, it } from "vitest";
import { WeightedGate } from "./upload-gate";

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("WeightedGate", () => {
  it("lets weights in while they fit, queues the rest in arrival order, and releases once", async () => {
    const gate = new WeightedGate(100);
    const a = await gate.acquire(60);
    const order: string[] = [];
    const b = gate.acquire(60).then((release) => (order.push("b"), release));
    const c = gate.acquire(10).then((release) => (order.push("c"), release));
    await tick();
    // c would fit, but waits behind b: first come, first served.
    expect(order).toEqual([]);
    expect(gate.state).toEqual({ used: 60, waiting: 2 });
    a();
    a(); // a second release changes nothing
    const releaseB = await b;
    const releaseC = await c;
    expect(order).toEqual(["b", "c"]);
    expect(gate.state).toEqual({ used: 70, waiting: 0 });
    releaseB();
    releaseC();
    expect(gate.state.used).toBe(0);
  });

  it("takes a weight above the capacity as the whole capacity, and at least 1", async () => {
    const gate = new WeightedGate(100);
    const big = await gate.acquire(10_000);
    expect(gate.state.used).toBe(100);
    big();
    const none = await gate.acquire(0);
    expect(gate.state.used).toBe(1);
    none();
  });
});
