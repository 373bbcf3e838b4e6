"use client";
// Both committed balance lines of a simulation, day by day: as the books stand and with the
// changes. They differ by dash and name, not only colour; every day's exact figures (and the
// difference) are in a table under the chart.
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMinor } from "@/lib/money";
import { formatAxisMinor, formatCalendarDay } from "../overview/figures";
import { usePreferences } from "../panel/preferences";
import { BASELINE_LABEL, SIMULATED_LABEL, signedMinor, type TSimulationDay } from "./simulation-words";

const BASELINE_COLOUR = "var(--chart-committed)";
const SIMULATED_COLOUR = "var(--chart-run-rate)";

export function SimulationChart(props: { days: readonly TSimulationDay[]; currency: string; caption: string }) {
  const { locale } = usePreferences();
  const money = (minor: number | null) => formatMinor(minor, props.currency, locale);
  const points = props.days.map((day) => ({
    date: day.date,
    baseline: day.baseline_balance_minor,
    simulated: day.simulated_balance_minor,
  }));
  const first = points[0];
  const last = points.at(-1);
  const summary =
    first && last
      ? `From ${formatCalendarDay(first.date, locale)} to ${formatCalendarDay(last.date, locale)}: ` +
        `${BASELINE_LABEL.toLowerCase()} ${money(first.baseline)} to ${money(last.baseline)}, ` +
        `${SIMULATED_LABEL.toLowerCase()} ${money(first.simulated)} to ${money(last.simulated)}.`
      : "No days.";

  return (
    <figure className="chart-figure" data-testid="simulation-chart">
      <div className="chart" role="img" aria-label={`Line chart. ${props.caption}. ${summary}`}>
        <ResponsiveContainer width="100%" height={260}>
          <LineChart data={points} margin={{ top: 8, right: 16, bottom: 4, left: 4 }} accessibilityLayer={false}>
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
              dataKey="baseline"
              name={BASELINE_LABEL}
              stroke={BASELINE_COLOUR}
              strokeWidth={2.5}
              dot={false}
              isAnimationActive={false}
              connectNulls={false}
            />
            <Line
              type="stepAfter"
              dataKey="simulated"
              name={SIMULATED_LABEL}
              stroke={SIMULATED_COLOUR}
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
          <table className="table table-compact" data-testid="simulation-table">
            <caption className="visually-hidden">{props.caption}, exact figures</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="cell-right">
                  {BASELINE_LABEL}
                </th>
                <th scope="col" className="cell-right">
                  {SIMULATED_LABEL}
                </th>
                <th scope="col" className="cell-right">
                  Difference
                </th>
              </tr>
            </thead>
            <tbody>
              {props.days.map((day) => (
                <tr key={day.date}>
                  <th scope="row">
                    <time dateTime={day.date}>{formatCalendarDay(day.date, locale)}</time>
                  </th>
                  <td className="cell-right mono">{money(day.baseline_balance_minor)}</td>
                  <td className="cell-right mono">{money(day.simulated_balance_minor)}</td>
                  <td className="cell-right mono">
                    {signedMinor(
                      day.baseline_balance_minor === null || day.simulated_balance_minor === null
                        ? null
                        : day.simulated_balance_minor - day.baseline_balance_minor,
                      props.currency,
                      locale,
                    )}
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
