// What the "What if" page says about a simulation's answer: the before-and-after rows and the
// signed differences. Formatting only: every amount and day is the API's (POST /v1/simulations),
// nothing here sums or converts. No React: unit-tested in simulation-words.test.ts.
import { formatMinor } from "@/lib/money";
import type { TSimTotals } from "@/server/simulations/simulation.schema";
import { formatCalendarDay } from "../overview/figures";

export type { TSimTotals };
export type TSimulationDay = { date: string; baseline_balance_minor: number | null; simulated_balance_minor: number | null };

export const BASELINE_LABEL = "As things stand";
export const SIMULATED_LABEL = "With your changes";

/** An amount with its sign always shown ("+9.99 €", "−5.00 €"); "No change" for 0; "—" when unknown. */
export function signedMinor(minor: number | null, currency: string, locale: string): string {
  if (minor === null) return "—";
  if (minor === 0) return "No change";
  const text = formatMinor(Math.abs(minor), currency, locale);
  return minor > 0 ? `+${text}` : `−${text}`;
}

export type TComparisonRow = { id: string; label: string; baseline: string; simulated: string; difference: string };

/** The rows of the before-and-after table, in reading order. */
export function comparisonRows(baseline: TSimTotals, simulated: TSimTotals, currency: string, locale: string): TComparisonRow[] {
  const money = (minor: number | null) => formatMinor(minor, currency, locale);
  const day = (date: string | null) => (date === null ? "None" : formatCalendarDay(date, locale));
  const change = (a: number | null, b: number | null) => signedMinor(a === null || b === null ? null : b - a, currency, locale);
  const lowest = (totals: TSimTotals) =>
    totals.lowest_balance_minor === null ? "—" : `${money(totals.lowest_balance_minor)} on ${day(totals.lowest_balance_on)}`;
  const moved = (a: string | null, b: string | null) =>
    a === b ? "No change" : b === null ? "No longer" : a === null ? "New" : "Moves";
  return [
    {
      id: "ending",
      label: "Ending balance",
      baseline: money(baseline.ending_balance_committed_minor),
      simulated: money(simulated.ending_balance_committed_minor),
      difference: change(baseline.ending_balance_committed_minor, simulated.ending_balance_committed_minor),
    },
    {
      id: "lowest",
      label: "Lowest balance",
      baseline: lowest(baseline),
      simulated: lowest(simulated),
      difference: change(baseline.lowest_balance_minor, simulated.lowest_balance_minor),
    },
    {
      id: "first-negative",
      label: "First day below zero",
      baseline: day(baseline.first_negative_on),
      simulated: day(simulated.first_negative_on),
      difference: moved(baseline.first_negative_on, simulated.first_negative_on),
    },
    {
      id: "free-capital",
      label: "Free capital",
      baseline: money(baseline.free_capital_minor),
      simulated: money(simulated.free_capital_minor),
      difference: change(baseline.free_capital_minor, simulated.free_capital_minor),
    },
    {
      id: "committed-out",
      label: "Committed costs",
      baseline: money(baseline.committed_out_minor),
      simulated: money(simulated.committed_out_minor),
      difference: change(baseline.committed_out_minor, simulated.committed_out_minor),
    },
    {
      id: "committed-in",
      label: "Committed income",
      baseline: money(baseline.committed_in_minor),
      simulated: money(simulated.committed_in_minor),
      difference: change(baseline.committed_in_minor, simulated.committed_in_minor),
    },
    {
      id: "reserved",
      label: "Reserved",
      baseline: money(baseline.reserved_minor),
      simulated: money(simulated.reserved_minor),
      difference: change(baseline.reserved_minor, simulated.reserved_minor),
    },
  ];
}
