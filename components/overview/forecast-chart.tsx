"use client";
// The forecast's balance, day by day: the committed line (cash less what is reserved and
// committed) and the line with the last 90 days' run rate on top. The lines differ by dash and
// name, not only colour; the exact figures of every day are in a table under the chart.
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMinor } from "@/lib/money";
import { usePreferences } from "../panel/preferences";
import { formatAxisMinor, formatCalendarDay, type TForecastPoint } from "./figures";

// CSS variables (app/globals.css), so the chart follows light and dark mode.
const COMMITTED_COLOUR = "var(--chart-committed)";
const RUN_RATE_COLOUR = "var(--chart-run-rate)";

export const COMMITTED_LABEL = "Committed";
export const RUN_RATE_LABEL = "With run rate";

export function ForecastChart(props: { points: readonly TForecastPoint[]; currency: string; caption: string }) {
  const { locale } = usePreferences();
  const money = (minor: number | null) => formatMinor(minor, props.currency, locale);
  const first = props.points[0];
  const last = props.points.at(-1);
  const summary =
    first && last
      ? `From ${formatCalendarDay(first.date, locale)} to ${formatCalendarDay(last.date, locale)}: ` +
        `${COMMITTED_LABEL.toLowerCase()} balance ${money(first.committed)} to ${money(last.committed)}, ` +
        `${RUN_RATE_LABEL.toLowerCase()} ${money(first.runRate)} to ${money(last.runRate)}.`
      : "No days.";

  return (
    <figure className="chart-figure" data-testid="forecast-chart">
      <div className="chart" role="img" aria-label={`Line chart. ${props.caption}. ${summary}`}>
        <ResponsiveContainer width="100%" height={260}>
          <LineChart data={[...props.points]} margin={{ top: 8, right: 16, bottom: 4, left: 4 }} accessibilityLayer={false}>
            <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
            <XAxis
              dataKey="date"
              tickFormatter={(day: string) => formatCalendarDay(day, locale, "short")}
              tick={{ fontSize: 12, fill: "var(--text-muted)" }}
              stroke="var(--chart-axis)"
              minTickGap={24}
            />
            <YAxis
              width={72}
              domain={["auto", "auto"]}
              tickFormatter={(value: number) => formatAxisMinor(value, props.currency, locale)}
              tick={{ fontSize: 12, fill: "var(--text-muted)" }}
              stroke="var(--chart-axis)"
            />
            <ReferenceLine y={0} stroke="var(--chart-zero)" />
            <Tooltip
              formatter={(value) => money(value === null || value === undefined ? null : Number(value))}
              labelFormatter={(day) => formatCalendarDay(String(day), locale)}
            />
            <Legend wrapperStyle={{ fontSize: 13 }} />
            <Line
              type="stepAfter"
              dataKey="committed"
              name={COMMITTED_LABEL}
              stroke={COMMITTED_COLOUR}
              strokeWidth={2.5}
              dot={false}
              isAnimationActive={false}
              connectNulls={false}
            />
            <Line
              type="linear"
              dataKey="runRate"
              name={RUN_RATE_LABEL}
              stroke={RUN_RATE_COLOUR}
              strokeWidth={2}
              strokeDasharray="6 4"
              dot={false}
              isAnimationActive={false}
              connectNulls={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="visually-hidden">{props.caption}</figcaption>
      <details className="disclosure chart-table">
        <summary>Every day&apos;s balance</summary>
        <div className="table-scroll" role="region" aria-label={`${props.caption}, exact figures`} tabIndex={0}>
          <table className="table table-compact" data-testid="forecast-table">
            <caption className="visually-hidden">{props.caption}, exact figures</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="cell-right">
                  {COMMITTED_LABEL}
                </th>
                <th scope="col" className="cell-right">
                  {RUN_RATE_LABEL}
                </th>
              </tr>
            </thead>
            <tbody>
              {props.points.map((point) => (
                <tr key={point.date}>
                  <th scope="row">
                    <time dateTime={point.date}>{formatCalendarDay(point.date, locale)}</time>
                  </th>
                  <td className="cell-right mono">{money(point.committed)}</td>
                  <td className="cell-right mono">{money(point.runRate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
