// The one REST layer, end to end through real Requests on a real database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFixtureRouter } from "../../test/helpers/fixture-router";
import { applyTestEnv, createTestApi, freshClientIp, OWNER_TOKEN, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { fixedClock } from "../shared/clock";
import { CONTRACT_VERSION } from "./contract";

let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi({ router: createFixtureRouter() });
});
afterAll(async () => api?.close());

const business = { name: "Acme", currency: "EUR" };

describe("headers on every response", () => {
  it("sends X-Request-Id equal to the body's request_id and X-Service-Contract on success", async () => {
    const response = await api.call("GET", "/v1/businesses");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    expect(response.body.request_id).toBe(response.headers.get("x-request-id"));
    expect(response.headers.get("x-service-contract")).toBe(CONTRACT_VERSION);
  });

  it("sends them on errors, unknown routes and public routes too", async () => {
    for (const response of [
      await api.call("GET", "/v1/businesses", { token: null }),
      await api.call("GET", "/v1/no-such-thing"),
      await api.call("GET", "/v1/test/deprecated", { token: null }),
    ]) {
      expect(response.headers.get("x-request-id")).toBeTruthy();
      expect(response.headers.get("x-service-contract")).toBe(CONTRACT_VERSION);
      const bodyId = response.body.request_id ?? response.body.error?.request_id;
      expect(bodyId).toBe(response.headers.get("x-request-id"));
    }
  });

  it("gives every request its own id", async () => {
    const a = await api.call("GET", "/v1/businesses");
    const b = await api.call("GET", "/v1/businesses");
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });
});

describe("contract version", () => {
  it.each([
    ["1.0.0", 426],
    ["1.0.0-rc.10", 426],
    ["2.0.0", 426],
    ["1.0.0-rc.9", 200],
    ["1.0.0-rc.8", 200],
    ["0.9.0", 200],
  ])("X-Service-Contract-Min %s answers %i", async (min, status) => {
    const response = await api.call("GET", "/v1/businesses", { headers: { "X-Service-Contract-Min": min } });
    expect(response.status).toBe(status);
    if (status === 426) expectApiError(response, 426, "contract_too_old");
  });

  it("refuses a version that is not semver", async () => {
    const response = await api.call("GET", "/v1/businesses", { headers: { "X-Service-Contract-Min": "latest" } });
    expectApiError(response, 400, "validation_error");
  });
});

