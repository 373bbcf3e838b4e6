// Owner sessions over /v1, end to end with real parts: login mail through a real SMTP server,
// tokens checked against the database, on PGlite and on PostgreSQL (where the concurrency
// cases are real races).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../auth/tokens";
import { applyTestEnv, createTestApi, freshClientIp, type TApiResponse, type TTestApi } from "../../test/helpers/api";
import {
  loginLinkFrom,
  loginTokenFrom,
  signInOwner,
  startSmtpSink,
  stopSharedSmtpSink,
  type TSmtpSink,
} from "../../test/helpers/owners";
import { expectApiError } from "../../test/helpers/api-error";
import { walkPages } from "../../test/helpers/pages";
import { MAX_LIVE_LOGIN_TOKENS } from "./session-tokens";

const BASE_URL = "http://panel.example.test";
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let api: TTestApi;
let sink: TSmtpSink;
let counter = 0;

/** A fresh address per test, so throttles and owners never leak between cases. */
const freshEmail = (label: string) => `${label}-${++counter}@example.test`;

beforeAll(async () => {
  sink = await startSmtpSink();
  api = await createTestApi({
    env: { AUTH_MODE: "session", SMTP_URL: sink.url, PUBLIC_BASE_URL: BASE_URL, MAIL_FROM: "Back office <login@example.test>" },
  });
});
afterAll(async () => {
  await api?.close();
  await sink?.close();
  await stopSharedSmtpSink();
});

/**
 * The public calls carry no bearer and no Idempotency-Key, as a client signing in would; each
 * from its own address unless the test names one (the per-IP limits are test/security's).
 */
function requestLink(email: string, headers: Record<string, string> = {}, clientIp = freshClientIp()) {
  return api.call("POST", "/v1/auth/magic-link", { token: null, idempotencyKey: null, body: { email }, headers, clientIp });
}

function verify(token: string, headers: Record<string, string> = {}, clientIp = freshClientIp()) {
  return api.call("POST", "/v1/auth/verify", { token: null, idempotencyKey: null, body: { token }, headers, clientIp });
}

async function loginToken(email: string): Promise<string> {
  const since = sink.messages.length;
  expect((await requestLink(email)).status).toBe(202);
  return loginTokenFrom(await sink.waitForMail(email, { since }));
}

async function signIn(email: string): Promise<{ token: string; ownerId: string; sessionId: string }> {
  const response = await verify(await loginToken(email));
  expect(response.status).toBe(200);
  const token = response.body.data.session_token as string;
  const session = await api.db.session.findUniqueOrThrow({ where: { tokenHash: sha256Hex(token) } });
  return { token, ownerId: response.body.data.user.id, sessionId: session.id };
}

