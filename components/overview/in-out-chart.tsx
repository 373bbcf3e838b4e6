"use client";
// Money in and out over the last 30 days, one pair of bars per row (a business, personal), and
// the same figures exactly in a table under it: the chart is for the eye, the table is what a
// screen reader and a careful reader use. In and out differ by pattern and label, not only colour.
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMinor } from "@/lib/money";
import { usePreferences } from "../panel/preferences";
import { formatAxisMinor } from "./figures";

export type TInOutRow = { id: string; name: string; in_minor: number; out_minor: number; net_minor: number };

// CSS variables (app/globals.css), so the chart follows light and dark mode.
const IN_COLOUR = "var(--chart-in)";
const OUT_COLOUR = "var(--chart-out)";

export function InOutChart(props: {
  rows: readonly TInOutRow[];
  currency: string;
  /** What the rows' "in" and "out" are, in the table's headers and the legend. */
  inLabel: string;
  outLabel: string;
  caption: string;
  /** What a row is ("Business"), for the table's first column. */
  rowHeader: string;
  testId?: string;
}) {
  const { locale } = usePreferences();
  const money = (minor: number) => formatMinor(minor, props.currency, locale);
  const data = props.rows.map((row) => ({ name: row.name, in: row.in_minor, out: row.out_minor }));
  const summary = props.rows
    .map(
      (row) =>
        `${row.name}: ${props.inLabel.toLowerCase()} ${money(row.in_minor)}, ${props.outLabel.toLowerCase()} ${money(row.out_minor)}`,
    )
    .join("; ");

  return (
    <figure className="chart-figure" data-testid={props.testId}>
      <div className="chart" role="img" aria-label={`Bar chart. ${props.caption}. ${summary}.`}>
        <ResponsiveContainer width="100%" height={Math.max(180, 64 + props.rows.length * 56)}>
          <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }} accessibilityLayer={false}>
            <defs>
              <pattern id="out-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                <rect width="6" height="6" fill={OUT_COLOUR} fillOpacity={0.25} />
                <line x1="0" y1="0" x2="0" y2="6" stroke={OUT_COLOUR} strokeWidth={3} />
              </pattern>
            </defs>
            <CartesianGrid horizontal={false} stroke="var(--chart-grid)" />
            <XAxis
              type="number"
              tickFormatter={(value: number) => formatAxisMinor(value, props.currency, locale)}
              tick={{ fontSize: 12, fill: "var(--text-muted)" }}
              stroke="var(--chart-axis)"
            />
            <YAxis
              type="category"
              dataKey="name"
              width={96}
              tick={{ fontSize: 12, fill: "var(--text)" }}
              stroke="var(--chart-axis)"
            />
            <Tooltip formatter={(value) => money(Number(value))} cursor={{ fill: "var(--chart-cursor)" }} />
            <Legend wrapperStyle={{ fontSize: 13 }} />
            <Bar dataKey="in" name={props.inLabel} fill={IN_COLOUR} radius={[0, 3, 3, 0]} isAnimationActive={false} />
            <Bar
              dataKey="out"
              name={props.outLabel}
              fill="url(#out-hatch)"
              stroke={OUT_COLOUR}
              radius={[0, 3, 3, 0]}
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="visually-hidden">{props.caption}</figcaption>
      {/* Focusable, so a keyboard can scroll it sideways on a narrow screen. */}
      <div className="table-scroll" role="region" aria-label={`${props.caption}, exact figures`} tabIndex={0}>
        <table className="table table-compact">
          <caption className="visually-hidden">{props.caption}, exact figures</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{props.rowHeader}</span>
              </th>
              <th scope="col" className="cell-right">
                {props.inLabel}
              </th>
              <th scope="col" className="cell-right">
                {props.outLabel}
              </th>
              <th scope="col" className="cell-right">
                Net
              </th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => (
              <tr key={row.id} data-row={row.id}>
                <th scope="row" className="cell-strong">
                  {row.name}
                </th>
                <td className="cell-right mono" data-testid="in-minor">
                  {money(row.in_minor)}
                </td>
                <td className="cell-right mono" data-testid="out-minor">
                  {money(row.out_minor)}
                </td>
                <td className="cell-right mono" data-testid="net-minor">
                  {money(row.net_minor)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