describe("routing", () => {
  it("answers an unknown path with 404 not_found", async () => {
    expectApiError(await api.call("GET", "/v1/nothing/here"), 404, "not_found");
    expectApiError(await api.call("GET", "/v1"), 404, "not_found");
  });

  it("answers a method the path lacks with 405 and Allow", async () => {
    const response = await api.call("DELETE", "/v1/businesses");
    expectApiError(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toBe("GET, POST");
  });
});

describe("bodies", () => {
  it("refuses malformed JSON with 400 validation_error naming the body", async () => {
    const response = await api.call("POST", "/v1/businesses", {
      rawBody: '{"name": "x",',
      headers: { "content-type": "application/json" },
    });
    expectApiError(response, 400, "validation_error");
    expect(response.body.error.details.issues[0].path).toBe("(body)");
  });

  it("refuses a body that is not an object", async () => {
    for (const rawBody of ["[1,2]", '"text"', "42", "null"]) {
      const response = await api.call("POST", "/v1/businesses", { rawBody, headers: { "content-type": "application/json" } });
      expectApiError(response, 400, "validation_error");
    }
  });

  it("names each failing field in details", async () => {
    const response = await api.call("POST", "/v1/businesses", { body: { name: "", currency: "euro" } });
    expectApiError(response, 400, "validation_error");
    const paths = response.body.error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["name", "currency"]));
  });

  it("refuses a JSON body over 1 MB with 413 and writes nothing", async () => {
    const before = await api.db.business.count();
    const response = await api.call("POST", "/v1/businesses", { body: { name: "x".repeat(1024 * 1024), currency: "EUR" } });
    expectApiError(response, 413, "payload_too_large");
    expect(await api.db.business.count()).toBe(before);
  });

  it("takes JSON types as they are: a number sent as a string is refused, never coerced", async () => {
    const { id } = (await api.call("POST", "/v1/businesses", { body: { name: "Typed", currency: "EUR" } })).body.data;
    for (const amount of ["100", "", " 7 ", true]) {
      const response = await api.call("POST", "/v1/test/spend", {
        body: { business_id: id, name: "typed", amount_minor: amount, currency: "EUR" },
      });
      expectApiError(response, 400, "validation_error");
      expect(response.body.error.details.issues[0].path).toBe("amount_minor");
    }
    expect(await api.db.project.count({ where: { name: "typed" } })).toBe(0);
    // Query strings still arrive as strings and are coerced.
    expect((await api.call("GET", "/v1/businesses?limit=2")).status).toBe(200);
  });

  it("refuses a non-JSON content type with 415", async () => {
    const response = await api.call("POST", "/v1/businesses", {
      rawBody: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectApiError(response, 415, "unsupported_media_type");
    // The media type decides, not a "json" anywhere in the header.
    for (const type of ["text/plain; charset=json", "text/json-ish", "application/jsonp"]) {
      const other = await api.call("POST", "/v1/businesses", { rawBody: '{"name":"x"}', headers: { "content-type": type } });
      expectApiError(other, 415, "unsupported_media_type");
    }
    const vendor = await api.call("POST", "/v1/businesses", {
      rawBody: '{"name":"vendor-json","currency":"EUR"}',
      headers: { "content-type": "application/vnd.api+json; charset=utf-8" },
    });
    expect(vendor.status).toBe(201);
  });
});

describe("authentication", () => {
  it("answers 401 unauthenticated without a bearer", async () => {
    expectApiError(await api.call("GET", "/v1/businesses", { token: null }), 401, "unauthenticated");
  });

  it("answers 401 for a malformed header and for an unknown token", async () => {
    expectApiError(
      await api.call("GET", "/v1/businesses", { token: null, headers: { authorization: "Basic abc" } }),
      401,
      "unauthenticated",
    );
    expectApiError(
      await api.call("GET", "/v1/businesses", { token: null, headers: { authorization: "Bearer" } }),
      401,
      "unauthenticated",
    );
    expectApiError(await api.call("GET", "/v1/businesses", { token: "not-the-token-at-all" }), 401, "unauthenticated");
  });

  it("checks authentication before idempotency", async () => {
    const response = await api.call("POST", "/v1/businesses", { token: null, idempotencyKey: null, body: business });
    expectApiError(response, 401, "unauthenticated");
  });
});

describe("unexpected failures", () => {
  it("answers 500 internal_error without internals", async () => {
    const response = await api.call("POST", "/v1/test/crash", { body: {} });
    expectApiError(response, 500, "internal_error");
    // A write the Idempotency-Key applies to: retrying with the same key is the right advice.
    expect(response.body.error.message).toContain("Idempotency-Key");
    expect(response.text).not.toContain("db-internal");
    expect(response.text).not.toContain("stack");
  });

  it("treats an output that breaks its own schema as a 500, never sending it", async () => {
    const response = await api.call("GET", "/v1/test/bad-output");
    expectApiError(response, 500, "internal_error");
    // A read has no Idempotency-Key to retry with.
    expect(response.body.error.message).not.toContain("Idempotency-Key");
    expect(response.text).not.toContain("1.5");
  });
});

describe("deprecation", () => {
  it("sends Deprecation, Sunset (RFC 1123) and Link rel=deprecation on a deprecated operation", async () => {
    const response = await api.call("GET", "/v1/test/deprecated", { token: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("deprecation")).toBe("true");
    expect(response.headers.get("sunset")).toBe("Mon, 01 Mar 2027 00:00:00 GMT");
    expect(response.headers.get("link")).toBe(
      '<https://example.test/CHANGELOG.md#deprecated-get-v1-test-deprecated>; rel="deprecation"',
    );
  });

  it("sends none on other operations", async () => {
    const response = await api.call("GET", "/v1/businesses");
    expect(response.headers.get("deprecation")).toBeNull();
  });

  it("from its declaration through its sunset and after: the same answer and headers (inside /v1 it is never removed)", async () => {
    // Declared 2026-11-20, sunset 2027-03-01 (test/helpers/fixture-router.ts); the request's clock moves.
    const clock = fixedClock("2026-11-20T09:00:00Z");
    const timed = await createTestApi({ router: createFixtureRouter(), database: api.database, clock });
    const document = (await timed.call("GET", "/v1/openapi.json", { token: null })).body;
    expect(document.paths["/v1/test/deprecated"].get).toMatchObject({ deprecated: true, "x-sunset": "2027-03-01" });
    for (const at of [
      "2026-11-20T09:00:00Z",
      "2027-02-28T23:59:59Z",
      "2027-03-01T00:00:00Z",
      "2027-03-02T12:00:00Z",
      "2028-01-01T00:00:00Z",
    ]) {
      clock.set(at);
      const response = await timed.call("GET", "/v1/test/deprecated", { token: null });
      expect(response.status, at).toBe(200);
      expect(response.body.data, at).toEqual({ ok: true });
      expect(response.headers.get("deprecation"), at).toBe("true");
      expect(response.headers.get("sunset"), at).toBe("Mon, 01 Mar 2027 00:00:00 GMT");
      expect(response.headers.get("link"), at).toBe(
        '<https://example.test/CHANGELOG.md#deprecated-get-v1-test-deprecated>; rel="deprecation"',
      );
    }
    // Its errors carry them too, once the route is known (here a malformed bearer: 401).
    const refused = await timed.call("GET", "/v1/test/deprecated", { token: "" });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("deprecation")).toBe("true");
  });
});

describe("idempotency", () => {
  it("requires Idempotency-Key on writes", async () => {
    const response = await api.call("POST", "/v1/businesses", { body: business, idempotencyKey: null });
    expectApiError(response, 400, "missing_idempotency_key");
  });

  it("refuses a key over 128 characters", async () => {
    const response = await api.call("POST", "/v1/businesses", { body: business, idempotencyKey: "k".repeat(129) });
    expectApiError(response, 400, "validation_error");
    expect((await api.call("POST", "/v1/businesses", { body: business, idempotencyKey: "k".repeat(128) })).status).toBe(201);
  });

  it("replays the stored answer for the same key and body, without a second write", async () => {
    const before = await api.db.business.count();
    const first = await api.call("POST", "/v1/businesses", {
      body: { name: "Replay Co", currency: "USD" },
      idempotencyKey: "replay-1",
    });
    const second = await api.call("POST", "/v1/businesses", {
      body: { currency: "USD", name: "Replay Co" },
      idempotencyKey: "replay-1",
    });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.data).toEqual(first.body.data);
    expect(second.body.request_id).toBe(second.headers.get("x-request-id"));
    expect(await api.db.business.count()).toBe(before + 1);
  });

  it("answers 409 idempotency_conflict for the same key with another body or path", async () => {
    await api.call("POST", "/v1/businesses", { body: { name: "One", currency: "USD" }, idempotencyKey: "conflict-1" });
    const other = await api.call("POST", "/v1/businesses", {
      body: { name: "Two", currency: "USD" },
      idempotencyKey: "conflict-1",
    });
    expectApiError(other, 409, "idempotency_conflict");
    const business = await api.call("POST", "/v1/businesses", { body: { name: "Three", currency: "USD" } });
    const otherPath = await api.call("PATCH", `/v1/businesses/${business.body.data.id}`, {
      body: { name: "One" },
      idempotencyKey: "conflict-1",
    });
    expectApiError(otherPath, 409, "idempotency_conflict");
  });

  it("does not store 5xx answers: a retry with the same key runs again", async () => {
    const first = await api.call("POST", "/v1/test/flaky", { body: { value: "a" }, idempotencyKey: "flaky-1" });
    expectApiError(first, 500, "internal_error");
    const retry = await api.call("POST", "/v1/test/flaky", { body: { value: "a" }, idempotencyKey: "flaky-1" });
    expect(retry.status).toBe(201);
    expect(retry.body.data.calls).toBe(2);
    const replay = await api.call("POST", "/v1/test/flaky", { body: { value: "a" }, idempotencyKey: "flaky-1" });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data.calls).toBe(2);
  });

  it("does not store validation failures, so a corrected body may reuse the key", async () => {
    const bad = await api.call("POST", "/v1/businesses", { body: { name: "Fix me", currency: "eur" }, idempotencyKey: "fix-1" });
    expect(bad.status).toBe(400);
    const fixed = await api.call("POST", "/v1/businesses", {
      body: { name: "Fix me", currency: "EUR" },
      idempotencyKey: "fix-1",
    });
    expect(fixed.status).toBe(201);
  });

  it("stores a 404 answer and replays it", async () => {
    const path = "/v1/businesses/00000000-0000-4000-8000-000000000000";
    const first = await api.call("PATCH", path, { body: { name: "x" }, idempotencyKey: "nf-1" });
    expectApiError(first, 404, "not_found");
    const second = await api.call("PATCH", path, { body: { name: "x" }, idempotencyKey: "nf-1" });
    expectApiError(second, 404, "not_found");
    expect(second.headers.get("idempotent-replayed")).toBe("true");
  });

  it("keeps records 24 hours, then lets the key be used again", async () => {
    await api.call("POST", "/v1/businesses", { body: { name: "Old", currency: "USD" }, idempotencyKey: "old-1" });
    const record = await api.db.idempotencyRecord.findFirstOrThrow({ where: { key: "old-1" } });
    expect(record.expiresAt.getTime() - record.createdAt.getTime()).toBeGreaterThanOrEqual(24 * 60 * 60 * 1000);
    await api.db.idempotencyRecord.update({ where: { id: record.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const reused = await api.call("POST", "/v1/businesses", { body: { name: "New", currency: "USD" }, idempotencyKey: "old-1" });
    expect(reused.status).toBe(201);
    expect(reused.headers.get("idempotent-replayed")).toBeNull();
    expect(reused.body.data.name).toBe("New");
  });

  it("executes 20 concurrent identical requests exactly once", async () => {
    const before = await api.db.business.count();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.call("POST", "/v1/businesses", { body: { name: "Concurrent", currency: "EUR" }, idempotencyKey: "concurrent-1" }),
      ),
    );
    expect(await api.db.business.count()).toBe(before + 1);
    const ids = new Set<string>();
    for (const response of responses) {
      if (response.status === 409) {
        expectApiError(response, 409, "idempotency_conflict");
        continue;
      }
      expect(response.status).toBe(201);
      ids.add(response.body.data.id);
    }
    expect(ids.size).toBe(1);
    expect(responses.filter((r) => r.headers.get("idempotent-replayed") === null && r.status === 201)).toHaveLength(1);
  });
});

