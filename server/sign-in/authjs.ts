// Auth.js (next-auth v5) for the panel: email sign-in by magic link, database sessions kept in
// our own `sessions` table through our adapter (authjs-adapter.ts). A panel session is the
// same record and the same kind of token (`ses_…`) as one from POST /v1/auth/verify; the
// session cookie is the panel's `fbo_token`, which server/auth/panel-session.ts authenticates through
// authenticateToken like any bearer. Routes: app/api/auth/[...nextauth]/route.ts.
//
// The configuration is built per request (lazy initialisation): nothing opens the database or
// reads the secret at import, so `next build` never touches either.
import NextAuth, { type NextAuthConfig } from "next-auth";
import Nodemailer from "next-auth/providers/nodemailer";
import { getDatabase } from "../db/client";
import { getEnv } from "../env";
import { errorFields, log } from "../log";
import { loginMail } from "../mail/login-mail";
import { consumeIpLimit } from "../rest/ip-limit";
import { errorOutcome, toResponse } from "../rest/outcome";
import { rateLimitedError, rateLimitHeaders } from "../rest/rate-limit";
import { systemClock, type TClock } from "../shared/clock";
import { sendMail } from "../mail/mailer";
import { countLiveLoginTokens } from "../sessions/login-service";
import { ZLoginEmail } from "../sessions/session.schema";
import { MAX_LIVE_LOGIN_TOKENS, newLoginToken, newSessionToken } from "../sessions/session-tokens";
import { createAuthjsAdapter } from "./authjs-adapter";
import { clientIp } from "../auth/client-ip";
import { LOGIN_TOKEN_TTL_MS, SESSION_TTL_MS } from "../auth/lifetimes";
import { newPanelRequestId, PANEL_COOKIE, VERIFY_PATH } from "../auth/panel-session";
import { sha256Hex } from "../auth/tokens";
import { AUTH_SECRET_FILE, dataDirSecret } from "../crypto/data-dir-secret";

export const AUTH_BASE_PATH = "/api/auth";
/** Auth.js's id of the email provider: sign in with signIn("nodemailer", { email }). */
export const EMAIL_PROVIDER_ID = "nodemailer";

/**
 * AUTH_SECRET from the environment, else one generated on first use into
 * `${DATA_DIR}/auth-secret` (mode 0600) and read from there ever after, so links and
 * sessions survive restarts. Several instances need AUTH_SECRET set (or a shared DATA_DIR).
 */
export function authSecret(): Promise<string> {
  const fromEnv = process.env.AUTH_SECRET?.trim();
  return fromEnv ? Promise.resolve(fromEnv) : dataDirSecret(AUTH_SECRET_FILE);
}

/** Auth.js's email callback, which spends a link's token (login-link.ts guards it). */
export const EMAIL_CALLBACK_PATH = `${AUTH_BASE_PATH}/callback/${EMAIL_PROVIDER_ID}`;

/**
 * The link Auth.js's mail carries: the confirmation page (`/sign-in/verify`, whose button
 * spends the token, login-link.ts) with Auth.js's callback parameters (token, email,
 * callbackUrl), never the callback itself, which would sign in on a mere GET. Always on
 * PUBLIC_BASE_URL: with trustHost, Auth.js builds its URL from the request's (forwarded)
 * host, which a caller could otherwise point at their own server to receive someone else's
 * login token.
 */
export function confirmationLink(authjsUrl: string): string {
  const base = getEnv().publicBaseUrl.replace(/\/+$/, "");
  return `${base}${VERIFY_PATH}${new URL(authjsUrl).search}`;
}

/** The email as both sign-in flows key it; refuses what POST /v1/auth/magic-link refuses. */
function normalizeIdentifier(raw: string): string {
  const parsed = ZLoginEmail.safeParse(raw);
  if (!parsed.success) throw new Error("Invalid email address.");
  return parsed.data;
}

