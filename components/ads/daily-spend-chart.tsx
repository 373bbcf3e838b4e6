"use client";
// One ad account's spend, day by day over the period (every day, zeros included, as the API
// lists them): small bars for the eye, and every day's exact figure in a table under it
// (components/charts/day-chart.tsx).
import { Bar, BarChart } from "recharts";
import { formatMinor } from "@/lib/money";
import { DayChartFigure, dayChartAxes } from "../charts/day-chart";
import { formatCalendarDay } from "../overview/figures";
import { usePreferences } from "../panel/preferences";

// Spend is money out.
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
    <DayChartFigure
      kind="Bar chart"
      caption={props.caption}
      summary={summary}
      height={140}
      testId={props.testId}
      tableTitle="Every day's spend"
      tableTestId="daily-table"
      rows={props.days}
      locale={locale}
      columns={[{ header: "Spend", cell: (day) => money(day.spend_minor), testId: "day-spend" }]}
      chart={
        <BarChart data={[...props.days]} margin={{ top: 4, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          {dayChartAxes({ locale, currency: props.currency, size: "small", tooltipCursor: "var(--chart-cursor)" })}
          <Bar dataKey="spend_minor" name="Spend" fill={SPEND_COLOUR} radius={[2, 2, 0, 0]} isAnimationActive={false} />
        </BarChart>
      }
    />
  );
}
