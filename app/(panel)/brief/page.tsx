import type { Metadata } from "next";
import Link from "next/link";
import { BriefDayNav } from "@/components/brief/brief-day-nav";
import { briefDayOf, briefHref } from "@/components/brief/brief-days";
import { BriefView } from "@/components/brief/brief-view";
import { formatCalendarDay } from "@/components/overview/figures";
import { FiguresRefused } from "@/components/panel/figures-refused";
import { PageHeader } from "@/components/panel/page-header";
import { FormAlert } from "@/components/ui/field";
import { EmptyState } from "@/components/ui/empty-state";
import { CalendarIcon } from "@/components/ui/icons";
import { timeZoneOrUtc, todayIn } from "@/lib/days";
import { getOwnerCaller, getOwnerMe } from "@/server/trpc/server-caller";
import { loadFigures } from "../figures-refused";

export const metadata: Metadata = { title: "Daily brief" };
export const dynamic = "force-dynamic";

type TSearchParams = Record<string, string | string[] | undefined>;

export default async function BriefPage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  const [caller, me, params] = await Promise.all([getOwnerCaller(), getOwnerMe(), searchParams]);
  // The owner's days, as the API counts them: today and the day their books began, in their timezone.
  const timezone = timeZoneOrUtc(me.timezone);
  const today = todayIn(timezone);
  const firstDay = todayIn(timezone, new Date(me.created_at));
  const { date, notice } = briefDayOf(params.date, today, timezone);
  const weekday = formatCalendarDay(date, me.locale);
  const beforeBooks = date < firstDay;
  const brief = beforeBooks ? null : await loadFigures(() => caller.readModels.dailyBrief({ date }));

  return (
    <div className="page">
      <PageHeader
        title="Daily brief"
        lead={
          date === today
            ? `Today, ${weekday}: what moved, what is due and what waits.`
            : `${weekday}: the day as it stood when it ended.`
        }
        actions={<BriefDayNav date={date} today={today} />}
      />
      {notice ? (
        <div className="page-notice">
          <FormAlert message={notice} />
        </div>
      ) : null}
      {brief === null ? (
        <section className="card" aria-labelledby="brief-none-heading">
          <h2 id="brief-none-heading" className="visually-hidden">
            No brief for this day
          </h2>
          <EmptyState icon={<CalendarIcon />} title="Your books had not started yet">
            Briefs begin on {formatCalendarDay(firstDay, me.locale)}, the day you joined.{" "}
            <Link href={briefHref(firstDay, today)}>See that day</Link> or <Link href="/brief">today&apos;s brief</Link>.
          </EmptyState>
        </section>
      ) : brief.refused ? (
        <FiguresRefused refused={brief.refused} headingId="brief-refused-heading" />
      ) : (
        <BriefView brief={brief.result.data} isToday={date === today} coverageOverall={brief.result.coverage.overall} />
      )}
    </div>
  );
}