describe("rate limit", () => {
  it("sends the headers on authenticated answers and 429 with Retry-After past the limit", async () => {
    const token = "rate-limit-token-0123456789";
    // The layer on this database with a clock that stands still: the sequence stays in one window.
    const clock = fixedClock("2026-11-22T10:00:05Z");
    const limitedApi = await createTestApi({ database: api.database, clock });
    applyTestEnv({ RATE_LIMIT_PER_MINUTE: "3", STATIC_OWNER_TOKEN: token });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await limitedApi.call("GET", "/v1/businesses", { token });
        expect(response.status).toBe(200);
        expect(response.headers.get("x-ratelimit-limit")).toBe("3");
        expect(response.headers.get("x-ratelimit-remaining")).toBe(String(2 - i));
        expect(response.headers.get("x-ratelimit-reset")).toBe(String(Date.parse("2026-11-22T10:01:00Z") / 1000));
      }
      const limited = await limitedApi.call("GET", "/v1/businesses", { token });
      expectApiError(limited, 429, "rate_limited");
      expect(limited.headers.get("retry-after")).toBe("55");
      expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
      // A limited write is not stored under its key: the retry after the window runs normally.
      const write = await limitedApi.call("POST", "/v1/businesses", { token, body: business, idempotencyKey: "limited-1" });
      expectApiError(write, 429, "rate_limited");
      expect(await api.db.idempotencyRecord.count({ where: { key: "limited-1" } })).toBe(0);
    } finally {
      applyTestEnv({ RATE_LIMIT_PER_MINUTE: "100000", STATIC_OWNER_TOKEN: OWNER_TOKEN });
    }
  });

  it("sends the client IP's public budget (60 a minute) on public answers", async () => {
    const response = await api.call("GET", "/v1/test/deprecated", { token: null, clientIp: freshClientIp() });
    expect(response.headers.get("x-ratelimit-limit")).toBe("60");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("59");
  });
});
