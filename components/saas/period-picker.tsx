"use client";
// The SaaS tab's period: three presets as links (`?period=`) and a from/to form of one's own
// (a plain GET form, so it works before the page's scripts load and the address can be shared).
// The display currency rides along in both.
import Link from "next/link";
import { usePreferences } from "../panel/preferences";
import { formatCalendarDay } from "../overview/figures";
import { SAAS_PERIODS, type TSaasPeriod } from "./period";

export function PeriodPicker(props: {
  period: TSaasPeriod;
  /** The days shown (the API's from and to). */
  shown: { from: string; to: string };
  /** Other query parameters to keep (the display currency). */
  keep: Record<string, string>;
}) {
  const { locale } = usePreferences();
  const current = props.period.kind === "preset" ? props.period.id : null;
  return (
    <section aria-labelledby="period-heading" className="card">
      <div className="card-header card-header-wrap">
        <div>
          <h2 id="period-heading">Period</h2>
          <p data-testid="period-shown">
            {formatCalendarDay(props.shown.from, locale)} to {formatCalendarDay(props.shown.to, locale)}
          </p>
        </div>
        <nav className="horizon" aria-label="Period presets">
          {SAAS_PERIODS.map((preset) => (
            <Link
              key={preset.id}
              href={`?${new URLSearchParams({ ...props.keep, period: preset.id }).toString()}`}
              aria-current={preset.id === current ? "true" : undefined}
            >
              {/* "Last" is heard, not shown: three presets fit a phone's width on one line. */}
              <span className="visually-hidden">Last </span>
              {preset.short}
            </Link>
          ))}
        </nav>
      </div>
      <div className="card-body">
        {/* Keyed by the days shown, so the fields follow a preset picked after them. */}
        <form
          key={`${props.shown.from}:${props.shown.to}`}
          method="get"
          className="currency-form"
          aria-label="Period of your own"
        >
          {Object.entries(props.keep).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {/* Each label stays with its field when the row wraps on a phone. */}
          <span className="currency-form">
            <label className="label" htmlFor="saas-from">
              From
            </label>
            <input
              id="saas-from"
              className="input"
              type="date"
              name="from"
              required
              defaultValue={props.shown.from}
              style={{ width: "auto" }}
            />
          </span>
          <span className="currency-form">
            <label className="label" htmlFor="saas-to">
              To
            </label>
            <input
              id="saas-to"
              className="input"
              type="date"
              name="to"
              required
              defaultValue={props.shown.to}
              style={{ width: "auto" }}
            />
          </span>
          <button type="submit" className="button button-secondary button-small">
            Show
          </button>
        </form>
      </div>
    </section>
  );
}
