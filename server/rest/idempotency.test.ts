// The fingerprint of a raw (non-JSON) body: the same digest as before it was computed piece by piece.
import { describe, expect, it } from "vitest";
import { requestHash } from "./idempotency";

describe("requestHash of a raw body", () => {
  it("is the digest of its base64 as a JSON string, computed piece by piece (records stored before keep replaying)", async () => {
    for (const size of [0, 1, 2, 3, 196_607, 196_608, 196_609, 1_000_001]) {
      const raw = Buffer.alloc(size, 0);
      for (let i = 0; i < size; i++) raw[i] = (i * 31 + 7) % 256;
      expect(await requestHash(raw)).toBe(await requestHash(raw.toString("base64")));
    }
  });
});
