"use client";
// Both committed balance lines of a simulation, day by day: as the books stand and with the
// changes (components/charts/day-chart.tsx draws them); the table under the chart adds each
// day's difference.
import { BalanceLinesChart } from "../charts/day-chart";
import { usePreferences } from "../panel/preferences";
import { BASELINE_LABEL, SIMULATED_LABEL, signedMinor, type TSimulationDay } from "./simulation-words";

export function SimulationChart(props: { days: readonly TSimulationDay[]; currency: string; caption: string }) {
  const { locale } = usePreferences();
  const points = props.days.map((day) => ({
    date: day.date,
    baseline: day.baseline_balance_minor,
    simulated: day.simulated_balance_minor,
  }));
  return (
    <BalanceLinesChart
      points={points}
      series={[
        { key: "baseline", label: BASELINE_LABEL, colour: "var(--chart-committed)", step: true, dashed: false },
        { key: "simulated", label: SIMULATED_LABEL, colour: "var(--chart-run-rate)", step: true, dashed: true },
      ]}
      currency={props.currency}
      locale={locale}
      caption={props.caption}
      testId="simulation-chart"
      tableTestId="simulation-table"
      extraColumns={[
        {
          header: "Difference",
          cell: (point) =>
            signedMinor(
              point.baseline === null || point.simulated === null ? null : point.simulated - point.baseline,
              props.currency,
              locale,
            ),
        },
      ]}
    />
  );
}
