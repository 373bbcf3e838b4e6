// An agent's IP allow-list holds against a forged X-Forwarded-For: the client IP is the
// socket's address unless TRUST_PROXY says how many proxy hops to trust.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { applyTestEnv, createTestApi, type TTestApi } from "../helpers/api";
import { seedAgent } from "../helpers/seed";
import { expectApiError } from "../helpers/api-error";

let api: TTestApi;
let agent: { id: string; token: string };

beforeAll(async () => {
  api = await createTestApi();
  agent = await seedAgent(api, { allowed_ip_ranges: ["10.0.0.0/8"] });
});
afterAll(async () => {
  applyTestEnv({ TRUST_PROXY: undefined });
  await api?.close();
});
afterEach(() => applyTestEnv({ TRUST_PROXY: undefined }));

const me = (clientIp: string, forwardedFor?: string) =>
  api.call("GET", "/v1/me", {
    token: agent.token,
    clientIp,
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
  });

describe("client IP without TRUST_PROXY", () => {
  it("refuses an allow-listed agent calling from outside its ranges with a forged X-Forwarded-For", async () => {
    const forged = await me("203.0.113.9", "10.1.2.3");
    expectApiError(forged, 403, "ip_not_allowed", { message: "203.0.113.9" });
    // From inside its ranges it works, whatever the header says.
    expect((await me("10.1.2.3", "192.168.1.1")).status).toBe(200);
  });
});

describe("client IP with TRUST_PROXY=1", () => {
  it("uses the right-most X-Forwarded-For entry, the one the trusted proxy added", async () => {
    applyTestEnv({ TRUST_PROXY: "1" });
    // The client's forged entry comes first; the proxy appended the address it really saw.
    const forged = await me("10.0.0.2", "10.1.2.3, 203.0.113.9");
    expectApiError(forged, 403, "ip_not_allowed");
    expect((await me("10.0.0.2", "203.0.113.9, 10.1.2.3")).status).toBe(200);
  });
});
