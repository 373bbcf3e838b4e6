// The rate limit shared by app instances: two Prisma clients on one database stand for two
// instances, each leasing permits from the shared count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyTestEnv, callApi, createTestApi, OWNER_TOKEN, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { connectDatabase, type TDatabase } from "../db/client";
import { fixedClock } from "../shared/clock";
import { consumeRateLimit, leaseSize } from "./rate-limit";
import { createV1Handler } from "./v1";

let api: TTestApi;
let secondInstanceDb: TDatabase;
// Both instances count windows on this clock, which stands still: a sequence never straddles two.
const clock = fixedClock("2026-11-22T10:00:05Z");

beforeAll(async () => {
  api = await createTestApi({ clock });
  secondInstanceDb = await connectDatabase(api.database.target);
});
afterAll(async () => {
  applyTestEnv({ RATE_LIMIT_PER_MINUTE: "100000", STATIC_OWNER_TOKEN: OWNER_TOKEN });
  await secondInstanceDb?.close();
  await api?.close();
});

describe("leases", () => {
  it("leases 1/40 of the limit at a time, at least one, at most 50", () => {
    expect([1, 3, 79, 80, 120, 1000, 4000, 1e8].map(leaseSize)).toEqual([1, 1, 1, 2, 3, 25, 50, 50]);
  });

  it("counts exactly with one-permit leases and refuses the request past the limit", async () => {
    const now = new Date("2026-11-22T10:00:05Z");
    const states = [];
    for (let i = 0; i < 4; i++) states.push(await consumeRateLimit(api.db, "exact-key", 3, now));
    expect(states.map((s) => [s.remaining, s.exceeded])).toEqual([
      [2, false],
      [1, false],
      [0, false],
      [0, true],
    ]);
    expect(states[0]!.resetAt).toBe(Date.parse("2026-11-22T10:01:00Z") / 1000);
    // A new window starts afresh.
    expect((await consumeRateLimit(api.db, "exact-key", 3, new Date("2026-11-22T10:01:00Z"))).remaining).toBe(2);
  });
});

describe("across app instances", () => {
  it("shows one instance's lease in the other's remaining count", async () => {
    const token = "shared-counter-token-0123456789";
    applyTestEnv({ RATE_LIMIT_PER_MINUTE: "1000", STATIC_OWNER_TOKEN: token });
    const second = createV1Handler({ getDb: async () => secondInstanceDb.prisma, clock });
    const a = await api.call("GET", "/v1/businesses", { token });
    const b = await callApi(second, "GET", "/v1/businesses", { token });
    // The first instance leased 25 permits and used one; the second leased the next 25.
    expect(a.headers.get("x-ratelimit-remaining")).toBe("999");
    expect(b.headers.get("x-ratelimit-remaining")).toBe(String(1000 - 25 - 1));
    const stored = await api.db.rateLimitBucket.findMany({ where: { count: { gte: 1 } } });
    expect(stored.some((bucket) => bucket.count === 50)).toBe(true);
  });

  it("never lets two instances together pass the limit, under concurrency", async () => {
    const token = "concurrent-limit-token-0123456789";
    applyTestEnv({ RATE_LIMIT_PER_MINUTE: "100", STATIC_OWNER_TOKEN: token });
    const first = api.handler;
    const second = createV1Handler({ getDb: async () => secondInstanceDb.prisma, clock });
    const responses = await Promise.all(
      Array.from({ length: 150 }, (_, i) => callApi(i % 2 ? second : first, "GET", "/v1/me", { token })),
    );
    const ok = responses.filter((r) => r.status === 200).length;
    const limited = responses.filter((r) => r.status === 429);
    expect(ok + limited.length).toBe(150);
    // Leases of 2: at most the limit, and at most one lease per instance left unused.
    expect(ok).toBeLessThanOrEqual(100);
    expect(ok).toBeGreaterThanOrEqual(100 - 2 * leaseSize(100));
    expectApiError(limited[0]!, 429, "rate_limited");
  });
});
