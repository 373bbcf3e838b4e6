// The waitlist (issue 19; contract Waitlist rules and Limits; pinned-wave2.md §1.6, §5.1):
// joining through the real REST layer, per-IP limits on an injected clock, CORS for the one
// LANDING_ORIGIN, and reading as JSON or CSV by the readers only, audited.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { applyTestEnv, createTestApi, freshClientIp, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedAgent, seedOwner, staticOwner } from "../../test/helpers/seed";
import { consumeWaitlistIpLimit } from "../rest/ip-limit";
import { sweepRateLimitBuckets } from "../rest/rate-limit";
import { fixedClock } from "../shared/clock";
import { getEnv } from "../env";

const LANDING = "https://landing.example";
const clock = fixedClock("2026-11-22T10:00:05Z");
let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi({ clock, env: { LANDING_ORIGIN: LANDING } });
});
afterAll(async () => {
  applyTestEnv({ LANDING_ORIGIN: undefined, WAITLIST_READERS: undefined });
  await api?.close();
});
beforeEach(() => {
  clock.set("2026-11-22T10:00:05Z");
  applyTestEnv({ WAITLIST_READERS: undefined });
});

function join(body: unknown, options: { ip?: string; headers?: Record<string, string> } = {}) {
  return api.call("POST", "/v1/waitlist", {
    body,
    token: null,
    idempotencyKey: null,
    clientIp: options.ip ?? freshClientIp(),
    headers: options.headers,
  });
}

const rowsOf = (domain: string) =>
  api.db.waitlistEntry.findMany({ where: { email: { endsWith: domain } }, orderBy: { createdAt: "asc" } });

describe("POST /v1/waitlist", () => {
  it("answers 202 enveloped without a bearer or Idempotency-Key and stores the email trimmed and lower-cased, once", async () => {
    const first = await join(
      { email: "  Ada@Dedupe.Example ", source: "newsletter" },
      { headers: { "user-agent": "Browser/1" } },
    );
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ data: { status: "accepted" }, request_id: first.headers.get("x-request-id") });
    const again = await join({ email: "ADA@dedupe.example", source: "other" });
    expect(again.status).toBe(202);
    expect(again.body.data).toEqual({ status: "accepted" });
    const rows = await rowsOf("dedupe.example");
    expect(rows).toHaveLength(1);
    // The first entry is kept as it was.
    expect(rows[0]).toMatchObject({ email: "ada@dedupe.example", source: "newsletter", userAgent: "Browser/1" });
  });

  it("stores nothing when the honeypot is filled, answering the same 202", async () => {
    const answer = await join({ email: "bot@honeypot.example", website: "https://spam.example" });
    expect(answer.status).toBe(202);
    expect(answer.body.data).toEqual({ status: "accepted" });
    expect(await rowsOf("honeypot.example")).toHaveLength(0);
    // An empty honeypot is a person.
    expect((await join({ email: "person@honeypot.example", website: "" })).status).toBe(202);
    expect(await rowsOf("honeypot.example")).toHaveLength(1);
  });

  it("cuts the user agent to 256 code points and stores an empty source as none, no IP", async () => {
    const agent = "é".repeat(300);
    expect((await join({ email: "ua@cut.example", source: "" }, { headers: { "user-agent": agent } })).status).toBe(202);
    const [row] = await rowsOf("cut.example");
    expect(row!.userAgent).toBe("é".repeat(256));
    expect(row!.source).toBeNull();
    expect(Object.keys(row!).sort()).toEqual(["createdAt", "email", "id", "source", "userAgent"]);
  });

  it("refuses a bad email, an overlong email or source and NUL characters with 400, writing nothing", async () => {
    const local = "a".repeat(64);
    const long = `${local}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(50)}.bad.example`; // 255 characters
    expect(long.length).toBe(255);
    const cases: [unknown, string][] = [
      [{ email: "not-an-email" }, "email"],
      [{ email: long }, "email"],
      [{ email: "x@bad.example", source: "s".repeat(65) }, "source"],
      [{ email: "nul\u0000@bad.example" }, "email"],
      [{ email: "y@bad.example", source: "a\u0000b" }, "source"],
      [{ email: "z@bad.example", website: "\u0000" }, "website"],
      [{}, "email"],
    ];
    for (const [body, issue] of cases) {
      expectApiError(await join(body), 400, "validation_error", { issue, what: JSON.stringify(body) });
    }
    // Exactly 64 for the source and 254 for the email pass.
    expect((await join({ email: long.slice(1), source: "s".repeat(64) })).status).toBe(202);
    expect((await rowsOf("bad.example")).map((row) => row.email)).toEqual([long.slice(1)]);
  });

  it("writes no audit entry", async () => {
    const before = await api.db.auditEntry.count({ where: { action: { startsWith: "waitlist" } } });
    await join({ email: "quiet@audit.example" });
    expect(await api.db.auditEntry.count({ where: { action: { startsWith: "waitlist" } } })).toBe(before);
  });
});