describe("magic link → verify", () => {
  it("mails a single-use link to PUBLIC_BASE_URL and exchanges it for a working ses_ session", async () => {
    const before = Date.now();
    const since = sink.messages.length;
    const requested = await requestLink("  Founder@Example.TEST ", {}, "198.51.100.1");
    expect(requested.status).toBe(202);
    expect(requested.body).toEqual({ data: { status: "sent" }, request_id: expect.stringMatching(/^req_/) });

    const mail = await sink.waitForMail("founder@example.test", { since });
    expect(mail.from).toBe("login@example.test");
    expect(mail.subject).toContain("panel.example.test");
    const link = loginLinkFrom(mail);
    expect(link).toMatch(/^http:\/\/panel\.example\.test\/sign-in\/verify\?token=[A-Za-z0-9_-]{43,}$/);
    expect(mail.html).toContain("/sign-in/verify?token=");
    const loginToken = loginTokenFrom(mail);

    // Only the hash is stored; the owner does not exist before the first verified login.
    const stored = await api.db.loginToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(loginToken) } });
    expect(stored.identifier).toBe("founder@example.test");
    expect(stored.tokenHash).not.toContain(loginToken);
    expect(stored.expiresAt.getTime() - before).toBeGreaterThan(14 * MINUTE);
    expect(stored.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(15 * MINUTE);
    expect(await api.db.owner.findUnique({ where: { email: "founder@example.test" } })).toBeNull();

    const verified = await verify(loginToken, { "user-agent": "vitest-client/1.0" }, "203.0.113.7");
    expect(verified.status, verified.text).toBe(200);
    const data = verified.body.data;
    expect(data).toEqual({
      session_token: expect.stringMatching(/^ses_[A-Za-z0-9_-]{43,}$/),
      expires_at: expect.any(String),
      user: {
        id: expect.any(String),
        email: "founder@example.test",
        name: "",
        base_currency: "USD",
        timezone: "UTC",
        locale: "en-US",
      },
    });
    const lifetime = new Date(data.expires_at).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(30 * DAY - MINUTE);
    expect(lifetime).toBeLessThanOrEqual(30 * DAY);

    const me = await api.call("GET", "/v1/me", { token: data.session_token });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({
      id: data.user.id,
      email: "founder@example.test",
      actor: { type: "owner", id: data.user.id },
    });

    const row = await api.db.session.findUniqueOrThrow({ where: { tokenHash: sha256Hex(data.session_token) } });
    expect(row).toMatchObject({ ownerId: data.user.id, channel: "api", ip: "203.0.113.7", revokedAt: null });
    expect((await api.db.loginToken.findUniqueOrThrow({ where: { id: stored.id } })).usedAt).not.toBeNull();

    const audit = await api.db.auditEntry.findMany({ where: { ownerId: data.user.id, action: "session.created" } });
    expect(audit).toEqual([
      expect.objectContaining({
        actorType: "owner",
        actorId: data.user.id,
        targetType: "session",
        targetId: row.id,
        requestId: verified.headers.get("x-request-id"),
      }),
    ]);

    const list = await api.call("GET", "/v1/me/sessions", { token: data.session_token });
    expect(list.status).toBe(200);
    expect(list.body.page).toEqual({ next_cursor: null, has_more: false });
    expect(list.body.data).toEqual([
      {
        id: row.id,
        channel: "api",
        user_agent: row.userAgent,
        ip: "203.0.113.7",
        created_at: row.createdAt.toISOString(),
        last_seen_at: expect.any(String),
        expires_at: data.expires_at,
        revoked_at: null,
        status: "active",
        current: true,
      },
    ]);
  });

  it("signs a known owner in again without creating another owner", async () => {
    const email = freshEmail("again");
    const first = await signIn(email);
    const second = await signIn(email);
    expect(second.ownerId).toBe(first.ownerId);
    expect(await api.db.owner.count({ where: { email } })).toBe(1);
    expect(second.token).not.toBe(first.token);
  });

  it("needs no Idempotency-Key, and refuses a bearer that is not valid even on the public route", async () => {
    const email = freshEmail("nokey");
    expect((await requestLink(email)).status).toBe(202);
    // AUTH_MODE=session: a non-session bearer on a public route is refused, not ignored.
    const withBadBearer = await api.call("POST", "/v1/auth/magic-link", {
      token: "not-a-real-token-at-all",
      idempotencyKey: null,
      body: { email },
    });
    expectApiError(withBadBearer, 401, "unauthenticated");
  });

  it("answers a known and an unknown address identically, and mails both", async () => {
    const known = freshEmail("known");
    await signIn(known);
    const unknown = freshEmail("unknown");
    const since = sink.messages.length;
    const a = await requestLink(known);
    const b = await requestLink(unknown);
    const strip = (response: TApiResponse) => ({
      status: response.status,
      body: { ...response.body, request_id: undefined },
      headers: [...response.headers.keys()].filter((name) => name !== "x-request-id").sort(),
    });
    expect(strip(a)).toEqual(strip(b));
    await sink.waitForMail(known, { since });
    await sink.waitForMail(unknown, { since });
    expect(await api.db.owner.findUnique({ where: { email: unknown } })).toBeNull();
  });

  it.each([
    [{ email: "not-an-email" }, "email"],
    [{ email: `${"a".repeat(250)}@example.test` }, "email"],
    [{ email: "" }, "email"],
    [{}, "email"],
  ])("refuses %j with 400 validation_error and writes nothing", async (body, field) => {
    const before = await api.db.loginToken.count();
    const response = await api.call("POST", "/v1/auth/magic-link", { token: null, idempotencyKey: null, body });
    expectApiError(response, 400, "validation_error");
    expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(field);
    expect(await api.db.loginToken.count()).toBe(before);
  });

  it(`throttles an address to ${MAX_LIVE_LOGIN_TOKENS} live links: still 202, but nothing more is sent`, async () => {
    const email = freshEmail("throttle");
    const since = sink.messages.length;
    const answers = await Promise.all(Array.from({ length: MAX_LIVE_LOGIN_TOKENS + 3 }, () => requestLink(email)));
    expect(answers.map((a) => a.status)).toEqual(Array(MAX_LIVE_LOGIN_TOKENS + 3).fill(202));
    expect(sink.messages.slice(since).filter((mail) => mail.to.includes(email))).toHaveLength(MAX_LIVE_LOGIN_TOKENS);
    expect(await api.db.loginToken.count({ where: { identifier: email } })).toBe(MAX_LIVE_LOGIN_TOKENS);

    // A spent link frees its slot.
    const first = sink.messages.slice(since).find((mail) => mail.to.includes(email))!;
    expect((await verify(loginTokenFrom(first))).status).toBe(200);
    const again = sink.messages.length;
    expect((await requestLink(email)).status).toBe(202);
    await sink.waitForMail(email, { since: again });
  });
  it("answers 500 when the mail cannot be sent, and keeps no token for it", async () => {
    const email = freshEmail("smtp-down");
    applyTestEnv({ SMTP_URL: "smtp://127.0.0.1:1?ignoreTLS=true" }); // nothing listens on port 1
    try {
      expectApiError(await requestLink(email), 500, "internal_error");
    } finally {
      applyTestEnv({ SMTP_URL: sink.url });
    }
    expect(await api.db.loginToken.count({ where: { identifier: email } })).toBe(0);
    expect((await requestLink(email)).status).toBe(202);
  });
});

