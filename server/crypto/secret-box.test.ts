// Secrets at rest: AES-256-GCM round trip, tamper detection, and the key's format.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyTestEnv, TEST_ENCRYPTION_KEY } from "../../test/helpers/api";
import { parseEncryptionKey } from "../env";
import { decryptJson, decryptSecret, encryptJson, encryptSecret } from "./secret-box";

beforeAll(() => applyTestEnv({ ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, DATABASE_URL: undefined }));
afterAll(() => applyTestEnv({ ENCRYPTION_KEY: undefined }));

describe("secret box", () => {
  it("round-trips, never stores the plaintext, and uses a fresh IV each time", async () => {
    const secret = "whsec_" + randomBytes(24).toString("base64url");
    const a = await encryptSecret(secret);
    const b = await encryptSecret(secret);
    expect(Buffer.from(a).toString("latin1")).not.toContain(secret);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    expect(await decryptSecret(a)).toBe(secret);
    expect(await decryptJson(await encryptJson({ refresh_token: "rt-1" }))).toEqual({ refresh_token: "rt-1" });
  });

  it("refuses tampered bytes and bytes sealed with another key", async () => {
    const sealed = await encryptSecret("s3cret");
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    await expect(decryptSecret(tampered)).rejects.toThrow();
    applyTestEnv({ ENCRYPTION_KEY: randomBytes(32).toString("hex") });
    await expect(decryptSecret(sealed)).rejects.toThrow();
    applyTestEnv({ ENCRYPTION_KEY: TEST_ENCRYPTION_KEY });
    expect(await decryptSecret(sealed)).toBe("s3cret");
  });

  it("accepts 32-byte keys as hex or base64 and refuses others", () => {
    expect(parseEncryptionKey(randomBytes(32).toString("hex"))).toHaveLength(32);
    expect(parseEncryptionKey(randomBytes(32).toString("base64"))).toHaveLength(32);
    expect(parseEncryptionKey(randomBytes(32).toString("base64url"))).toHaveLength(32);
    expect(() => parseEncryptionKey("short")).toThrow(/32 bytes/);
  });
});