describe("per-IP limits", () => {
  it("allows 5 a minute, then 429 rate_limited with Retry-After to the minute's end; refusals do not count", async () => {
    const ip = freshClientIp();
    for (let i = 0; i < 5; i++) {
      const answer = await join({ email: `m${i}@minute.example` }, { ip });
      expect(answer.status).toBe(202);
      expect(answer.headers.get("x-ratelimit-remaining")).toBe(String(4 - i));
      expect(answer.headers.get("x-ratelimit-limit")).toBe("5");
    }
    const refused = await join({ email: "m5@minute.example" }, { ip });
    expectApiError(refused, 429, "rate_limited");
    expect(refused.headers.get("retry-after")).toBe("55"); // 10:00:05 → 10:01:00
    expect(await rowsOf("minute.example")).toHaveLength(5);
    // Another address has its own budget.
    expect((await join({ email: "other@minute.example" })).status).toBe(202);
    // The next minute starts afresh: the refused call took nothing from the day either.
    clock.set("2026-11-22T10:01:00Z");
    expect((await join({ email: "m6@minute.example" }, { ip })).status).toBe(202);
    const day = await api.db.rateLimitBucket.findMany({ where: { key: { contains: ip } } });
    expect(day.find((bucket) => bucket.key.endsWith(":day"))?.count).toBe(6);
  });

  it("allows 20 a day, then 429 with Retry-After to the UTC day's end", async () => {
    const ip = freshClientIp();
    for (let i = 0; i < 20; i++) {
      clock.set(new Date(Date.parse("2026-11-22T10:00:05Z") + Math.floor(i / 5) * 60_000));
      expect((await join({ email: `d${i}@day.example` }, { ip })).status, `call ${i}`).toBe(202);
    }
    clock.set("2026-11-22T23:00:00Z");
    const refused = await join({ email: "d20@day.example" }, { ip });
    expectApiError(refused, 429, "rate_limited", { message: /per day/ });
    expect(refused.headers.get("retry-after")).toBe("3600");
    // A refusal by the day takes nothing from the minute: the next day, the address may join.
    clock.set("2026-11-23T00:00:00Z");
    expect((await join({ email: "d21@day.example" }, { ip })).status).toBe(202);
    expect(await rowsOf("day.example")).toHaveLength(21);
  });

  it("keeps a day's count through the maintenance sweep until the day is over", async () => {
    const ip = freshClientIp();
    await consumeWaitlistIpLimit(api.db, ip, new Date("2026-11-22T10:00:05Z"));
    const keys = async () =>
      (await api.db.rateLimitBucket.findMany({ where: { key: { contains: ip } } })).map((b) => b.key).sort();
    expect(await keys()).toHaveLength(2);
    await sweepRateLimitBuckets(api.db, new Date("2026-11-22T12:00:00Z"));
    expect(await keys()).toEqual([expect.stringMatching(/:day$/)]);
    await sweepRateLimitBuckets(api.db, new Date("2026-11-25T00:00:00Z"));
    expect(await keys()).toEqual([]);
  });
});