describe("login token problems answer 401 login_token_invalid", () => {
  it("refuses a used token", async () => {
    const token = await loginToken(freshEmail("reuse"));
    expect((await verify(token)).status).toBe(200);
    expectApiError(await verify(token), 401, "login_token_invalid");
  });

  it("refuses an expired token", async () => {
    const email = freshEmail("expired-link");
    const token = await loginToken(email);
    await api.db.loginToken.update({ where: { tokenHash: sha256Hex(token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectApiError(await verify(token), 401, "login_token_invalid");
    expect(await api.db.owner.findUnique({ where: { email } })).toBeNull();
  });

  it("refuses an unknown token, and an empty one with 400", async () => {
    expectApiError(await verify("x".repeat(43)), 401, "login_token_invalid");
    expectApiError(await verify(""), 400, "validation_error");
  });

  it("lets exactly one of 10 concurrent verifies of one token succeed", async () => {
    const email = freshEmail("race");
    const token = await loginToken(email);
    const answers = await Promise.all(Array.from({ length: 10 }, () => verify(token)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(401)]);
    for (const answer of answers.filter((a) => a.status === 401)) expectApiError(answer, 401, "login_token_invalid");
    const owner = await api.db.owner.findUniqueOrThrow({ where: { email } });
    expect(await api.db.session.count({ where: { ownerId: owner.id } })).toBe(1);
  });

  it("creates one owner when two links of a new address are verified at once", async () => {
    const email = freshEmail("twin");
    const [a, b] = [await loginToken(email), await loginToken(email)];
    const answers = await Promise.all([verify(a), verify(b)]);
    expect(answers.map((x) => x.status)).toEqual([200, 200]);
    expect(answers[0]!.body.data.user.id).toBe(answers[1]!.body.data.user.id);
    expect(await api.db.owner.count({ where: { email } })).toBe(1);
  });
});

describe("session lifecycle", () => {
  it("answers 401 session_expired once a session has expired", async () => {
    const owner = await signIn(freshEmail("expiring"));
    await api.db.session.update({ where: { id: owner.sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectApiError(await api.call("GET", "/v1/me", { token: owner.token }), 401, "session_expired");
  });

  it("logs out the bearer's session only: 401 session_revoked afterwards", async () => {
    const email = freshEmail("logout");
    const one = await signIn(email);
    const two = await signIn(email);
    const out = await api.call("POST", "/v1/auth/logout", { token: one.token, idempotencyKey: null });
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({ status: "signed_out" });
    expectApiError(await api.call("GET", "/v1/me", { token: one.token }), 401, "session_revoked");
    expectApiError(await api.call("POST", "/v1/auth/logout", { token: one.token, idempotencyKey: null }), 401, "session_revoked");
    expect((await api.call("GET", "/v1/me", { token: two.token })).status).toBe(200);
    const audit = await api.db.auditEntry.findMany({ where: { ownerId: one.ownerId, action: "session.signed_out" } });
    expect(audit.map((entry) => entry.targetId)).toEqual([one.sessionId]);
  });

  it("refuses logout without an owner session bearer", async () => {
    expectApiError(await api.call("POST", "/v1/auth/logout", { token: null, idempotencyKey: null }), 401, "unauthenticated");
    expectApiError(
      await api.call("POST", "/v1/auth/logout", { token: "ses_unknown0000000000000000000000000000", idempotencyKey: null }),
      401,
      "unauthenticated",
    );
  });

  it("revokes every other session with revoke-others; they answer 401 session_revoked", async () => {
    const email = freshEmail("others");
    const current = await signIn(email);
    const other = await signIn(email);
    const third = await signIn(email);
    await api.call("POST", "/v1/auth/logout", { token: third.token, idempotencyKey: null });

    const missingKey = await api.call("POST", "/v1/me/sessions/revoke-others", { token: current.token, idempotencyKey: null });
    expectApiError(missingKey, 400, "missing_idempotency_key");

    const revoked = await api.call("POST", "/v1/me/sessions/revoke-others", { token: current.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ revoked: 1 });
    expectApiError(await api.call("GET", "/v1/me", { token: other.token }), 401, "session_revoked");
    expect((await api.call("GET", "/v1/me", { token: current.token })).status).toBe(200);

    const again = await api.call("POST", "/v1/me/sessions/revoke-others", { token: current.token });
    expect(again.body.data).toEqual({ revoked: 0 });
    const audit = await api.db.auditEntry.findMany({
      where: { ownerId: current.ownerId, action: "session.revoked_others" },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((entry) => entry.details)).toEqual([
      { revoked: 1, session_ids: [other.sessionId] },
      { revoked: 0, session_ids: [] },
    ]);
  });

  it("revokes one session: 404 for another owner's, 409 when already revoked, replays with the same key", async () => {
    const email = freshEmail("revoke-one");
    const current = await signIn(email);
    const other = await signIn(email);
    const stranger = await signIn(freshEmail("stranger"));

    const notMine = await api.call("POST", `/v1/me/sessions/${stranger.sessionId}/revoke`, { token: current.token });
    expectApiError(notMine, 404, "not_found");
    expect((await api.call("GET", "/v1/me", { token: stranger.token })).status).toBe(200);
    expectApiError(
      await api.call("POST", "/v1/me/sessions/not-a-uuid/revoke", { token: current.token }),
      400,
      "validation_error",
    );

    const key = `revoke-${other.sessionId}`;
    const revoked = await api.call("POST", `/v1/me/sessions/${other.sessionId}/revoke`, {
      token: current.token,
      idempotencyKey: key,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({
      id: other.sessionId,
      status: "revoked",
      current: false,
      revoked_at: expect.any(String),
    });
    expectApiError(await api.call("GET", "/v1/me", { token: other.token }), 401, "session_revoked");

    const replay = await api.call("POST", `/v1/me/sessions/${other.sessionId}/revoke`, {
      token: current.token,
      idempotencyKey: key,
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");

    const conflict = await api.call("POST", `/v1/me/sessions/${other.sessionId}/revoke`, { token: current.token });
    expectApiError(conflict, 409, "state_conflict");

    const audit = await api.db.auditEntry.findMany({ where: { ownerId: current.ownerId, action: "session.revoked" } });
    expect(audit.map((entry) => entry.targetId)).toEqual([other.sessionId]);
  });

  it("lists newest first with status filters and cursor pages, never another owner's sessions", async () => {
    const email = freshEmail("list");
    const sessions = [];
    for (let i = 0; i < 4; i++) sessions.push(await signIn(email));
    // Distinct creation times, oldest first (several sign-ins can share a millisecond).
    for (const [i, s] of sessions.entries()) {
      await api.db.session.update({ where: { id: s.sessionId }, data: { createdAt: new Date(Date.now() - (10 - i) * MINUTE) } });
    }
    const current = sessions[3]!;
    await api.call("POST", `/v1/me/sessions/${sessions[0]!.sessionId}/revoke`, { token: current.token });
    await api.db.session.update({ where: { id: sessions[1]!.sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const stranger = await signIn(freshEmail("list-stranger"));

    const all = await api.call("GET", "/v1/me/sessions", { token: current.token });
    expect(all.body.data.map((s: { id: string }) => s.id)).toEqual([...sessions].reverse().map((s) => s.sessionId));
    expect(all.body.data.map((s: { status: string }) => s.status)).toEqual(["active", "active", "expired", "revoked"]);
    expect(all.body.data.map((s: { current: boolean }) => s.current)).toEqual([true, false, false, false]);
    expect(all.body.data.map((s: { id: string }) => s.id)).not.toContain(stranger.sessionId);

    const active = await api.call("GET", "/v1/me/sessions?status=active", { token: current.token });
    expect(active.body.data.map((s: { id: string }) => s.id)).toEqual([sessions[3]!.sessionId, sessions[2]!.sessionId]);
    const revoked = await api.call("GET", "/v1/me/sessions?status=revoked", { token: current.token });
    expect(revoked.body.data.map((s: { id: string }) => s.id)).toEqual([sessions[0]!.sessionId]);
    expectApiError(await api.call("GET", "/v1/me/sessions?status=nope", { token: current.token }), 400, "validation_error");

    const seen = await walkPages(api, "/v1/me/sessions", { limit: 3, token: current.token });
    expect(seen).toEqual(all.body.data.map((s: { id: string }) => s.id));
  });

  it("gives a reusable helper: signInOwner yields two owners with real tokens", async () => {
    const alice = await signInOwner(api, freshEmail("alice"));
    const bob = await signInOwner(api, freshEmail("bob"));
    expect(alice.ownerId).not.toBe(bob.ownerId);
    const aliceMe = await api.call("GET", "/v1/me", { token: alice.token });
    expect(aliceMe.body.data.id).toBe(alice.ownerId);
    const bobSessions = await api.call("GET", "/v1/me/sessions", { token: bob.token });
    expect(bobSessions.body.data).toHaveLength(1);
  });
});
