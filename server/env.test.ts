// Configuration refused at start, with the variable and the reason.
import { afterEach, describe, expect, it } from "vitest";
import { applyTestEnv } from "../test/helpers/api";
import { getEnv } from "./env";

const KEY_HEX = "a".repeat(64);

afterEach(() => applyTestEnv({ DATABASE_URL: undefined, ENCRYPTION_KEY: undefined }));

describe("ENCRYPTION_KEY", () => {
  it("is required with DATABASE_URL: every instance must decrypt the same secrets", () => {
    applyTestEnv({ DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/x", ENCRYPTION_KEY: undefined });
    expect(() => getEnv()).toThrow(/ENCRYPTION_KEY: required with DATABASE_URL/);
    applyTestEnv({ ENCRYPTION_KEY: KEY_HEX });
    expect(getEnv().ENCRYPTION_KEY).toBe(KEY_HEX);
  });

  it("may be left unset on the embedded database (generated into DATA_DIR on first use)", () => {
    applyTestEnv({ DATABASE_URL: undefined, ENCRYPTION_KEY: undefined });
    expect(getEnv().ENCRYPTION_KEY).toBeUndefined();
  });

  it("must be 32 bytes", () => {
    applyTestEnv({ ENCRYPTION_KEY: "too-short" });
    expect(() => getEnv()).toThrow(/ENCRYPTION_KEY: ENCRYPTION_KEY must be 32 bytes/);
  });
});

describe("LANDING_ORIGIN and WAITLIST_READERS", () => {
  afterEach(() => applyTestEnv({ LANDING_ORIGIN: undefined, WAITLIST_READERS: undefined }));

  it("takes an origin only: scheme, host and port, no path or trailing slash", () => {
    applyTestEnv({ LANDING_ORIGIN: "https://landing.example:8443" });
    expect(getEnv().LANDING_ORIGIN).toBe("https://landing.example:8443");
    for (const bad of ["https://landing.example/", "https://landing.example/join", "landing.example"]) {
      applyTestEnv({ LANDING_ORIGIN: bad });
      expect(() => getEnv(), bad).toThrow(/LANDING_ORIGIN must be an origin/);
    }
    applyTestEnv({ LANDING_ORIGIN: "" });
    expect(getEnv().LANDING_ORIGIN).toBeUndefined();
  });

  it("reads the readers as trimmed, lower-cased emails", () => {
    applyTestEnv({ WAITLIST_READERS: " A@Example.test, ,b@example.test " });
    expect(getEnv().WAITLIST_READERS).toEqual(["a@example.test", "b@example.test"]);
  });
});