describe("CORS for LANDING_ORIGIN", () => {
  it("answers the preflight from the landing origin with 204 and the CORS headers, without spending the limit", async () => {
    const ip = freshClientIp();
    for (let i = 0; i < 7; i++) {
      const preflight = await api.call("OPTIONS", "/v1/waitlist", {
        token: null,
        clientIp: ip,
        headers: { origin: LANDING, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.text).toBe("");
      expect(
        Object.fromEntries([...preflight.headers].filter(([name]) => name.startsWith("access-control") || name === "vary")),
      ).toEqual({
        "access-control-allow-origin": LANDING,
        "access-control-allow-methods": "POST, OPTIONS",
        "access-control-allow-headers": "Content-Type",
        "access-control-max-age": "600",
        vary: "Origin",
      });
    }
    expect((await join({ email: "after-preflight@cors.example" }, { ip })).headers.get("x-ratelimit-remaining")).toBe("4");
  });

  it("puts Access-Control-Allow-Origin and Vary on the POST from the landing origin, errors included", async () => {
    const accepted = await join({ email: "cors@cors.example" }, { headers: { origin: LANDING } });
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get("access-control-allow-origin")).toBe(LANDING);
    expect(accepted.headers.get("vary")).toBe("Origin");
    const invalid = await join({ email: "nope" }, { headers: { origin: LANDING } });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("access-control-allow-origin")).toBe(LANDING);
  });

  it("refuses a browser post from any other origin (403 csrf_rejected, nothing stored), no CORS header; preflight 405", async () => {
    for (const origin of ["https://evil.example", `${LANDING}:8443`, "http://landing.example", "null"]) {
      // A "simple" request (no JSON Content-Type, so no preflight) is what a foreign page can send.
      const post = await api.call("POST", "/v1/waitlist", {
        token: null,
        idempotencyKey: null,
        clientIp: freshClientIp(),
        rawBody: JSON.stringify({ email: "other-origin@cors.example" }),
        headers: { origin, "content-type": "text/plain;charset=UTF-8" },
      });
      expectApiError(post, 403, "csrf_rejected");
      expect(post.headers.get("access-control-allow-origin"), origin).toBeNull();
      const blob = await join({ email: "other-origin@cors.example" }, { headers: { origin } });
      expectApiError(blob, 403, "csrf_rejected");
      const preflight = await api.call("OPTIONS", "/v1/waitlist", { token: null, headers: { origin } });
      expectApiError(preflight, 405, "method_not_allowed");
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    }
    expect((await rowsOf("@cors.example")).map((row) => row.email)).not.toContain("other-origin@cors.example");
    // The service's own pages (the landing page's script) post as the landing origin does.
    const own = await join({ email: "own-page@cors.example" }, { headers: { origin: new URL(getEnv().publicBaseUrl).origin } });
    expect(own.status).toBe(202);
    const elsewhere = await api.call("OPTIONS", "/v1/businesses", { token: null, headers: { origin: LANDING } });
    expectApiError(elsewhere, 405, "method_not_allowed");
    expect(elsewhere.headers.get("access-control-allow-origin")).toBeNull();
    // Only the waitlist's POST declares CORS: GET /v1/waitlist from the landing origin gets none.
    const read = await api.call("GET", "/v1/waitlist", { headers: { origin: LANDING } });
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("allows no origin when LANDING_ORIGIN is unset", async () => {
    applyTestEnv({ LANDING_ORIGIN: undefined });
    try {
      const post = await join({ email: "unset@cors.example" }, { headers: { origin: LANDING } });
      expectApiError(post, 403, "csrf_rejected");
      expect(post.headers.get("access-control-allow-origin")).toBeNull();
      expect((await join({ email: "unset-server@cors.example" })).status).toBe(202);
      expect((await api.call("OPTIONS", "/v1/waitlist", { token: null, headers: { origin: LANDING } })).status).toBe(405);
    } finally {
      applyTestEnv({ LANDING_ORIGIN: LANDING });
    }
  });
});

describe("GET /v1/waitlist", () => {
  it("lists a page newest first with cursor pagination, audited as waitlist.read with its count", async () => {
    for (const name of ["p1", "p2", "p3"]) await join({ email: `${name}@page.example`, source: "ads" });
    const all = await api.call("GET", "/v1/waitlist?limit=200");
    expect(all.status).toBe(200);
    const times = all.body.data.map((entry: { created_at: string }) => entry.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const entry = all.body.data.find((item: { email: string }) => item.email === "p3@page.example");
    expect(Object.keys(entry).sort()).toEqual(["created_at", "email", "source", "user_agent"]);

    const first = await api.call("GET", "/v1/waitlist?format=json&limit=2");
    expect(first.body.data).toHaveLength(2);
    expect(first.body.page.has_more).toBe(true);
    const second = await api.call("GET", `/v1/waitlist?limit=2&cursor=${first.body.page.next_cursor}`);
    expect(second.body.data[0].email).toBe(all.body.data[2].email);

    const { ownerId } = await staticOwner(api);
    const audits = await api.db.auditEntry.findMany({
      where: { ownerId, action: "waitlist.read" },
      orderBy: { createdAt: "asc" },
    });
    expect(audits.map((audit) => audit.details)).toEqual(expect.arrayContaining([{ count: 2 }, { count: all.body.data.length }]));
    expect(audits.at(-1)?.actorType).toBe("owner");
  });

  it("exports every entry oldest first as CSV, formula-safe and RFC 4180 quoted, audited as waitlist.export", async () => {
    await join({ email: "+1@csv.example", source: '=HYPERLINK("http://x")' });
    await join({ email: "-2@csv.example", source: "@SUM(A1)" });
    await join({ email: "tab@csv.example", source: "\tindent" });
    await join({ email: "cr@csv.example", source: "\rreturn" });
    await join({ email: "plain@csv.example", source: "a,b" });
    const csv = await api.call("GET", "/v1/waitlist?format=csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="waitlist-2026-11-22.csv"');
    const lines = csv.text.split("\r\n");
    expect(lines[0]).toBe("email,source,created_at");
    expect(lines.at(-1)).toBe("");
    const rows = lines.slice(1, -1);
    const total = await api.db.waitlistEntry.count();
    expect(rows).toHaveLength(total);
    const csvRows = rows.filter((line) => line.includes("@csv.example"));
    expect(csvRows.map((line) => line.replace(/,[^,]+$/, ""))).toEqual([
      `'+1@csv.example,"'=HYPERLINK(""http://x"")"`,
      "'-2@csv.example,'@SUM(A1)",
      "tab@csv.example,'\tindent",
      `cr@csv.example,"'\rreturn"`,
      `plain@csv.example,"a,b"`,
    ]);
    // Oldest first, created_at as ISO timestamps.
    const stamps = rows.map((line) => line.slice(line.lastIndexOf(",") + 1));
    expect([...stamps].sort()).toEqual(stamps);
    expect(stamps[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const { ownerId } = await staticOwner(api);
    const exported = await api.db.auditEntry.findFirst({
      where: { ownerId, action: "waitlist.export" },
      orderBy: { createdAt: "desc" },
    });
    expect(exported?.details).toEqual({ count: total });
  });

  it("refuses another format with 400", async () => {
    expectApiError(await api.call("GET", "/v1/waitlist?format=xml"), 400, "validation_error", { issue: "format" });
  });

  it("answers another owner 404 and an agent 403 scope_denied; WAITLIST_READERS names the readers", async () => {
    const otherEmail = `reader-${Date.now()}@readers.example`;
    const other = await seedOwner(api, otherEmail);
    expectApiError(await api.call("GET", "/v1/waitlist", { token: other.token }), 404, "not_found");
    expectApiError(await api.call("GET", "/v1/waitlist?format=csv", { token: other.token }), 404, "not_found");
    expect(await api.db.auditEntry.count({ where: { ownerId: other.ownerId, action: { startsWith: "waitlist" } } })).toBe(0);

    const agent = await seedAgent(api, { grants: [{ scope: "ads", resource: "*", level: "execute" }] });
    expectApiError(await api.call("GET", "/v1/waitlist", { token: agent.token }), 403, "scope_denied");

    // Me says who reads it, so the panel lists the page for them only.
    const reader = async (token?: string) =>
      (await api.call("GET", "/v1/me", token ? { token } : {})).body.data.waitlist_reader as boolean;
    expect(await reader(other.token)).toBe(false);
    expect(await reader()).toBe(true);

    applyTestEnv({ WAITLIST_READERS: ` someone@else.example , ${otherEmail.toUpperCase()} ` });
    expect((await api.call("GET", "/v1/waitlist", { token: other.token })).status).toBe(200);
    expectApiError(await api.call("GET", "/v1/waitlist"), 404, "not_found");
    expect(await reader(other.token)).toBe(true);
    expect(await reader()).toBe(false);
    const patched = await api.call("PATCH", "/v1/me", { token: other.token, body: { name: "Reader" } });
    expect(patched.body.data.waitlist_reader).toBe(true);
    const agentMe = await api.call("GET", "/v1/me", { token: agent.token });
    expect(agentMe.body.data).not.toHaveProperty("waitlist_reader");
  });
});

describe("GET /v1/waitlist/sources (additive, issue 19)", () => {
  it("counts the entries of each source, most first, none last, for the readers only and without an audit entry", async () => {
    const tag = `s${Date.now().toString(36)}`;
    for (let i = 0; i < 3; i++) await join({ email: `a${i}@${tag}.sources.example`, source: `${tag}-ads` });
    await join({ email: `b0@${tag}.sources.example`, source: `${tag}-news` });
    await join({ email: `c0@${tag}.sources.example` });
    const audits = () => api.db.auditEntry.count({ where: { action: { startsWith: "waitlist" } } });
    const auditsBefore = await audits();

    const answer = await api.call("GET", "/v1/waitlist/sources");
    expect(answer.status).toBe(200);
    const { total, sources, other_count, truncated } = answer.body.data;
    expect(total).toBe(await api.db.waitlistEntry.count());
    expect(truncated).toBe(false);
    expect(other_count).toBe(0);
    expect(sources.find((s: { source: string }) => s.source === `${tag}-ads`)).toEqual({ source: `${tag}-ads`, count: 3 });
    expect(sources.find((s: { source: string }) => s.source === `${tag}-news`)).toEqual({ source: `${tag}-news`, count: 1 });
    expect(sources.reduce((sum: number, s: { count: number }) => sum + s.count, 0)).toBe(total);
    const counts = sources.map((s: { count: number }) => s.count);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    // Joined without a source: null, after every named source of the same count.
    const none = sources.findIndex((s: { source: string | null }) => s.source === null);
    expect(none).toBeGreaterThanOrEqual(0);
    expect(sources.slice(none + 1).every((s: { count: number }) => s.count < sources[none].count)).toBe(true);
    expect(await audits()).toBe(auditsBefore);

    const other = await seedOwner(api, `sources-${Date.now()}@readers.example`);
    expectApiError(await api.call("GET", "/v1/waitlist/sources", { token: other.token }), 404, "not_found");
    const agent = await seedAgent(api, { grants: [{ scope: "finances:observe", resource: "*", level: "recommend" }] });
    expectApiError(await api.call("GET", "/v1/waitlist/sources", { token: agent.token }), 403, "scope_denied");
  });

  it("names at most 100 sources and sums the rest in other_count", async () => {
    const tag = `t${Date.now().toString(36)}`;
    await api.db.waitlistEntry.createMany({
      data: Array.from({ length: 130 }, (_, i) => ({
        email: `e${i}@${tag}.many.example`,
        source: `${tag}-${String(i).padStart(3, "0")}`,
      })),
    });
    const { data } = (await api.call("GET", "/v1/waitlist/sources")).body;
    expect(data.sources).toHaveLength(100);
    expect(data.truncated).toBe(true);
    const shown = data.sources.reduce((sum: number, s: { count: number }) => sum + s.count, 0);
    expect(shown + data.other_count).toBe(data.total);
    expect(data.other_count).toBeGreaterThan(0);
  });
});
