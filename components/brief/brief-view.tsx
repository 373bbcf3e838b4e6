"use client";
// One day's brief (GET /v1/daily-brief): the day in one line, its money in and out with the
// largest movements, cash and runway at the day's end, what falls due in the week after, the
// day's alerts, what waited for the owner and what agents did, and where the data was thin.
// Every figure is the API's; this only lays them out, each section under its own heading.
import Link from "next/link";
import { formatMinor } from "@/lib/money";
import type { TDailyBrief } from "@/server/read-models/daily-brief.schema";
import { SeverityPill } from "../integrations/alerts-card";
import { CommitmentsTimeline } from "../overview/commitments-timeline";
import { CoveragePill } from "../overview/coverage-pill";
import { FigureList } from "../overview/figure-list";
import { formatCalendarDay, runwayWords, type TCoverageStatus } from "../overview/figures";
import { DateTime, useDateFormat, usePreferences } from "../panel/preferences";
import { CardSection } from "../ui/card";
import { DataTable } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { AlertIcon, CalendarIcon, CheckIcon, ListIcon, PlugIcon, RepeatIcon } from "../ui/icons";

const DOMAIN_NAMES: Record<TDailyBrief["coverage_warnings"][number]["domain"], string> = {
  cash: "Cash",
  revenue: "Revenue",
  ads: "Ads",
  billing: "Billing",
  expenses: "Expenses",
};

const TYPE_NAMES: Record<string, string> = {
  revenue: "Revenue",
  refund: "Refund",
  expense: "Expense",
  recurring_expense: "Recurring expense",
  ad_spend: "Ad spend",
  planned_expense: "Planned expense",
};

/** "+€12.00" / "−€3.00" / "€0.00": a change, its sign always shown. */
function signed(minor: number, currency: string, locale: string): string {
  if (minor === 0) return formatMinor(0, currency, locale);
  return `${minor > 0 ? "+" : "−"}${formatMinor(Math.abs(minor), currency, locale)}`;
}

