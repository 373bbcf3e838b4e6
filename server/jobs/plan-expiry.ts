// Trials' ends (pinned-wave2 §5.2): hourly, plan.trial_ending 3 days before a trial ends and
// plan.expired once it has (server/plans/plan-service.ts runPlanExpiry). In process at start
// and every hour on the embedded database; through pg-boss on PostgreSQL. Each notice is claimed
// by the UPDATE of its owner row in the notice's transaction, so two runs (or a run before and
// after a restart) send it once; requests expire a trial lazily meanwhile.
import { runPlanExpiry } from "../plans/plan-service";
import type { TJob } from "./scheduler";

export const PLAN_EXPIRY_JOB = "plan-expiry";

export const planExpiryJob: TJob = {
  name: PLAN_EXPIRY_JOB,
  intervalMs: 60 * 60 * 1000,
  cron: "5 * * * *",
  run: (db, now) => runPlanExpiry(db, now),
};