export async function authConfig(req: Request | undefined): Promise<NextAuthConfig> {
  const env = getEnv();
  const secret = await authSecret();
  const getDb = async () => (await getDatabase()).prisma;
  return {
    secret,
    trustHost: true,
    basePath: AUTH_BASE_PATH,
    adapter: createAuthjsAdapter({
      getDb,
      userAgent: req?.headers.get("user-agent") ?? null,
      ip: req ? clientIp(req.headers) : null,
    }),
    providers: [
      Nodemailer({
        id: EMAIL_PROVIDER_ID,
        // Unused (sendVerificationRequest below sends through our mailer) but required by the
        // provider; a URL string, as an options object fails (notes/stack.md pitfall 11).
        server: env.SMTP_URL ?? "smtp://localhost:25?ignoreTLS=true",
        from: env.MAIL_FROM,
        maxAge: LOGIN_TOKEN_TTL_MS / 1000,
        generateVerificationToken: newLoginToken,
        normalizeIdentifier,
        async sendVerificationRequest({ identifier, url, token }) {
          // Auth.js stores sha256(token + secret) as the token; this one is being inserted
          // beside us, so it does not count against the throttle.
          const ownHash = sha256Hex(sha256Hex(`${token}${secret}`));
          const live = await countLiveLoginTokens(await getDb(), identifier, { exceptTokenHash: ownHash });
          if (live >= MAX_LIVE_LOGIN_TOKENS) {
            log.info("login link throttled", { channel: "panel", live_tokens_max: MAX_LIVE_LOGIN_TOKENS });
            return; // the page still says "check your mail": the answer never varies
          }
          await sendMail(loginMail({ to: identifier, link: confirmationLink(url), validMinutes: LOGIN_TOKEN_TTL_MS / 60_000 }));
        },
      }),
    ],
    session: {
      strategy: "database",
      maxAge: SESSION_TTL_MS / 1000,
      // Same lifetime as a /v1 session: fixed from sign-in, never renewed by use.
      updateAge: SESSION_TTL_MS / 1000,
      generateSessionToken: newSessionToken,
    },
    cookies: {
      // `secure` keeps Auth.js's default (on for https).
      sessionToken: { name: PANEL_COOKIE, options: { httpOnly: true, sameSite: "lax", path: "/" } },
    },
    // Auth.js appends its own query to verifyRequest with a bare `?` ("…?sent=1?provider=…");
    // the trailing `&` keeps `sent=1` a parameter of its own. Errors land on
    // /sign-in?error=<Auth.js code> (Verification: the link was used, expired or unknown).
    pages: { signIn: "/sign-in", verifyRequest: "/sign-in?sent=1&", error: "/sign-in" },
    logger: {
      // A used or expired link is the user's everyday mistake, not a server fault.
      error: (error) =>
        (error as { type?: string }).type === "Verification"
          ? log.warn("auth.js: login link used, expired or unknown", { type: "Verification" })
          : log.error("auth.js error", errorFields(error)),
      warn: (code) => log.warn("auth.js warning", { code }),
      debug: (message, metadata) => log.debug("auth.js", { message, metadata }),
    },
  };
}

const nextAuth = NextAuth((req) => authConfig(req));
export const { auth, signIn, signOut } = nextAuth;

type TAuthjsHandler = (typeof nextAuth.handlers)["GET"];

/**
 * Auth.js's endpoints behind the per-IP door (server/rest/ip-limit.ts): asking for a sign-in
 * mail spends the login budget that POST /v1/auth/magic-link spends (10 a minute), every other
 * call (the callback spends a login token) the public one (60 a minute). Windows are counted
 * on `clock`.
 */
function behindIpLimit(handler: TAuthjsHandler, clock: TClock): TAuthjsHandler {
  return async (req) => {
    const now = clock.now();
    const budget = req.method === "POST" && req.nextUrl.pathname.startsWith(`${AUTH_BASE_PATH}/signin/`) ? "login" : "public";
    const state = await consumeIpLimit((await getDatabase()).prisma, budget, clientIp(req.headers), now);
    if (!state.exceeded) return handler(req);
    return toResponse(errorOutcome(rateLimitedError(state, now)), newPanelRequestId(), rateLimitHeaders(state));
  };
}

/** Auth.js's route handlers behind the per-IP door; tests pass the clock the REST layer counts on. */
export function authjsHandlers(clock: TClock = systemClock) {
  return { GET: behindIpLimit(nextAuth.handlers.GET, clock), POST: behindIpLimit(nextAuth.handlers.POST, clock) };
}

export const handlers = authjsHandlers();
