// Secrets never reach the log: whatever is logged, at any level, by our code or by Auth.js.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { applyTestEnv } from "../test/helpers/api";
import { log } from "./log";

const SES = "ses_Z3Vlc3MtbWUtaWYteW91LWNhbi0wMTIzNDU2Nzg5YWJj";
const AGT = "agt_c2VjcmV0LWFnZW50LXRva2VuLTAxMjM0NTY3ODlhYmNk";
const WHSEC = "whsec_aGVsbG8td2ViaG9vay1zZWNyZXQtMDEyMzQ1Njc4OWFi";
const STATIC = "static-owner-token-0123456789";
const PASSWORD = "correct horse battery staple";
const COOKIE = "fbo_token=opaque-cookie-value-0123456789";
const LOGIN = "bG9naW4tdG9rZW4tdGhhdC1pcy1tYWlsZWQtMDEyMzQ1Njc4";

let output: string[];

beforeEach(() => {
  output = [];
  const capture = (chunk: string | Uint8Array) => {
    output.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, "write").mockImplementation(capture);
  vi.spyOn(process.stderr, "write").mockImplementation(capture);
});
afterEach(() => {
  vi.restoreAllMocks();
  applyTestEnv({ LOG_LEVEL: "silent" });
});

describe("log", () => {
  it.each(["debug", "info", "warn", "error"] as const)("redacts every kind of secret at %s", (level) => {
    applyTestEnv({ LOG_LEVEL: "debug" });
    log[level](`session ${SES} for agent ${AGT}`, {
      // Auth.js's adapter debug line: the session it creates and the token it looks up.
      message: "adapter_createSession",
      metadata: { args: [{ sessionToken: SES, userId: "u1", expires: new Date() }, SES] },
      verification: { identifier: "a@example.test", token: LOGIN },
      integration: { secret: WHSEC, note: `signed with ${WHSEC}` },
      headers: { authorization: `Bearer ${STATIC}`, cookie: COOKIE, "user-agent": "curl/8" },
      password: PASSWORD,
      client_secret: "oauth-client-secret-0123",
      text: `Authorization: Bearer ${STATIC} and ?t=${AGT}`,
      nested: [[{ deep: { apiKey: "key-0123456789abcdef" } }]],
      // Not secrets: counts and flags under secret-sounding names stay.
      live_tokens_max: 5,
      token_present: true,
    });
    const text = output.join("");
    expect(text).toContain("[redacted]");
    for (const secret of [SES, AGT, WHSEC, STATIC, PASSWORD, COOKIE, LOGIN, "oauth-client-secret-0123", "key-0123456789abcdef"]) {
      expect(text).not.toContain(secret);
    }
    const line = JSON.parse(text) as Record<string, any>;
    expect(line.live_tokens_max).toBe(5);
    expect(line.token_present).toBe(true);
    expect(line.headers["user-agent"]).toBe("curl/8");
    expect(line.verification.identifier).toBe("a@example.test");
  });

  it("keeps a shared object that is not a cycle, and survives a cycle", () => {
    applyTestEnv({ LOG_LEVEL: "debug" });
    const shared = { a: 1 };
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    log.debug("shapes", { one: shared, two: shared, cyclic });
    const line = JSON.parse(output.join("")) as Record<string, any>;
    expect(line.two).toEqual({ a: 1 });
    expect(line.cyclic.self).toBe("[circular]");
  });

  it("routes Auth.js's logger through it", async () => {
    applyTestEnv({ LOG_LEVEL: "debug", AUTH_SECRET: "test-auth-secret-0123456789abcdef" });
    const { authConfig } = await import("./sign-in/authjs");
    const config = await authConfig(undefined);
    // What @auth/core's init.js logs around every adapter call, and its callback error details.
    config.logger!.debug!("adapter_getSessionAndUser", { args: [SES] });
    config.logger!.debug!("callback route error details", { method: "GET", query: { token: LOGIN, email: "a@example.test" } });
    config.logger!.error!(new Error(`adapter failed for ${SES}`));
    const text = output.join("");
    expect(text).toContain("adapter_getSessionAndUser");
    expect(text).not.toContain(SES);
    expect(text).not.toContain(LOGIN);
  });
});
