// Per-IP limits on the public door (DESIGN.md): 10 sign-in mails a minute per client IP on top
// of the per-email throttle, 60 a minute for every other call without a bearer and for every
// bearer refused with 401; 429 rate_limited with Retry-After and X-RateLimit-*. Counted in the
// database like the per-token rate, so every instance shares them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyTestEnv, createTestApi, freshClientIp, OWNER_TOKEN, type TApiResponse, type TTestApi } from "../helpers/api";
import { expectApiError } from "../helpers/api-error";
import { startSmtpSink, type TSmtpSink } from "../helpers/owners";
import { seedAgent } from "../helpers/seed";
import { consumeIpLimit, IP_LIMITS } from "../../server/rest/ip-limit";
import { fixedClock } from "../../server/shared/clock";

let api: TTestApi;
let sink: TSmtpSink;
// The REST layer counts the per-IP windows on this clock, which stands still: a sequence never
// straddles two windows (each test spends the budget of fresh addresses).
const clock = fixedClock("2026-11-22T10:00:05Z");

beforeAll(async () => {
  sink = await startSmtpSink();
  api = await createTestApi({ env: { SMTP_URL: sink.url }, clock });
});
afterAll(async () => {
  await api?.close();
  await sink?.close();
});

const magicLink = (clientIp: string, email = `door-${Math.random().toString(36).slice(2)}@example.test`) =>
  api.call("POST", "/v1/auth/magic-link", { token: null, body: { email }, clientIp });
const verify = (clientIp: string) =>
  api.call("POST", "/v1/auth/verify", { token: null, body: { token: "x".repeat(43) }, clientIp });

function expectRateLimited(response: TApiResponse, limit: number): void {
  expectApiError(response, 429, "rate_limited");
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers.get("x-ratelimit-limit")).toBe(String(limit));
  expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
  expect(Number(response.headers.get("x-ratelimit-reset"))).toBeGreaterThan(clock.now().getTime() / 1000);
}

describe("POST /v1/auth/magic-link", () => {
  it("answers the 11th request from one IP in a minute with 429; another IP is unaffected", async () => {
    const ip = freshClientIp();
    for (let i = 1; i <= IP_LIMITS.login; i++) {
      const response = await magicLink(ip);
      expect(response.status, response.text).toBe(202);
      expect(response.headers.get("x-ratelimit-limit")).toBe("10");
      expect(response.headers.get("x-ratelimit-remaining")).toBe(String(IP_LIMITS.login - i));
    }
    const sent = await api.db.loginToken.count();
    expectRateLimited(await magicLink(ip), IP_LIMITS.login);
    expect(await api.db.loginToken.count()).toBe(sent); // refused before anything is written
    expect((await magicLink(freshClientIp())).status).toBe(202);
  });
});

describe("POST /v1/auth/verify", () => {
  it("answers 401 to 60 guesses from one IP in a minute, then 429", async () => {
    const ip = freshClientIp();
    for (let i = 0; i < IP_LIMITS.public; i++) expectApiError(await verify(ip), 401, "login_token_invalid");
    expectRateLimited(await verify(ip), IP_LIMITS.public);
    expect((await verify(freshClientIp())).status).toBe(401);
  });
});

describe("bearer guessing", () => {
  it("counts refused bearers per IP: 429 after 60, and then not even a valid token is checked", async () => {
    const ip = freshClientIp();
    const agent = await seedAgent(api);
    for (let i = 0; i < IP_LIMITS.public; i++) {
      const guess = await api.call("GET", "/v1/me", { token: `agt_guess${i}`, clientIp: ip });
      expect(guess.status).toBe(401);
    }
    expectRateLimited(await api.call("GET", "/v1/me", { token: "agt_guess-61", clientIp: ip }), IP_LIMITS.public);
    // The right token from that address is refused the same way: no oracle past the limit.
    expectRateLimited(await api.call("GET", "/v1/me", { token: agent.token, clientIp: ip }), IP_LIMITS.public);
    // Elsewhere the agent works, and valid bearers never spend the IP budget.
    const other = freshClientIp();
    for (let i = 0; i < IP_LIMITS.public + 5; i++) {
      expect((await api.call("GET", "/v1/me", { token: OWNER_TOKEN, clientIp: other })).status).toBe(200);
    }
    expect((await api.call("GET", "/v1/me", { token: agent.token, clientIp: other })).status).toBe(200);
  });
});

describe("what the public budget covers", () => {
  it("counts the public catalog, but not the OpenAPI document or signed webhooks", async () => {
    const ip = freshClientIp();
    const spend = await consumeIpLimit(api.db, "public", ip, clock.now());
    for (let i = 1; i < IP_LIMITS.public; i++) await consumeIpLimit(api.db, "public", ip, clock.now());
    expect(spend.remaining).toBe(IP_LIMITS.public - 1);
    expectRateLimited(await api.call("GET", "/v1/public/integrations", { token: null, clientIp: ip }), IP_LIMITS.public);
    expect((await api.call("GET", "/v1/openapi.json", { token: null, clientIp: ip })).status).toBe(200);
    // A webhook's signature is its credential: an unsigned delivery is refused as such, not throttled.
    const webhook = await api.call("POST", "/v1/webhooks/payments_a", {
      token: null,
      body: {},
      clientIp: ip,
      idempotencyKey: null,
    });
    expect(webhook.status).toBe(401);
  });

  it("keeps windows apart: a new minute starts afresh", async () => {
    const ip = freshClientIp();
    const minute = new Date("2026-11-22T10:00:05Z");
    for (let i = 0; i < IP_LIMITS.login; i++) await consumeIpLimit(api.db, "login", ip, minute);
    expect((await consumeIpLimit(api.db, "login", ip, minute)).exceeded).toBe(true);
    expect((await consumeIpLimit(api.db, "login", ip, new Date("2026-11-22T10:01:00Z"))).remaining).toBe(IP_LIMITS.login - 1);
  });
});

afterAll(() => applyTestEnv({ SMTP_URL: undefined }));
