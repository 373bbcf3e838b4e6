import { AMOUNT_RANGE_RULE } from "../fx/base-amounts";
import type { TProcedureMeta } from "../trpc/meta";
import { BRIEF_ALERTS_LIMIT, BRIEF_LARGEST_LIMIT, ZDailyBriefQuery, ZDailyBriefResponse } from "./daily-brief.schema";

export const getDailyBriefMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/daily-brief",
    tags: ["Read models"],
    summary: "The owner's day at a glance",
    description:
      "The whole owner's day `date` (default today in the owner's timezone; after today 400 validation_error; a day " +
      "before the owner existed answers an empty brief). Computed on demand, never stored, as known at the END of date " +
      "in the owner's timezone: events with occurred_on ≤ date created before that end, counted as they were then (a " +
      "later void or reconciliation still shows; a later entry for the day does not), cash snapshots with as_of before " +
      "it, approvals pending then, commitments (K7) and burn and runway (K8) with today := date, coverage (K9) as it " +
      "stood then. Current rates are today's. day: the day's counted actuals by direction, how many, and the " +
      `${BRIEF_LARGEST_LIMIT} largest by |base amount| (their base_amount_minor in the base currency). month_to_date: ` +
      "from the 1st of date's month. change_vs_previous_day: net and cash against the day before. upcoming_7_days: " +
      `commitments of [date, date + 6], in and out. new_alerts: created during date, newest first, at most ${BRIEF_ALERTS_LIMIT}. ` +
      "pending_approvals: count and the oldest pending at the end of date. agent_activity: agent writes auto-approved " +
      "and held during date, agent decisions dated date. coverage_warnings: domains with a source whose coverage was " +
      "incomplete or missing. headline: one sentence in the owner's locale. With display_currency every amount except " +
      "the listed items' base_amount_minor is converted once from the base and the nets recomputed. A missing rate " +
      "answers 422 fx_unavailable. " +
      AMOUNT_RANGE_RULE +
      " The daily-brief job announces each owner's brief once a day from 07:00 in their " +
      "timezone (notification daily_brief.ready, ref { type: daily_brief, id: <date> }). Envelope coverage: every domain.",
  },
};
export const ZGetDailyBriefRequest = ZDailyBriefQuery;
export const ZGetDailyBriefResponse = ZDailyBriefResponse;
