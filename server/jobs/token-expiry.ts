// The daily notice of agent tokens expiring within 7 days (server/agents/token-expiry.ts): once a
// day at 07:00 UTC through pg-boss on PostgreSQL, at start and then daily in process on the
// embedded database. Each token is announced once whatever the number of runs.
import { notifyExpiringAgentTokens } from "../agents/token-expiry";
import type { TJob } from "./scheduler";

export const TOKEN_EXPIRY_JOB = "agent-token-expiry";

export const tokenExpiryJob: TJob = {
  name: TOKEN_EXPIRY_JOB,
  intervalMs: 24 * 60 * 60 * 1000,
  cron: "0 7 * * *",
  run: (db, now) => notifyExpiringAgentTokens(db, now),
};