export function BriefView(props: {
  brief: TDailyBrief;
  isToday: boolean;
  /** The envelope's overall coverage: missing when no source at all had data by the day's end. */
  coverageOverall: TCoverageStatus;
}) {
  const { brief, isToday } = props;
  const { locale } = usePreferences();
  const format = useDateFormat();
  const currency = brief.currency;
  const money = (minor: number | null) => formatMinor(minor, currency, locale);
  const count = (n: number) => new Intl.NumberFormat(locale).format(n);
  const runway = runwayWords(brief.runway, locale);
  const day = formatCalendarDay(brief.date, locale);
  const change = brief.change_vs_previous_day;

  return (
    <div className="stack stack-fill">
      <section className="card brief-headline-card" aria-labelledby="brief-line-heading">
        <div className="card-body">
          <h2 id="brief-line-heading" className="visually-hidden">
            The day in one line
          </h2>
          <p className="brief-headline" data-testid="brief-headline">
            {brief.headline}
          </p>
          <p className="muted brief-as-of">
            {isToday
              ? `So far today, as of ${format.dateTime(brief.generated_at)} (${brief.timezone}).`
              : `As known at the end of ${day} (${brief.timezone}); entries made later are not counted.`}
          </p>
        </div>
      </section>

      <CardSection headingId="brief-day-heading" title="Money in and out" description={`Recorded for ${day}, in ${currency}.`}>
        <FigureList
          figures={[
            { id: "day-in", label: "In", value: money(brief.day.in_minor) },
            { id: "day-out", label: "Out", value: money(brief.day.out_minor) },
            {
              id: "day-net",
              label: "Net",
              value: money(brief.day.net_minor),
              detail: `${signed(change.net_minor, currency, locale)} against the day before`,
              tone: brief.day.net_minor < 0 ? "danger" : undefined,
            },
            {
              id: "day-events",
              label: "Entries",
              value: count(brief.day.events),
              detail: brief.day.events === 1 ? "One movement of money." : "Movements of money that day.",
            },
          ]}
        />
        {brief.day.events === 0 ? (
          <EmptyState icon={<ListIcon />} title="Nothing recorded on this day">
            <Link href="/events">Record revenue and expenses</Link>, <Link href="/imports">import a bank statement</Link> or{" "}
            <Link href="/integrations">connect an integration</Link>; their money shows here on the day it moved.
          </EmptyState>
        ) : (
          <div className="brief-subsection">
            <h3 id="brief-largest-heading">Largest movements</h3>
            <ul className="timeline-items" aria-labelledby="brief-largest-heading" data-testid="brief-largest">
              {brief.day.largest.map((event) => (
                <li key={event.id} className="timeline-item" data-testid="brief-event">
                  <span className="timeline-name">
                    <span className="cell-strong">{event.description ?? TYPE_NAMES[event.type] ?? event.type}</span>
                    <span className="cell-sub">{TYPE_NAMES[event.type] ?? event.type}</span>
                  </span>
                  <span className="timeline-amount">
                    <span className="mono">{formatMinor(event.base_amount_minor, brief.base_currency, locale)}</span>
                    {event.currency !== brief.base_currency ? (
                      <span className="cell-sub mono">{formatMinor(event.amount_minor, event.currency, locale)}</span>
                    ) : null}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </CardSection>

      <CardSection
        headingId="brief-cash-heading"
        title="Cash and runway"
        description={`At the end of ${day}, all businesses and personal.`}
      >
        <FigureList
          figures={[
            {
              id: "cash",
              label: "Cash",
              value: money(brief.cash?.amount_minor ?? null),
              detail:
                brief.cash === null
                  ? "No cash balance recorded by then."
                  : change.cash_minor === null
                    ? `As of ${format.dateTime(brief.cash.as_of)}.`
                    : `${signed(change.cash_minor, currency, locale)} against the day before.`,
              tone: brief.cash === null ? "muted" : undefined,
            },
            { id: "runway", label: "Runway", value: runway.headline, detail: runway.detail },
            {
              id: "month",
              label: "Net, month to date",
              value: money(brief.month_to_date.net_minor),
              detail: `${money(brief.month_to_date.in_minor)} in, ${money(brief.month_to_date.out_minor)} out since ${formatCalendarDay(brief.month_to_date.from, locale)}`,
            },
          ]}
        />
        {brief.cash === null ? (
          <EmptyState icon={<CalendarIcon />} title="No cash balance yet">
            <Link href="/cash">Record a cash balance</Link> to see cash and runway on every day from then on.
          </EmptyState>
        ) : null}
      </CardSection>

      <CardSection
        headingId="brief-upcoming-heading"
        title="Due in the next 7 days"
        description="Planned payments and subscription charges from this day on."
      >
        {brief.upcoming_7_days.length === 0 ? (
          <EmptyState icon={<RepeatIcon />} title="Nothing due that week">
            No planned payments or subscription charges in the 7 days from {day}. Add them under{" "}
            <Link href="/subscriptions">Subscriptions</Link> or <Link href="/events">Events</Link>.
          </EmptyState>
        ) : (
          <div className="card-body">
            <CommitmentsTimeline items={brief.upcoming_7_days} baseCurrency={brief.base_currency} label="Due by day" />
          </div>
        )}
      </CardSection>

      <CardSection
        headingId="brief-alerts-heading"
        title="Alerts that day"
        description="Signals raised during the day, newest first."
      >
        {brief.new_alerts.length === 0 ? (
          <EmptyState icon={<AlertIcon />} title="No alerts">
            Nothing was signalled that day. Failed payouts, disputes, paused campaigns and similar signals from your{" "}
            <Link href="/integrations">integrations</Link> appear here.
          </EmptyState>
        ) : (
          <DataTable
            compact
            label="Alerts that day"
            items={brief.new_alerts}
            columns={[
              { header: "Severity", cell: (alert) => <SeverityPill severity={alert.severity} /> },
              { header: "Message", cell: (alert) => <span className="cell-strong">{alert.message}</span> },
              {
                header: "When",
                headerClassName: "cell-right",
                cellClassName: "cell-date cell-right",
                cell: (alert) => <DateTime iso={alert.created_at} withTime />,
              },
            ]}
          />
        )}
      </CardSection>

      <CardSection
        headingId="brief-waiting-heading"
        title="Waiting for you and agents"
        description="Approvals open at the end of the day, and what agents did during it."
      >
        <FigureList
          figures={[
            {
              id: "approvals",
              label: "Approvals waiting",
              value: <Link href="/approvals">{count(brief.pending_approvals.count)}</Link>,
              detail:
                brief.pending_approvals.oldest_created_at === null
                  ? "Nothing waited for you."
                  : `The oldest since ${format.dateTime(brief.pending_approvals.oldest_created_at)}.`,
            },
            { id: "auto-approved", label: "Agent writes within limits", value: count(brief.agent_activity.auto_approved) },
            { id: "held", label: "Agent writes held for you", value: count(brief.agent_activity.held) },
            { id: "decisions", label: "Agent decisions", value: count(brief.agent_activity.decisions) },
          ]}
        />
      </CardSection>

      <CardSection
        headingId="brief-coverage-heading"
        title="Data coverage"
        description="Where the figures above rest on thin or old data."
      >
        {brief.coverage_warnings.length === 0 && props.coverageOverall === "missing" ? (
          <EmptyState icon={<PlugIcon />} title="No data sources yet">
            <Link href="/integrations">Connect an integration</Link>, <Link href="/imports">import a bank statement</Link> or{" "}
            <Link href="/cash">record a cash balance</Link>; how fresh each source is shows here.
          </EmptyState>
        ) : brief.coverage_warnings.length === 0 ? (
          <EmptyState icon={<CheckIcon />} title="No gaps">
            Every source you have was up to date at the end of the day. <Link href="/integrations">Connect integrations</Link> to
            cover more.
          </EmptyState>
        ) : (
          <ul className="brief-warnings card-body" data-testid="brief-coverage">
            {brief.coverage_warnings.map((warning) => (
              <li key={warning.domain}>
                <span className="cell-strong">{DOMAIN_NAMES[warning.domain]}</span>
                <CoveragePill status={warning.status} subject={`${DOMAIN_NAMES[warning.domain]} coverage`} />
              </li>
            ))}
          </ul>
        )}
      </CardSection>
    </div>
  );
}
