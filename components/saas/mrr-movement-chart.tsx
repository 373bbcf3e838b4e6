"use client";
// The MRR movement of each month: what came in (new, expansion, reactivation) stacked above the
// zero line, what went (contraction, churned) below it. The five differ by pattern and name, not
// only colour; the exact figures of every month, with the net new MRR and the MRR at the month's
// end, are in the table under the chart (what a screen reader and a careful reader use).
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMinor } from "@/lib/money";
import type { TSaasMetrics } from "@/server/read-models/saas-metrics.schema";
import { usePreferences } from "../panel/preferences";
import { formatAxisMinor, formatCalendarDay } from "../overview/figures";
import { formatMonth, MOVEMENT_LABELS } from "./saas-words";

export type TSaasMonth = TSaasMetrics["by_month"][number];

// CSS variables (app/globals.css), so the chart follows light and dark mode.
/** The legend's order: what came in, then what went (Recharts would sort by name). */
const KINDS = ["new", "expansion", "reactivation", "contraction", "churned"] as const;

const COLOURS = {
  new: "var(--chart-in)",
  expansion: "var(--chart-in)",
  reactivation: "var(--chart-committed)",
  contraction: "var(--chart-run-rate)",
  churned: "var(--chart-out)",
} as const;

/** A hatched fill of a colour (`id` unique on the page). */
function Hatch({ id, colour }: { id: string; colour: string }) {
  return (
    <pattern id={id} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="6" height="6" fill={colour} fillOpacity={0.25} />
      <line x1="0" y1="0" x2="0" y2="6" stroke={colour} strokeWidth={3} />
    </pattern>
  );
}

export function MrrMovementChart(props: { months: readonly TSaasMonth[]; currency: string; caption: string }) {
  const { locale } = usePreferences();
  const money = (minor: number) => formatMinor(minor, props.currency, locale);
  // Losses are drawn below zero; the tooltip and the table show them as the API does (positive).
  const data = props.months.map((m) => ({
    month: formatMonth(m.month, locale),
    new: m.new_minor,
    expansion: m.expansion_minor,
    reactivation: m.reactivation_minor,
    contraction: -m.contraction_minor,
    churned: -m.churned_minor,
  }));
  const summary = props.months
    .map((m) => `${formatMonth(m.month, locale)}: net new ${money(m.net_new_minor)}, MRR at the end ${money(m.mrr_end_minor)}`)
    .join("; ");

  return (
    <figure className="chart-figure" data-testid="mrr-movement-chart">
      <div className="chart" role="img" aria-label={`Bar chart. ${props.caption}. ${summary}.`}>
        <ResponsiveContainer width="100%" height={280}>
          <BarChart data={data} stackOffset="sign" margin={{ top: 8, right: 16, bottom: 4, left: 4 }} accessibilityLayer={false}>
            <defs>
              <Hatch id="mrr-expansion-hatch" colour={COLOURS.expansion} />
              <Hatch id="mrr-churned-hatch" colour={COLOURS.churned} />
            </defs>
            <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
            <XAxis dataKey="month" tick={{ fontSize: 12, fill: "var(--text-muted)" }} stroke="var(--chart-axis)" minTickGap={8} />
            <YAxis
              width={72}
              tickFormatter={(value: number) => formatAxisMinor(value, props.currency, locale)}
              tick={{ fontSize: 12, fill: "var(--text-muted)" }}
              stroke="var(--chart-axis)"
            />
            <ReferenceLine y={0} stroke="var(--chart-zero)" />
            <Tooltip formatter={(value) => money(Math.abs(Number(value)))} cursor={{ fill: "var(--chart-cursor)" }} />
            <Legend
              wrapperStyle={{ fontSize: 13 }}
              itemSorter={(item) => KINDS.indexOf(item.dataKey as (typeof KINDS)[number])}
            />
            <Bar dataKey="new" name={MOVEMENT_LABELS.new} stackId="mrr" fill={COLOURS.new} isAnimationActive={false} />
            <Bar
              dataKey="expansion"
              name={MOVEMENT_LABELS.expansion}
              stackId="mrr"
              fill="url(#mrr-expansion-hatch)"
              stroke={COLOURS.expansion}
              isAnimationActive={false}
            />
            <Bar
              dataKey="reactivation"
              name={MOVEMENT_LABELS.reactivation}
              stackId="mrr"
              fill={COLOURS.reactivation}
              isAnimationActive={false}
            />
            <Bar
              dataKey="contraction"
              name={MOVEMENT_LABELS.contraction}
              stackId="mrr"
              fill={COLOURS.contraction}
              isAnimationActive={false}
            />
            <Bar
              dataKey="churned"
              name={MOVEMENT_LABELS.churned}
              stackId="mrr"
              fill="url(#mrr-churned-hatch)"
              stroke={COLOURS.churned}
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="visually-hidden">{props.caption}</figcaption>
      {/* Focusable, so a keyboard can scroll it sideways on a narrow screen. */}
      <div className="table-scroll" role="region" aria-label={`${props.caption}, exact figures`} tabIndex={0}>
        <table className="table table-compact" data-testid="mrr-movement-table">
          <caption className="visually-hidden">{props.caption}, exact figures</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              {KINDS.map((kind) => (
                <th key={kind} scope="col" className="cell-right">
                  {MOVEMENT_LABELS[kind]}
                </th>
              ))}
              <th scope="col" className="cell-right">
                Net new
              </th>
              <th scope="col" className="cell-right">
                MRR at the end
              </th>
            </tr>
          </thead>
          <tbody>
            {props.months.map((m) => (
              <tr key={m.month} data-month={m.month}>
                <th scope="row" className="cell-strong cell-date">
                  <span title={`${formatCalendarDay(m.from, locale)} to ${formatCalendarDay(m.to, locale)}`}>
                    {formatMonth(m.month, locale)}
                  </span>
                </th>
                <td className="cell-right mono" data-testid="new">
                  {money(m.new_minor)}
                </td>
                <td className="cell-right mono" data-testid="expansion">
                  {money(m.expansion_minor)}
                </td>
                <td className="cell-right mono" data-testid="reactivation">
                  {money(m.reactivation_minor)}
                </td>
                <td className="cell-right mono" data-testid="contraction">
                  {money(m.contraction_minor)}
                </td>
                <td className="cell-right mono" data-testid="churned">
                  {money(m.churned_minor)}
                </td>
                <td className="cell-right mono" data-testid="net-new">
                  {money(m.net_new_minor)}
                </td>
                <td className="cell-right mono" data-testid="mrr-end">
                  {money(m.mrr_end_minor)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
