"use client";
// What every day-by-day money chart of the panel shares: the figure with a text alternative
// (the chart is an image named by its caption and a one-line summary), the axes and tooltip in
// the owner's locale and currency, and every day's exact figures in a table under it, which is
// what a screen reader and a careful reader use. Colours are CSS variables (app/globals.css), so
// the charts follow light and dark mode.
import type { ReactElement, ReactNode } from "react";
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMinor } from "@/lib/money";
import { formatAxisMinor, formatCalendarDay } from "../overview/figures";

export type TDayColumn<T> = { header: string; cell: (row: T) => ReactNode; testId?: string };

export function DayChartFigure<T extends { date: string }>(props: {
  kind: "Line chart" | "Bar chart";
  caption: string;
  /** One sentence of what the chart shows, for the image's name. */
  summary: string;
  height: number;
  testId?: string;
  /** The recharts chart (inside a ResponsiveContainer). */
  chart: ReactElement;
  /** The disclosure's title ("Every day's balance"). */
  tableTitle: string;
  tableTestId: string;
  rows: readonly T[];
  columns: ReadonlyArray<TDayColumn<T>>;
  locale: string;
}) {
  return (
    <figure className="chart-figure" data-testid={props.testId}>
      <div className="chart" role="img" aria-label={`${props.kind}. ${props.caption}. ${props.summary}`}>
        <ResponsiveContainer width="100%" height={props.height}>
          {props.chart}
        </ResponsiveContainer>
      </div>
      <figcaption className="visually-hidden">{props.caption}</figcaption>
      <details className="disclosure chart-table">
        <summary>{props.tableTitle}</summary>
        <div className="table-scroll" role="region" aria-label={`${props.caption}, exact figures`} tabIndex={0}>
          <table className="table table-compact" data-testid={props.tableTestId}>
            <caption className="visually-hidden">{props.caption}, exact figures</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {props.columns.map((column) => (
                  <th key={column.header} scope="col" className="cell-right">
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr key={row.date} data-date={row.date}>
                  <th scope="row">
                    <time dateTime={row.date}>{formatCalendarDay(row.date, props.locale)}</time>
                  </th>
                  {props.columns.map((column) => (
                    <td key={column.header} className="cell-right mono" data-testid={column.testId}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/**
 * The grid, the day axis, the money axis and the tooltip, as children of a recharts chart (an
 * array: recharts reads its children's types, so they cannot hide in a component of ours).
 */
export function dayChartAxes(options: {
  locale: string;
  currency: string;
  size: "regular" | "small";
  /** The y axis starts where the figures do (a balance) rather than at zero (spend). */
  autoDomain?: boolean;
  tooltipCursor?: string;
}): ReactElement[] {
  const { locale, currency } = options;
  const small = options.size === "small";
  const tick = { fontSize: small ? 11 : 12, fill: "var(--text-muted)" };
  return [
    <CartesianGrid key="grid" stroke="var(--chart-grid)" vertical={false} />,
    <XAxis
      key="x"
      dataKey="date"
      tickFormatter={(day: string) => formatCalendarDay(day, locale, "short")}
      tick={tick}
      stroke="var(--chart-axis)"
      minTickGap={small ? 20 : 24}
    />,
    <YAxis
      key="y"
      width={small ? 64 : 72}
      {...(options.autoDomain ? { domain: ["auto", "auto"] } : {})}
      tickFormatter={(value: number) => formatAxisMinor(value, currency, locale)}
      tick={tick}
      stroke="var(--chart-axis)"
    />,
    <Tooltip
      key="tooltip"
      formatter={(value) => formatMinor(value === null || value === undefined ? null : Number(value), currency, locale)}
      labelFormatter={(day) => formatCalendarDay(String(day), locale)}
      {...(options.tooltipCursor ? { cursor: { fill: options.tooltipCursor } } : {})}
    />,
  ];
}

export type TBalanceSeries = {
  key: string;
  label: string;
  colour: string;
  /** A step line holds its value until the next day's; a linear one draws the trend between. */
  step: boolean;
  dashed: boolean;
};

type TBalancePoint = { date: string } & Record<string, number | null | string>;

/**
 * Two balance lines over the same days (the forecast's committed and run-rate lines; a
 * simulation's lines before and after its changes). They differ by dash and name, not only colour.
 */
export function BalanceLinesChart<T extends TBalancePoint>(props: {
  points: readonly T[];
  series: readonly [TBalanceSeries, TBalanceSeries];
  currency: string;
  locale: string;
  caption: string;
  testId: string;
  tableTestId: string;
  /** Columns after the two lines' (a simulation's difference). */
  extraColumns?: ReadonlyArray<TDayColumn<T>>;
}) {
  const { locale, currency, series } = props;
  const money = (minor: unknown) => formatMinor(typeof minor === "number" ? minor : null, currency, locale);
  const first = props.points[0];
  const last = props.points.at(-1);
  const summary =
    first && last
      ? `From ${formatCalendarDay(first.date, locale)} to ${formatCalendarDay(last.date, locale)}: ` +
        series.map((s) => `${s.label.toLowerCase()} ${money(first[s.key])} to ${money(last[s.key])}`).join(", ") +
        "."
      : "No days.";
  return (
    <DayChartFigure
      kind="Line chart"
      caption={props.caption}
      summary={summary}
      height={260}
      testId={props.testId}
      tableTitle="Every day's balance"
      tableTestId={props.tableTestId}
      rows={props.points}
      locale={locale}
      columns={[
        ...series.map((s) => ({ header: s.label, cell: (point: T) => money(point[s.key]) })),
        ...(props.extraColumns ?? []),
      ]}
      chart={balanceLines({
        points: props.points,
        series,
        axes: dayChartAxes({ locale, currency, size: "regular", autoDomain: true }),
      })}
    />
  );
}

/** A plain function, not a component: ResponsiveContainer sizes its direct child, a recharts chart. */
function balanceLines(props: { points: readonly TBalancePoint[]; series: readonly TBalanceSeries[]; axes: ReactElement[] }) {
  return (
    <LineChart data={[...props.points]} margin={{ top: 8, right: 16, bottom: 4, left: 4 }} accessibilityLayer={false}>
      {props.axes}
      <ReferenceLine y={0} stroke="var(--chart-zero)" />
      <Legend wrapperStyle={{ fontSize: 13 }} />
      {props.series.map((s) => (
        <Line
          key={s.key}
          type={s.step ? "stepAfter" : "linear"}
          dataKey={s.key}
          name={s.label}
          stroke={s.colour}
          strokeWidth={s.dashed ? 2 : 2.5}
          {...(s.dashed ? { strokeDasharray: "6 4" } : {})}
          dot={false}
          isAnimationActive={false}
          connectNulls={false}
        />
      ))}
    </LineChart>
  );
}
