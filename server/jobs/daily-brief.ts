// The daily brief's notice (server/read-models/daily-brief-notice.ts): every 15 minutes, so each
// owner hears of their brief soon after 07:00 in their own timezone. Through pg-boss on
// PostgreSQL (once across instances), in process on the embedded database (at start, so a
// restart after 07:00 sends the day's brief at once). Each owner's brief is announced once a day
// whatever the number of runs: a marker row is written in the notice's transaction.
import { sendDailyBriefs } from "../read-models/daily-brief-notice";
import type { TJob } from "./scheduler";

export const DAILY_BRIEF_JOB = "daily-brief";
export const DAILY_BRIEF_CRON = "*/15 * * * *";

export const dailyBriefJob: TJob = {
  name: DAILY_BRIEF_JOB,
  intervalMs: 15 * 60 * 1000,
  cron: DAILY_BRIEF_CRON,
  run: (db, now) => sendDailyBriefs(db, now),
};
