import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhookSignature } from "./signature";

const SECRET = "whsec_9n2HkWQ0bq3Rj4wY3hE1m8XyYv2Jc5Zp7mQeX3aB1cD";
const BODY = '{"id":"6f1c2b7e-1f53-4c55-9a7d-5d0f0f7d6a11","type":"notification.created","data":{"title":"Crème brûlée €"}}';
const TS = 1_767_225_600;

describe("signWebhook", () => {
  it("is sha256= and the hex HMAC-SHA256 of `<timestamp>.<raw body>` (UTF-8)", () => {
    const independent = createHmac("sha256", SECRET)
      .update(Buffer.from(`${TS}.${BODY}`, "utf8"))
      .digest("hex");
    expect(signWebhook(SECRET, TS, BODY)).toBe(`sha256=${independent}`);
  });

  it("changes with the timestamp, the body and the secret", () => {
    const signature = signWebhook(SECRET, TS, BODY);
    expect(signWebhook(SECRET, TS + 1, BODY)).not.toBe(signature);
    expect(signWebhook(SECRET, TS, `${BODY} `)).not.toBe(signature);
    expect(signWebhook(`${SECRET}x`, TS, BODY)).not.toBe(signature);
  });
});

describe("verifyWebhookSignature", () => {
  const header = signWebhook(SECRET, TS, BODY);

  it("accepts the signature within 5 minutes either way", () => {
    expect(verifyWebhookSignature(SECRET, header, TS, BODY, TS)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, TS, BODY, TS + 300)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, TS, BODY, TS - 300)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header.toUpperCase().replace("SHA256=", "sha256="), TS, BODY, TS)).toBe(true);
  });

  it("refuses a timestamp over 5 minutes old or ahead, or outside a given tolerance", () => {
    expect(verifyWebhookSignature(SECRET, header, TS, BODY, TS + 301)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, TS, BODY, TS - 301)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, TS, BODY, TS + 61, 60)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, TS, BODY, TS + 60, 60)).toBe(true);
  });

  it("refuses another secret, body or timestamp (a replay with a fresh timestamp)", () => {
    expect(verifyWebhookSignature("other", header, TS, BODY, TS)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, TS, BODY.replace("€", "$"), TS)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, TS + 600, BODY, TS + 600)).toBe(false);
  });

  it("refuses malformed headers and timestamps", () => {
    const hex = header.slice("sha256=".length);
    for (const bad of ["", hex, `sha1=${hex}`, `sha256=${hex.slice(1)}`, `sha256=${hex}00`, "sha256=zz"]) {
      expect(verifyWebhookSignature(SECRET, bad, TS, BODY, TS)).toBe(false);
    }
    expect(verifyWebhookSignature(SECRET, header, TS + 0.5, BODY, TS)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, Number.NaN, BODY, TS)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, TS, BODY, Number.NaN)).toBe(false);
  });
});
