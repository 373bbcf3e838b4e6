// daily_brief.ready (pinned-wave2 §2.11, issue 16): every morning, from 07:00 in the owner's
// timezone, the owner hears that the day's brief is ready (its headline as the body). Run every
// 15 minutes by a job (jobs/daily-brief.ts); each run announces the briefs due since the last.
//
// Once per owner and day: the notice and a marker row daily_briefs_sent(owner_id, date) are
// written in one transaction, the marker first with ON CONFLICT DO NOTHING, so of two instances
// (or a run before and after a restart) exactly one writes the notice; the other finds the
// marker and writes nothing. A muted code (daily_brief.ready, or daily_brief.*) still leaves the
// marker, so the brief is not computed again every 15 minutes. The brief itself is computed
// before the transaction (it reads only), so the transaction stays short; a brief that fails
// (422 fx_unavailable, say) leaves no marker and is tried again on the next run.
import { hourIn, timeZoneOrUtc, todayIn } from "../../lib/days";
import type { TDbOrTx } from "../db/client";
import { inTransaction } from "../db/transaction";
import { errorFields, log } from "../log";
import { createNotifications, type TNewNotification } from "../notifications/notification-outbox";
import { getDailyBrief } from "./daily-brief";
import { briefTitle } from "./daily-brief-words";

export const DAILY_BRIEF_CODE = "daily_brief.ready";
/** The owner's local hour from which the day's brief is announced. */
export const DAILY_BRIEF_HOUR = 7;
/** A run starts no new owner after this long; the next run continues with the rest. */
export const DAILY_BRIEF_BUDGET_MS = 60_000;

type TOwnerRow = { id: string; timezone: string; locale: string; last_sent: string | null };

/** The notice of one owner's brief for `date`. */
export function dailyBriefNotification(date: string, locale: string, headline: string): TNewNotification {
  return {
    code: DAILY_BRIEF_CODE,
    severity: "info",
    title: briefTitle(date, locale),
    body: headline,
    ref: { type: "daily_brief", id: date },
  };
}

/**
 * Announces the brief of every owner whose local time is 07:00 or later and who has had no
 * notice for their local today yet. Answers how many were announced (created: written; muted:
 * marked without a notice) and how many failed (tried again next run).
 */
export async function sendDailyBriefs(
  db: TDbOrTx,
  now: Date,
  options: { budgetMs?: number } = {},
): Promise<{ sent: number; muted: number; failed: number; deferred: number }> {
  // Each owner's latest marker is one backward step of the primary key.
  const owners = await db.$queryRaw<TOwnerRow[]>`
    SELECT o.id::text AS id, o.timezone, o.locale,
           (SELECT to_char(MAX(s.date), 'YYYY-MM-DD') FROM daily_briefs_sent s WHERE s.owner_id = o.id) AS last_sent
      FROM owners o
     ORDER BY o.created_at, o.id`;
  const due = owners.flatMap((owner) => {
    const timezone = timeZoneOrUtc(owner.timezone);
    const today = todayIn(timezone, now);
    if (owner.last_sent !== null && owner.last_sent >= today) return [];
    if (hourIn(timezone, now) < DAILY_BRIEF_HOUR) return [];
    return [{ ...owner, today }];
  });

  const started = Date.now();
  const result = { sent: 0, muted: 0, failed: 0, deferred: 0 };
  for (const [index, owner] of due.entries()) {
    if (Date.now() - started > (options.budgetMs ?? DAILY_BRIEF_BUDGET_MS)) {
      result.deferred = due.length - index;
      break;
    }
    try {
      const brief = await getDailyBrief(db, { ownerId: owner.id, clock: { now: () => now }, query: { date: owner.today } });
      const created = await inTransaction(db, async (tx) => {
        const marked = await tx.$executeRaw`
          INSERT INTO daily_briefs_sent (owner_id, date, created_at)
          VALUES (${owner.id}::uuid, ${owner.today}::date, ${now})
          ON CONFLICT DO NOTHING`;
        if (marked === 0) return null;
        return createNotifications(tx, owner.id, [dailyBriefNotification(owner.today, owner.locale, brief.data.headline)], now);
      });
      if (created === 1) result.sent += 1;
      else if (created === 0) result.muted += 1;
    } catch (error) {
      result.failed += 1;
      log.error("daily brief failed", { owner_id: owner.id, date: owner.today, ...errorFields(error) });
    }
  }
  return result;
}
