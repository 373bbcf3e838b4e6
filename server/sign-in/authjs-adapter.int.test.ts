// Auth.js's adapter on our tables (owners, sessions, login_tokens), against a real database
// on PGlite and PostgreSQL. The whole panel sign-in through Auth.js's route handlers is
// tested in authjs.int.test.ts.
import { randomUUID } from "node:crypto";
import type { Adapter } from "next-auth/adapters";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { authenticationError } from "../../test/helpers/panel-sign-in";
import { newSessionToken } from "../sessions/session-tokens";
import { createAuthjsAdapter } from "./authjs-adapter";
import { authenticateToken } from "../auth/authenticate";
import { sha256Hex } from "../auth/tokens";

const DAY = 24 * 60 * 60 * 1000;

let api: TTestApi;
let adapter: Required<
  Pick<
    Adapter,
    | "createUser"
    | "getUser"
    | "getUserByEmail"
    | "createVerificationToken"
    | "useVerificationToken"
    | "createSession"
    | "getSessionAndUser"
    | "deleteSession"
    | "updateSession"
  >
>;

beforeAll(async () => {
  api = await createTestApi({ env: { AUTH_MODE: "session" } });
  adapter = createAuthjsAdapter({
    getDb: async () => api.db,
    userAgent: "vitest-browser/1.0",
    ip: "192.0.2.10",
  }) as typeof adapter;
});
afterAll(async () => api?.close());

describe("the Auth.js adapter", () => {
  it("maps users to owners by lower-cased email", async () => {
    const created = await adapter.createUser({ id: randomUUID(), email: "Panel.User@Example.TEST", emailVerified: new Date() });
    expect(created).toMatchObject({ email: "panel.user@example.test", id: expect.any(String) });
    const owner = await api.db.owner.findUniqueOrThrow({ where: { email: "panel.user@example.test" } });
    expect(created.id).toBe(owner.id);
    expect(await adapter.getUserByEmail("panel.user@example.test")).toMatchObject({ id: owner.id, email: owner.email });
    expect(await adapter.getUserByEmail("PANEL.USER@example.test")).toMatchObject({ id: owner.id });
    expect(await adapter.getUser(owner.id)).toMatchObject({ id: owner.id });
    expect(await adapter.getUserByEmail("nobody@example.test")).toBeNull();
    expect(await adapter.getUser("not-a-uuid")).toBeNull();
    // A second createUser for the address is the same owner, not a duplicate.
    expect((await adapter.createUser({ id: randomUUID(), email: "panel.user@example.test", emailVerified: null })).id).toBe(
      owner.id,
    );
  });

  it("keeps verification tokens in login_tokens, hashed, and lets each be used once", async () => {
    const expires = new Date(Date.now() + 10 * 60 * 1000);
    const token = `authjs-hash-${randomUUID()}`;
    await adapter.createVerificationToken({ identifier: "once@example.test", token, expires });
    const row = await api.db.loginToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(token) } });
    expect(row).toMatchObject({ identifier: "once@example.test", usedAt: null });
    expect(row.tokenHash).not.toBe(token);

    expect(await adapter.useVerificationToken({ identifier: "other@example.test", token })).toBeNull();
    const used = await adapter.useVerificationToken({ identifier: "once@example.test", token });
    expect(used).toEqual({ identifier: "once@example.test", token, expires });
    expect(await adapter.useVerificationToken({ identifier: "once@example.test", token })).toBeNull();
    expect((await api.db.loginToken.findUniqueOrThrow({ where: { id: row.id } })).usedAt).not.toBeNull();
  });

  it("lets exactly one of concurrent uses of a verification token win", async () => {
    const token = `authjs-race-${randomUUID()}`;
    await adapter.createVerificationToken({ identifier: "race@example.test", token, expires: new Date(Date.now() + 60_000) });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => adapter.useVerificationToken({ identifier: "race@example.test", token })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("stores a session's hash only, finds it by token, and revokes it on delete", async () => {
    const owner = await adapter.createUser({ id: randomUUID(), email: "sessions@example.test", emailVerified: new Date() });
    const sessionToken = newSessionToken();
    const expires = new Date(Date.now() + 30 * DAY);
    const created = await adapter.createSession({ sessionToken, userId: owner.id, expires });
    expect(created).toEqual({ sessionToken, userId: owner.id, expires });

    const row = await api.db.session.findUniqueOrThrow({ where: { tokenHash: sha256Hex(sessionToken) } });
    expect(row.tokenHash).not.toBe(sessionToken);
    expect(row.tokenHash).not.toContain(sessionToken.slice(4));
    expect(row).toMatchObject({
      ownerId: owner.id,
      channel: "panel",
      userAgent: "vitest-browser/1.0",
      ip: "192.0.2.10",
      revokedAt: null,
    });
    expect(await api.db.auditEntry.count({ where: { ownerId: owner.id, action: "session.created", targetId: row.id } })).toBe(1);

    const found = await adapter.getSessionAndUser(sessionToken);
    expect(found).toEqual({
      session: { sessionToken, userId: owner.id, expires: row.expiresAt },
      user: expect.objectContaining({ id: owner.id, email: "sessions@example.test" }),
    });
    expect(await adapter.getSessionAndUser(newSessionToken())).toBeNull();

    // The same record the REST API knows: the token is a bearer, the session is listed.
    const actor = await authenticateToken(api.db, sessionToken);
    expect(actor).toMatchObject({ type: "owner", ownerId: owner.id, credential: "session", sessionId: row.id });
    const listed = await api.call("GET", "/v1/me/sessions", { token: sessionToken });
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: row.id, channel: "panel", current: true, status: "active" }),
    ]);

    // updateSession never lengthens the fixed lifetime.
    const later = await adapter.updateSession({ sessionToken, expires: new Date(Date.now() + 60 * DAY) });
    expect(later?.expires).toEqual(row.expiresAt);

    const witness = newSessionToken();
    await adapter.createSession({ sessionToken: witness, userId: owner.id, expires });
    const deleted = await adapter.deleteSession(sessionToken);
    expect(deleted).toMatchObject({ sessionToken, userId: owner.id });
    expect(await adapter.getSessionAndUser(sessionToken)).toBeNull();
    expect(await authenticationError(api.db, sessionToken)).toBe("session_revoked");
    const after = await api.call("GET", "/v1/me/sessions?status=revoked", { token: witness });
    expect(after.body.data).toEqual([expect.objectContaining({ id: row.id, status: "revoked", revoked_at: expect.any(String) })]);
    expect(await adapter.deleteSession(sessionToken)).toBeNull(); // already revoked: a no-op
  });

  it("hides expired sessions from Auth.js without revoking them", async () => {
    const owner = await adapter.createUser({ id: randomUUID(), email: "expired-panel@example.test", emailVerified: new Date() });
    const sessionToken = newSessionToken();
    await adapter.createSession({ sessionToken, userId: owner.id, expires: new Date(Date.now() + DAY) });
    await api.db.session.update({
      where: { tokenHash: sha256Hex(sessionToken) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await adapter.getSessionAndUser(sessionToken)).toBeNull();
    expect((await api.db.session.findUniqueOrThrow({ where: { tokenHash: sha256Hex(sessionToken) } })).revokedAt).toBeNull();
  });
});
