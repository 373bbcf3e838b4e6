// A seeded slice of `npm run fuzz` (test/helpers/fuzz.ts) inside the test suite: malformed
// requests over every operation of the route table, as the owner, an agent and anonymous
// callers, through the real REST handler. No answer is 5xx, every 4xx carries the contract's
// error body, and no refused request changes a table. The seed is fixed so a failure replays;
// FUZZ_SEED and FUZZ_REQUESTS override it (`npm run fuzz -- --seed=S` runs the same generator).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../helpers/api";
import { createFuzzWorld, describeFindings, FUZZ_ENV, runFuzz, tableState, type TFuzzWorld } from "../helpers/fuzz";

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 600);

let api: TTestApi;
let world: TFuzzWorld;

beforeAll(async () => {
  api = await createTestApi({ env: FUZZ_ENV });
  world = await createFuzzWorld(api);
});
afterAll(async () => api?.close());

describe("fuzzing the REST layer", () => {
  it("the write check sees an insert and an update (so 'no refused write' means something)", async () => {
    const before = await tableState(api);
    const created = await api.call("POST", "/v1/businesses", { body: { name: "Probe", currency: "EUR" } });
    const afterInsert = await tableState(api);
    expect(afterInsert.get("businesses")).not.toBe(before.get("businesses"));
    await api.call("PATCH", `/v1/businesses/${created.body.data.id}`, { body: { name: "Probe 2" } });
    expect((await tableState(api)).get("businesses")).not.toBe(afterInsert.get("businesses"));
  });

  it(`${REQUESTS} malformed requests (seed ${SEED}): no 5xx, well-formed 4xx, no write by a refused request`, async () => {
    const report = await runFuzz(api, world, { requests: REQUESTS, seed: SEED });
    const summary = `replay: FUZZ_SEED=${SEED} FUZZ_REQUESTS=${REQUESTS} (or npm run fuzz -- --seed=${SEED} --requests=${REQUESTS})\n${describeFindings(report)}`;
    expect(report.requests).toBe(REQUESTS);
    // Every operation of the route table was called, and the MCP companion.
    expect(Object.keys(report.byOperation).length, summary).toBe(world.operations.length + 1);
    expect(report.byOperation["POST /mcp"], summary).toBeGreaterThan(0);
    expect(report.findings, summary).toEqual([]);
    expect(report.refused).toBeGreaterThan(REQUESTS / 2);
  }, 180_000);
});
