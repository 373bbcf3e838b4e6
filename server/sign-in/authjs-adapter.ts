// Auth.js's database adapter, over our own tables (not @auth/prisma-adapter's models):
//
//   Auth.js user                → owners (matched by lower-cased email)
//   Auth.js session             → sessions, channel "panel"; only sha256(token) is stored,
//                                 and deleting a session revokes it (it stays in the list)
//   Auth.js verification token  → login_tokens (identifier = email); Auth.js hands us its
//                                 own hash of the mailed token, we store the SHA-256 of that
//
// So a panel session is the same record as one from POST /v1/auth/verify: the same `ses_`
// tokens (Auth.js's generateSessionToken is ours), listed and revoked by /v1/me/sessions,
// authenticated by authenticateToken. Only email sign-in exists: no OAuth accounts.
import type { Adapter, AdapterSession, AdapterUser, VerificationToken } from "next-auth/adapters";
import type { TDb } from "../db/client";
import type { Owner, Session } from "../db/generated/client";
import { openOwnerSession, revokeSessionByToken } from "../sessions/session-service";
import { ZUuid } from "../shared/schemas";
import { sha256Hex } from "../auth/tokens";

export type TAuthjsAdapterOptions = {
  getDb: () => Promise<TDb>;
  /** The sign-in request's client, recorded on sessions created during it. */
  userAgent?: string | null;
  ip?: string | null;
};

function toAdapterUser(owner: Owner): AdapterUser {
  // Owners have no email_verified column: an owner exists only once an address proved itself
  // (or as the static owner), so Auth.js's field carries nothing and stays null.
  return { id: owner.id, email: owner.email, name: owner.name || null, emailVerified: null };
}

function toAdapterSession(row: Session, sessionToken: string): AdapterSession {
  return { sessionToken, userId: row.ownerId, expires: row.expiresAt };
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function createAuthjsAdapter(options: TAuthjsAdapterOptions): Adapter {
  const { getDb } = options;

  async function ownerById(id: string): Promise<Owner | null> {
    if (!ZUuid.safeParse(id).success) return null; // the column is a UUID; anything else is nobody
    return (await getDb()).owner.findUnique({ where: { id } });
  }

  return {
    async createUser(user) {
      const db = await getDb();
      const email = normalizeEmail(user.email);
      // ON CONFLICT DO NOTHING, then read: concurrent first sign-ins yield one owner.
      await db.owner.createMany({ data: [{ email, name: user.name ?? "" }], skipDuplicates: true });
      const owner = await db.owner.findUniqueOrThrow({ where: { email } });
      return { ...toAdapterUser(owner), emailVerified: user.emailVerified ?? null };
    },

    async getUser(id) {
      const owner = await ownerById(id);
      return owner ? toAdapterUser(owner) : null;
    },

    async getUserByEmail(email) {
      const owner = await (await getDb()).owner.findUnique({ where: { email: normalizeEmail(email) } });
      return owner ? toAdapterUser(owner) : null;
    },

    async getUserByAccount() {
      return null; // no OAuth accounts: email is the only way in
    },

    async updateUser(user) {
      const owner = await ownerById(user.id);
      if (!owner) throw new Error("Auth.js asked to update an owner that does not exist.");
      // Auth.js only records emailVerified here; name and email belong to PATCH /v1/me.
      return { ...toAdapterUser(owner), emailVerified: user.emailVerified ?? null };
    },

    async linkAccount() {
      throw new Error("Only email sign-in is configured; accounts cannot be linked.");
    },

    async createSession({ sessionToken, userId, expires }) {
      const { session } = await openOwnerSession(await getDb(), {
        ownerId: userId,
        channel: "panel",
        token: sessionToken,
        userAgent: options.userAgent ?? null,
        ip: options.ip ?? null,
        expiresAt: expires,
      });
      return toAdapterSession(session, sessionToken);
    },

    async getSessionAndUser(sessionToken) {
      const row = await (
        await getDb()
      ).session.findUnique({
        where: { tokenHash: sha256Hex(sessionToken) },
        include: { owner: true },
      });
      // Revoked and expired sessions are simply absent for Auth.js (it clears the cookie);
      // returning an expired one would make it call deleteSession, which revokes.
      if (!row || row.revokedAt || row.expiresAt <= new Date()) return null;
      return { session: toAdapterSession(row, sessionToken), user: toAdapterUser(row.owner) };
    },

    async updateSession({ sessionToken, expires }) {
      const db = await getDb();
      const tokenHash = sha256Hex(sessionToken);
      const row = await db.session.findUnique({ where: { tokenHash } });
      if (!row || row.revokedAt) return null;
      // A session lives SESSION_TTL_MS from sign-in on every channel: Auth.js's sliding
      // renewal may shorten it, never lengthen it.
      const expiresAt = expires && expires < row.expiresAt ? expires : row.expiresAt;
      const updated = await db.session.update({ where: { id: row.id }, data: { expiresAt, lastSeenAt: new Date() } });
      return toAdapterSession(updated, sessionToken);
    },

    async deleteSession(sessionToken) {
      const revoked = await revokeSessionByToken(await getDb(), sessionToken);
      return revoked ? toAdapterSession(revoked, sessionToken) : null;
    },

    async createVerificationToken(token) {
      await (
        await getDb()
      ).loginToken.create({
        data: { identifier: normalizeEmail(token.identifier), tokenHash: sha256Hex(token.token), expiresAt: token.expires },
      });
      return token;
    },

    async useVerificationToken({ identifier, token }): Promise<VerificationToken | null> {
      const db = await getDb();
      const tokenHash = sha256Hex(token);
      // Marked used in one conditional statement: of two concurrent uses exactly one wins.
      // Expired tokens are returned too; Auth.js itself refuses them as expired.
      const { count } = await db.loginToken.updateMany({
        where: { tokenHash, usedAt: null, ...(identifier ? { identifier: normalizeEmail(identifier) } : {}) },
        data: { usedAt: new Date() },
      });
      if (count !== 1) return null;
      const row = await db.loginToken.findUniqueOrThrow({ where: { tokenHash } });
      return { identifier: row.identifier, token, expires: row.expiresAt };
    },
  };
}
