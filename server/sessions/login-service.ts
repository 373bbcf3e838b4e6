// Magic-link sign-in over /v1: a single-use login token mailed as a link, exchanged once for
// an owner session. The answer to a link request never says whether the address is known
// (a new address becomes an owner at its first verified login, not before).
import { LOGIN_TOKEN_TTL_MS } from "../auth/lifetimes";
import { sha256Hex } from "../auth/tokens";
import type { TDbOrTx, TTx } from "../db/client";
import { inTransaction } from "../db/transaction";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import { errorFields, log } from "../log";
import { loginMail } from "../mail/login-mail";
import { sendMail } from "../mail/mailer";
import type { TNewSession } from "./session.schema";
import { insertOwnerSession, toSessionUser } from "./session-service";
import type { TSessionChannel } from "./session.schema";
import { MAX_LIVE_LOGIN_TOKENS, newLoginToken } from "./session-tokens";

/** Where a login link points: the panel's verify page on PUBLIC_BASE_URL, never the request's host. */
export function loginLink(token: string): string {
  const base = getEnv().publicBaseUrl.replace(/\/+$/, "");
  return `${base}/sign-in/verify?${new URLSearchParams({ token })}`;
}

/** Unused, unexpired login tokens of an address (both flows: /v1 and the panel's Auth.js). */
export async function countLiveLoginTokens(
  db: TDbOrTx,
  email: string,
  options: { exceptTokenHash?: string } = {},
): Promise<number> {
  return db.loginToken.count({
    where: {
      identifier: email,
      usedAt: null,
      expiresAt: { gt: new Date() },
      ...(options.exceptTokenHash ? { tokenHash: { not: options.exceptTokenHash } } : {}),
    },
  });
}

/** Serialises login-token issuance per address, so the throttle holds under concurrency. */
async function lockAddress(tx: TTx, email: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`login:${email}`}))`;
}

export type TMagicLinkOutcome = "sent" | "throttled";

/** POST /v1/auth/magic-link. `email` is already normalised (ZLoginEmail). */
export async function sendMagicLink(db: TDbOrTx, email: string, requestId: string): Promise<TMagicLinkOutcome> {
  const token = newLoginToken();
  const tokenHash = sha256Hex(token);
  const created = await inTransaction(db, async (tx) => {
    await lockAddress(tx, email);
    if ((await countLiveLoginTokens(tx, email)) >= MAX_LIVE_LOGIN_TOKENS) return false;
    await tx.loginToken.create({
      data: { identifier: email, tokenHash, expiresAt: new Date(Date.now() + LOGIN_TOKEN_TTL_MS) },
    });
    return true;
  });
  if (!created) {
    log.info("login link throttled", { request_id: requestId, live_tokens_max: MAX_LIVE_LOGIN_TOKENS });
    return "throttled";
  }
  try {
    await sendMail(loginMail({ to: email, link: loginLink(token), validMinutes: LOGIN_TOKEN_TTL_MS / 60_000 }));
  } catch (error) {
    // A link nobody received must not count against the throttle; the caller retries.
    await db.loginToken.deleteMany({ where: { tokenHash } }).catch(() => undefined);
    log.error("login mail failed", { request_id: requestId, ...errorFields(error) });
    throw new AppError("internal_error", "The sign-in mail could not be sent; try again.", { cause: error });
  }
  return "sent";
}

export type TVerifyInput = {
  token: string;
  userAgent: string | null;
  ip: string | null;
  requestId: string;
  /** Where the session will be used: the REST API (default) or the panel (/sign-in/verify). */
  channel?: TSessionChannel;
};

/** POST /v1/auth/verify: spends the login token, creates the owner on first login, opens a session. */
export async function verifyMagicLink(db: TDbOrTx, input: TVerifyInput): Promise<TNewSession> {
  const tokenHash = sha256Hex(input.token);
  return inTransaction(db, async (tx) => {
    const now = new Date();
    // One statement decides: of concurrent verifies of one token exactly one sees
    // `used_at IS NULL` (PostgreSQL re-checks the condition after the first commit).
    const spent = await tx.loginToken.updateMany({
      where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (spent.count !== 1) throw new AppError("login_token_invalid");
    const login = await tx.loginToken.findUniqueOrThrow({ where: { tokenHash }, select: { identifier: true } });
    // First login creates the owner. INSERT … ON CONFLICT DO NOTHING, then read: two first
    // logins of one address at once yield one owner (Prisma's upsert would race here).
    await tx.owner.createMany({ data: [{ email: login.identifier }], skipDuplicates: true });
    const owner = await tx.owner.findUniqueOrThrow({ where: { email: login.identifier } });
    const { session, token } = await insertOwnerSession(tx, {
      ownerId: owner.id,
      channel: input.channel ?? "api",
      userAgent: input.userAgent,
      ip: input.ip,
      requestId: input.requestId,
    });
    return { session_token: token, expires_at: session.expiresAt.toISOString(), user: toSessionUser(owner) };
  });
}

/** Housekeeping: login tokens past their expiry (used or not) have no further use after a day. */
export async function sweepLoginTokens(db: TDbOrTx, now = new Date()): Promise<number> {
  const { count } = await db.loginToken.deleteMany({
    where: { expiresAt: { lt: new Date(now.getTime() - 24 * 60 * 60 * 1000) } },
  });
  return count;
}
