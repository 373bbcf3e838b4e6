// The setting of the panel's sign-in tests: an API whose database is also the process's
// (Auth.js's handlers and the panel's routes use getDatabase(), as in the app) and a real SMTP
// sink receiving the login mails.
import { setDatabase } from "../../server/db/client";
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
