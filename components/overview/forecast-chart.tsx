"use client";
// The forecast's balance, day by day: the committed line (cash less what is reserved and
// committed) and the line with the last 90 days' run rate on top (components/charts/day-chart.tsx
// draws both, with every day's figures in a table under the chart).
import { BalanceLinesChart } from "../charts/day-chart";
import { usePreferences } from "../panel/preferences";
import type { TForecastPoint } from "./figures";

export const COMMITTED_LABEL = "Committed";
export const RUN_RATE_LABEL = "With run rate";

export function ForecastChart(props: { points: readonly TForecastPoint[]; currency: string; caption: string }) {
  const { locale } = usePreferences();
  return (
    <BalanceLinesChart
      points={props.points}
      series={[
        { key: "committed", label: COMMITTED_LABEL, colour: "var(--chart-committed)", step: true, dashed: false },
        { key: "runRate", label: RUN_RATE_LABEL, colour: "var(--chart-run-rate)", step: false, dashed: true },
      ]}
      currency={props.currency}
      locale={locale}
      caption={props.caption}
      testId="forecast-chart"
      tableTestId="forecast-table"
    />
  );
}
