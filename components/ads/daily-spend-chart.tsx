"use client";
// One ad account's spend, day by day over the period (every day, zeros included, as the API
// lists them): small bars for the eye, and every day's exact figure in a table under it, which
// is what a screen reader and a careful reader use.
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMinor } from "@/lib/money";
import { formatAxisMinor, formatCalendarDay } from "../overview/figures";
import { usePreferences } from "../panel/preferences";

// A CSS variable (app/globals.css), so the chart follows light and dark mode: spend is money out.
const SPEND_COLOUR = "var(--chart-out)";

export function DailySpendChart(props: {
  days: ReadonlyArray<{ date: string; spend_minor: number }>;
  currency: string;
  /** What the chart is of ("Daily spend of Social Ads · act_1"). */
  caption: string;
  testId?: string;
}) {
  const { locale } = usePreferences();
  const money = (minor: number) => formatMinor(minor, props.currency, locale);
  const first = props.days[0];
  const last = props.days.at(-1);
  const highest = props.days.reduce<{ date: string; spend_minor: number } | null>(
    (top, day) => (top === null || day.spend_minor > top.spend_minor ? day : top),
    null,
  );
  const withSpend = props.days.filter((day) => day.spend_minor !== 0).length;
  const summary =
    first && last && highest
      ? `${formatCalendarDay(first.date, locale)} to ${formatCalendarDay(last.date, locale)}: spend on ${withSpend} of ` +
        `${props.days.length} days; highest ${money(highest.spend_minor)} on ${formatCalendarDay(highest.date, locale)}.`
      : "No days.";

  return (
    <figure className="chart-figure" data-testid={props.testId}>
      <div className="chart" role="img" aria-label={`Bar chart. ${props.caption}. ${summary}`}>
        <ResponsiveContainer width="100%" height={140}>
          <BarChart data={[...props.days]} margin={{ top: 4, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
            <XAxis
              dataKey="date"
              tickFormatter={(day: string) => formatCalendarDay(day, locale, "short")}
              tick={{ fontSize: 11, fill: "var(--text-muted)" }}
              stroke="var(--chart-axis)"
              minTickGap={20}
            />
            <YAxis
              width={64}
              tickFormatter={(value: number) => formatAxisMinor(value, props.currency, locale)}
              tick={{ fontSize: 11, fill: "var(--text-muted)" }}
              stroke="var(--chart-axis)"
            />
            <Tooltip
              formatter={(value) => money(Number(value))}
              labelFormatter={(day) => formatCalendarDay(String(day), locale)}
              cursor={{ fill: "var(--chart-cursor)" }}
            />
            <Bar dataKey="spend_minor" name="Spend" fill={SPEND_COLOUR} radius={[2, 2, 0, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="visually-hidden">{props.caption}</figcaption>
      <details className="disclosure chart-table">
        <summary>Every day&apos;s spend</summary>
        <div className="table-scroll" role="region" aria-label={`${props.caption}, exact figures`} tabIndex={0}>
          <table className="table table-compact" data-testid="daily-table">
            <caption className="visually-hidden">{props.caption}, exact figures</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="cell-right">
                  Spend
                </th>
              </tr>
            </thead>
            <tbody>
              {props.days.map((day) => (
                <tr key={day.date} data-date={day.date}>
                  <th scope="row">
                    <time dateTime={day.date}>{formatCalendarDay(day.date, locale)}</time>
                  </th>
                  <td className="cell-right mono" data-testid="day-spend">
                    {money(day.spend_minor)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
