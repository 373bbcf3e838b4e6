import { describe, expect, it } from "vitest";
import type { TDbOrTx } from "../db/client";
import type { TOwnerDay } from "../shared/owner-today";
import { oncePerRequest } from "./request-memo";

const dayOf = (): TOwnerDay => ({
  ownerId: "00000000-0000-4000-8000-000000000001",
  baseCurrency: "EUR",
  timezone: "UTC",
  now: new Date("2026-12-01T12:00:00Z"),
  today: "2026-12-01",
  ratesOn: "2026-12-01",
});
const dbOf = () => ({}) as unknown as TDbOrTx;

describe("oncePerRequest", () => {
  it("computes a key once per request day and database, and again for another of either", async () => {
    const day = dayOf();
    const db = dbOf();
    let runs = 0;
    const read = () => Promise.resolve(++runs);
    const first = oncePerRequest(db, day, "cash:owner", read);
    expect(oncePerRequest(db, day, "cash:owner", read)).toBe(first);
    expect(await first).toBe(1);
    expect(await oncePerRequest(db, day, "reserved:owner", read)).toBe(2);
    // Another request (readOwnerDay makes a new day), or a transaction inside this one, reads again.
    expect(await oncePerRequest(db, dayOf(), "cash:owner", read)).toBe(3);
    expect(await oncePerRequest(dbOf(), day, "cash:owner", read)).toBe(4);
    expect(runs).toBe(4);
  });

  it("keeps a failed read's refusal for the rest of the request", async () => {
    const day = dayOf();
    const db = dbOf();
    let runs = 0;
    const failing = () => {
      runs += 1;
      return Promise.reject(new Error("fx_unavailable"));
    };
    await expect(oncePerRequest(db, day, "k", failing)).rejects.toThrow("fx_unavailable");
    await expect(oncePerRequest(db, day, "k", failing)).rejects.toThrow("fx_unavailable");
    expect(runs).toBe(1);
  });
});
