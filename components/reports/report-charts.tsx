"use client";
// The Reports page's charts (components/charts/day-chart.tsx: a figure named by its caption and
// a summary, every figure exact in a table under it): profit and loss as stacked bars per period
// (the in rows above zero, the out rows below), and the cash line over the days with the
// measured ones (a snapshot that day) marked and the derived ones drawn between.
import { Bar, BarChart, Line, LineChart, ReferenceLine } from "recharts";
import { formatMinor } from "@/lib/money";
import { DayChartFigure, dayChartAxes } from "../charts/day-chart";
import { formatCalendarDay } from "../overview/figures";
import { usePreferences } from "../panel/preferences";

export type TChartRow = { label: string; direction: "in" | "out"; amounts: number[] };

/** Stacked bars: each row a band of its side's colour, shaded so neighbours differ. */
export function ProfitAndLossChart(props: {
  periods: ReadonlyArray<{ start: string; end: string }>;
  rows: readonly TChartRow[];
  totals: { in: number[]; out: number[]; net: number[] };
  currency: string;
  caption: string;
}) {
  const { locale } = usePreferences();
  const money = (minor: number) => formatMinor(minor, props.currency, locale);
  const data = props.periods.map((period, i) => ({
    date: period.start,
    in_minor: props.totals.in[i]!,
    out_minor: props.totals.out[i]!,
    net_minor: props.totals.net[i]!,
    ...Object.fromEntries(props.rows.map((row, r) => [`r${r}`, row.direction === "in" ? row.amounts[i]! : -row.amounts[i]!])),
  }));
  const best = data.reduce<(typeof data)[number] | null>(
    (top, d) => (top === null || d.net_minor > top.net_minor ? d : top),
    null,
  );
  const summary = best
    ? `${data.length} periods; net ${money(data.reduce((s, d) => s + d.net_minor, 0))} in all; best ${formatCalendarDay(best.date, locale)} with ${money(best.net_minor)}.`
    : "No periods.";
  // Each row's place on its side, for its shade.
  const shades = props.rows.map((row, r) => props.rows.slice(0, r).filter((other) => other.direction === row.direction).length);
  return (
    <DayChartFigure
      kind="Bar chart"
      caption={props.caption}
      summary={summary}
      height={220}
      testId="pnl-chart"
      tableTitle="Every period's totals"
      tableTestId="pnl-chart-table"
      rows={data}
      locale={locale}
      columns={[
        { header: "In", cell: (d) => money(d.in_minor) },
        { header: "Out", cell: (d) => money(d.out_minor) },
        { header: "Net", cell: (d) => money(d.net_minor) },
      ]}
      chart={
        <BarChart data={data} stackOffset="sign" margin={{ top: 4, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          {dayChartAxes({ locale, currency: props.currency, size: "regular", tooltipCursor: "var(--chart-cursor)" })}
          <ReferenceLine y={0} stroke="var(--chart-zero)" />
          {props.rows.map((row, r) => (
            <Bar
              key={r}
              dataKey={`r${r}`}
              name={`${row.label} (${row.direction})`}
              stackId="pnl"
              fill={row.direction === "in" ? "var(--chart-in)" : "var(--chart-out)"}
              fillOpacity={1 - (shades[r]! % 4) * 0.2}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      }
    />
  );
}

export function CashHistoryChart(props: {
  days: ReadonlyArray<{ date: string; cash_minor?: number; source: "snapshot" | "derived" | "none" }>;
  currency: string;
  caption: string;
}) {
  const { locale } = usePreferences();
  const money = (minor: number) => formatMinor(minor, props.currency, locale);
  const data = props.days.map((d) => ({
    date: d.date,
    cash: d.cash_minor ?? null,
    measured: d.source === "snapshot" ? (d.cash_minor ?? null) : null,
    source: d.source,
  }));
  const known = data.filter((d) => d.cash !== null);
  const measured = data.filter((d) => d.source === "snapshot").length;
  const last = known.at(-1);
  const summary = last
    ? `${measured} measured days of ${data.length}; ${money(last.cash!)} on ${formatCalendarDay(last.date, locale)}.`
    : "No cash recorded in this range.";
  return (
    <DayChartFigure
      kind="Line chart"
      caption={props.caption}
      summary={summary}
      height={200}
      testId="cash-history-chart"
      tableTitle="Every day's cash"
      tableTestId="cash-history-table"
      rows={data}
      locale={locale}
      columns={[
        { header: "Cash", cell: (d) => (d.cash === null ? "—" : money(d.cash)) },
        { header: "Source", cell: (d) => (d.source === "snapshot" ? "measured" : d.source === "derived" ? "derived" : "none") },
      ]}
      chart={
        <LineChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          {dayChartAxes({ locale, currency: props.currency, size: "regular", autoDomain: true })}
          <Line
            dataKey="cash"
            name="Cash"
            stroke="var(--chart-committed)"
            dot={false}
            connectNulls={false}
            isAnimationActive={false}
          />
          <Line
            dataKey="measured"
            name="Measured"
            stroke="none"
            dot={{ r: 3, fill: "var(--chart-committed)" }}
            legendType="circle"
            isAnimationActive={false}
          />
        </LineChart>
      }
    />
  );
}
