import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  base64DigestMatches,
  digestsEqual,
  hexDigestMatches,
  hmacBase64,
  hmacHex,
  hmacSha256,
  isWithinTolerance,
  parseKeyValueList,
  parseUnixSeconds,
  secretsEqual,
  sha256HeaderValue,
  WEBHOOK_TOLERANCE_SECONDS,
} from "./signature";

describe("HMAC digests", () => {
  it("match node's HMAC-SHA256 of the concatenated parts, in hex and base64", () => {
    const reference = createHmac("sha256", "s3cret").update('1700000000.{"a":1}').digest();
    expect(hmacSha256("s3cret", "1700000000.", Buffer.from('{"a":1}'))).toEqual(reference);
    expect(hmacHex("s3cret", "1700000000.", '{"a":1}')).toBe(reference.toString("hex"));
    expect(hmacBase64("s3cret", "1700000000.", '{"a":1}')).toBe(reference.toString("base64"));
  });

  it("compares digests in constant time and treats other lengths as unequal", () => {
    const digest = hmacSha256("k", "body");
    expect(digestsEqual(digest, Buffer.from(digest))).toBe(true);
    expect(digestsEqual(digest, digest.subarray(0, 31))).toBe(false);
    expect(digestsEqual(digest, hmacSha256("k", "body!"))).toBe(false);
  });

  it("accepts a hex digest in either case and nothing malformed", () => {
    const digest = hmacSha256("k", "body");
    const hex = digest.toString("hex");
    expect(hexDigestMatches(digest, hex)).toBe(true);
    expect(hexDigestMatches(digest, hex.toUpperCase())).toBe(true);
    expect(hexDigestMatches(digest, hex.slice(0, 62))).toBe(false);
    expect(hexDigestMatches(digest, `${hex.slice(0, 63)}g`)).toBe(false);
    expect(hexDigestMatches(digest, "")).toBe(false);
    expect(hexDigestMatches(digest, null)).toBe(false);
  });

  it("accepts exactly the base64 of the digest", () => {
    const digest = hmacSha256("k", "body");
    expect(base64DigestMatches(digest, digest.toString("base64"))).toBe(true);
    expect(base64DigestMatches(digest, digest.toString("base64url"))).toBe(false);
    expect(base64DigestMatches(digest, hmacSha256("k", "other").toString("base64"))).toBe(false);
    expect(base64DigestMatches(digest, undefined)).toBe(false);
  });

  it("reads sha256=<hex> headers only", () => {
    const hex = "a".repeat(64);
    expect(sha256HeaderValue(`sha256=${hex}`)).toBe(hex);
    expect(sha256HeaderValue(` sha256=${hex} `)).toBe(hex);
    expect(sha256HeaderValue(hex)).toBeNull();
    expect(sha256HeaderValue(`sha1=${hex}`)).toBeNull();
    expect(sha256HeaderValue(`sha256=${hex}0`)).toBeNull();
    expect(sha256HeaderValue(null)).toBeNull();
  });

  it("compares secrets of any length in constant time", () => {
    expect(secretsEqual("verify-me", "verify-me")).toBe(true);
    expect(secretsEqual("verify-me", "verify-m")).toBe(false);
    expect(secretsEqual("verify-me", "")).toBe(false);
  });
});

describe("timestamps", () => {
  const now = new Date("2026-03-01T12:00:00Z");
  const t = now.getTime() / 1000;

  it("parses Unix seconds written as plain digits only", () => {
    expect(parseUnixSeconds(String(t))).toBe(t);
    expect(parseUnixSeconds(` ${t} `)).toBe(t);
    for (const bad of ["", "-1", "1.5", "1e9", "abc", null, undefined, "1".repeat(13)]) expect(parseUnixSeconds(bad)).toBeNull();
  });

  it("accepts 5 minutes either way, inclusive, and nothing beyond", () => {
    expect(WEBHOOK_TOLERANCE_SECONDS).toBe(300);
    expect(isWithinTolerance(t, now)).toBe(true);
    expect(isWithinTolerance(t - 300, now)).toBe(true);
    expect(isWithinTolerance(t + 300, now)).toBe(true);
    expect(isWithinTolerance(t - 301, now)).toBe(false);
    expect(isWithinTolerance(t + 301, now)).toBe(false);
    expect(isWithinTolerance(null, now)).toBe(false);
    expect(isWithinTolerance(t - 10, now, 5)).toBe(false);
  });
});

describe("parseKeyValueList", () => {
  it("splits k=v lists, keeps repeated keys and values containing '='", () => {
    expect(parseKeyValueList("t=1,v1=ab,v1=cd", ",")).toEqual([
      ["t", "1"],
      ["v1", "ab"],
      ["v1", "cd"],
    ]);
    expect(parseKeyValueList("ts=1;h1=ab", ";")).toEqual([
      ["ts", "1"],
      ["h1", "ab"],
    ]);
    expect(parseKeyValueList("v1=abc= v1=x==", " ")).toEqual([
      ["v1", "abc="],
      ["v1", "x=="],
    ]);
    expect(parseKeyValueList("garbage,=x", ",")).toEqual([]);
    expect(parseKeyValueList(null, ",")).toEqual([]);
  });
});
