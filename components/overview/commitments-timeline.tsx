"use client";
// What is already committed in the coming days: planned expenses, subscription charges and
// campaigns' ad budgets, day by day, as the API lists them (overdue planned items are dated today
// and marked so; a campaign's budget shows on its first day with its daily budget and the days it
// covers). Each amount in the owner's base currency, with the original beside it when it differs.
import Link from "next/link";
import { formatMinor } from "@/lib/money";
import { usePreferences } from "../panel/preferences";
import { EmptyState } from "../ui/empty-state";
import { RepeatIcon } from "../ui/icons";
import {
  commitmentKindWords,
  commitmentsCurrencies,
  formatCalendarDay,
  shareWords,
  timelineDays,
  type TCommitmentItem,
} from "./figures";

/** The card of the committed costs of the next 30 days: their total (in `currency`) and their timeline (in the base). */
export function CommittedCostsCard(props: {
  items: readonly TCommitmentItem[];
  totalMinor: number;
  baseCurrency: string;
  currency: string;
}) {
  const { locale } = usePreferences();
  return (
    <section className="card" aria-labelledby="upcoming-heading">
      <div className="card-header">
        <div>
          <h2 id="upcoming-heading">Committed costs, next 30 days</h2>
          <p>{commitmentsCurrencies(props.baseCurrency, props.currency)}</p>
        </div>
        <span className="count count-strong" data-testid="upcoming-total">
          {formatMinor(props.totalMinor, props.currency, locale)}
        </span>
      </div>
      {props.items.length === 0 ? (
        <EmptyState icon={<RepeatIcon />} title="Nothing committed">
          No planned expenses, subscription charges or ad budgets in the next 30 days. Add them under{" "}
          <Link href="/subscriptions">Subscriptions</Link> or <Link href="/events">Events</Link>.
        </EmptyState>
      ) : (
        <div className="card-body">
          <CommitmentsTimeline items={props.items} baseCurrency={props.baseCurrency} label="Committed costs by day" />
        </div>
      )}
    </section>
  );
}

export function CommitmentsTimeline(props: { items: readonly TCommitmentItem[]; baseCurrency: string; label: string }) {
  const { locale } = usePreferences();
  const days = timelineDays(props.items);
  return (
    <ol className="timeline" aria-label={props.label} data-testid="commitments-timeline">
      {days.map((day) => (
        <li key={`${day.date}-${day.overdue}`} className="timeline-day" data-overdue={day.overdue || undefined}>
          <div className="timeline-date">
            <time dateTime={day.date}>{formatCalendarDay(day.date, locale)}</time>
            {day.overdue ? <span className="pill pill-danger">Overdue</span> : null}
          </div>
          <ul className="timeline-items">
            {day.items.map((item) => {
              const share = shareWords(item.share_bps);
              return (
                <li key={`${item.kind}-${item.id}-${item.date}`} className="timeline-item" data-testid="commitment">
                  <span className="timeline-name">
                    <span className="cell-strong">{item.name}</span>
                    <span className="cell-sub">
                      {commitmentKindWords(item, locale)}
                      {share ? ` · ${share}` : ""}
                    </span>
                  </span>
                  <span className="timeline-amount">
                    <span className="mono" data-testid="commitment-amount">
                      {item.direction === "out" ? "−" : "+"}
                      {formatMinor(item.base_amount_minor, props.baseCurrency, locale)}
                    </span>
                    {item.currency !== props.baseCurrency ? (
                      <span className="cell-sub mono">{formatMinor(item.amount_minor, item.currency, locale)}</span>
                    ) : null}
                  </span>
                </li>
              );
            })}
          </ul>
        </li>
      ))}
    </ol>
  );
}
