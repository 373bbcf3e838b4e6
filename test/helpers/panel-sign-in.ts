// The setting of the panel's sign-in tests: an API whose database is also the process's
// (Auth.js's handlers and the panel's routes use getDatabase(), as in the app) and a real SMTP
// sink receiving the login mails.
import { authenticateToken } from "../../server/auth/authenticate";
import { setDatabase, type TDb } from "../../server/db/client";
import { isAppError } from "../../server/errors/app-error";
import type { TClock } from "../../server/shared/clock";
import { createTestApi, type TTestApi } from "./api";
import { startSmtpSink, type TSmtpSink } from "./owners";

/** PUBLIC_BASE_URL of the sign-in tests: the origin of the mailed links and of same-site requests. */
export const SIGN_IN_BASE_URL = "http://localhost:3000";

export type TSignInWorld = { api: TTestApi; sink: TSmtpSink; close: () => Promise<void> };

/** `clock`: the time the REST layer counts rate-limit windows in (the per-IP door's tests). */
export async function startSignInWorld(options: { clock?: TClock } = {}): Promise<TSignInWorld> {
  const sink = await startSmtpSink();
  const api = await createTestApi({
    clock: options.clock,
    env: {
      AUTH_MODE: "session",
      SMTP_URL: sink.url,
      PUBLIC_BASE_URL: SIGN_IN_BASE_URL,
      AUTH_SECRET: "test-auth-secret-0123456789abcdef",
    },
  });
  setDatabase(api.database);
  return {
    api,
    sink,
    close: async () => {
      setDatabase(undefined);
      await api.close();
      await sink.close();
    },
  };
}

/** A browser's cookies: name → value. */
export type TCookieJar = Map<string, string>;

/** Keeps the cookies a response sets, and drops those it clears. */
export function storeCookies(jar: TCookieJar, response: Response): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair!.indexOf("=");
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}

/** The Cookie header a browser sends with the jar. */
export function cookieHeader(jar: TCookieJar): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** The error code authenticating `token` answers, or "authenticated". */
export async function authenticationError(db: TDb, token: string): Promise<string> {
  try {
    await authenticateToken(db, token);
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
  return "authenticated";
}
