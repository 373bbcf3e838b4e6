// Forecasts (pinned-wave2 §2.5): GET /v1/businesses/{id}/forecast, /v1/personal/forecast and
// /v1/forecast. Cash now (K6), reserved and commitments (K7), and the run rate of the last 90
// days' actuals, laid out day by day by forecast-series.ts. Order of checks (§1.3): the window
// (400) before the business (404). Campaigns' known daily budgets are commitments too
// (pinned-wave3 §1.3), and their own ad_spend leaves the run rate's T_out.
//
// Three steps, so a simulation (server/simulations) runs the very same projection on inputs it
// has altered, never a copy of these formulas:
//   loadForecastInputs   the scope's inputs as data, in the base currency (the only reads);
//   projectionAmounts    those inputs as the projection's amounts (commitments summed per day);
//   showProjections      one or more projections' amounts in the display currency, converted
//                        once as components (toDisplay), with the envelope's fx;
// then buildForecastSeries (pure) lays out the window.
import type { TDbOrTx } from "../db/client";
import type { TClock } from "../shared/clock";
import type { TOwnerDay } from "../shared/owner-today";
import { burnWindow } from "./burn";
import { cashPosition, toCashDto, type TCashPosition } from "./cash";
import { campaignAdSpend } from "./campaign-budgets";
import { commitmentTotals, loadCommitments, loadReserved, toCommitmentItemDtos, type TCommitment } from "./commitments";
import { envelopeCoverage } from "./coverage";
import { toDisplay, toMinor, type TDisplayed, type TSummaryConversion } from "./display";
import { actualFlows, type TActualFlows, type TSpan } from "./flows";
import { buildForecastSeries, type TDayCommitments, type TForecastSeries, type TForecastSeriesInput } from "./forecast-series";
import { forecastWindow, type TWindow } from "./forecast-window";
import { FORECAST_COVERAGE, type TForecast, type TForecastQuery } from "./forecast.schema";
import { readOwnerDay, readOwnerDayAndBusiness } from "./period";
import { OWNER_SCOPE, PERSONAL_SCOPE, toScopeRef, type TReadScope } from "./scope";

export type TForecastTarget = { business_id: string } | { personal: true } | { owner: true };

/** What a projection starts from, in the base currency: the books' (loadForecastInputs) or a simulation's. */
export type TForecastInputs = {
  /** Cash now (K6); null without a snapshot. */
  cash: TCashPosition | null;
  /** K7 reserved. */
  reservedMinor: bigint;
  /** K7 commitments dated today to the window's end, each valued at today's rate. */
  commitments: readonly TCommitment[];
  /** The 90-day run-rate totals T_in and T_out. */
  runRateIn: bigint;
  runRateOut: bigint;
  /** The conversions behind every amount above (the envelope's fx). */
  conversions: readonly TSummaryConversion[];
};

/** The projection's amounts in one currency: everything buildForecastSeries needs but the window. */
export type TProjectionAmounts = Omit<TForecastSeriesInput, "today" | "from" | "to">;

/** The scope's inputs for a window ending on `end`, and the run rate's own window. */
export async function loadForecastInputs(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  end: string,
  shared: { runRateFlows?: Promise<TActualFlows> } = {},
): Promise<{ inputs: TForecastInputs; runRateWindow: TSpan }> {
  const runRateWindow = burnWindow(day.today);
  // Independent reads, issued together (see overview.ts).
  const [cash, reserved, commitments, actuals, budgetedSpend] = await Promise.all([
    cashPosition(db, day, scope),
    loadReserved(db, day, scope),
    loadCommitments(db, day, scope, end),
    // A caller that reads them too passes them (`shared.runRateFlows`: actualFlows over runRateWindow).
    shared.runRateFlows ?? actualFlows(db, day, scope, [runRateWindow]),
    // The campaigns whose budgets are commitments (§1.3): their ad_spend leaves T_out, so it does not count twice.
    campaignAdSpend(db, day, scope, runRateWindow, end),
  ]);
  const flows = actuals.flows[0]!;
  return {
    inputs: {
      cash,
      reservedMinor: reserved.amountMinor,
      commitments: commitments.items,
      runRateIn: flows.inMinor,
      runRateOut: flows.runRateOutMinor - budgetedSpend,
      conversions: [...(cash?.conversions ?? []), ...reserved.conversions, ...commitments.conversions, ...actuals.conversions],
    },
    runRateWindow,
  };
}

/** The inputs as the projection's amounts (base currency): commitments summed per day and kind. */
export function projectionAmounts(inputs: TForecastInputs): TProjectionAmounts {
  const committed = new Map<string, TDayCommitments>();
  for (const item of inputs.commitments) {
    const sums = commitmentTotals([item]);
    const day = committed.get(item.date) ?? { plannedIn: 0n, plannedOut: 0n, subscriptions: 0n, adBudgets: 0n };
    committed.set(item.date, {
      plannedIn: day.plannedIn + sums.plannedIn,
      plannedOut: day.plannedOut + sums.plannedOut,
      subscriptions: day.subscriptions + sums.subscriptions,
      adBudgets: day.adBudgets + sums.adBudgets,
    });
  }
  return {
    cashMinor: inputs.cash ? inputs.cash.amountMinor : null,
    reservedMinor: inputs.reservedMinor,
    committed,
    runRateIn: inputs.runRateIn,
    runRateOut: inputs.runRateOut,
  };
}

/**
 * Projections' amounts (base) in the display currency. Each is a set of components (cash,
 * reserved, T_in, T_out, each day's sums by kind) converted once from the base in ONE toDisplay
 * call, so identical components show identical amounts in every projection; the series is then
 * rebuilt from the converted components, so the balances and totals add up in any currency.
 */
export async function showProjections<K extends string>(
  db: TDbOrTx,
  day: TOwnerDay,
  input: { displayCurrency?: string; projections: Record<K, TProjectionAmounts>; conversions: readonly TSummaryConversion[] },
): Promise<{ shown: Record<K, TProjectionAmounts>; displayed: TDisplayed<string> }> {
  const names = Object.keys(input.projections) as K[];
  const components: Record<string, bigint> = {};
  for (const name of names) {
    const amounts = input.projections[name];
    components[`${name}:reserved`] = amounts.reservedMinor;
    components[`${name}:run_rate_in`] = amounts.runRateIn;
    components[`${name}:run_rate_out`] = amounts.runRateOut;
    if (amounts.cashMinor !== null) components[`${name}:cash`] = amounts.cashMinor;
    for (const [date, sums] of amounts.committed) {
      components[`${name}:${date}:planned_in`] = sums.plannedIn;
      components[`${name}:${date}:planned_out`] = sums.plannedOut;
      components[`${name}:${date}:subscriptions`] = sums.subscriptions;
      components[`${name}:${date}:ad_budgets`] = sums.adBudgets;
    }
  }
  const displayed = await toDisplay(db, day, {
    displayCurrency: input.displayCurrency,
    components,
    conversions: input.conversions,
  });
  const shown = displayed.amounts;
  const entries = names.map((name): [K, TProjectionAmounts] => {
    const amounts = input.projections[name];
    const committed = new Map<string, TDayCommitments>();
    for (const date of amounts.committed.keys()) {
      committed.set(date, {
        plannedIn: shown[`${name}:${date}:planned_in`]!,
        plannedOut: shown[`${name}:${date}:planned_out`]!,
        subscriptions: shown[`${name}:${date}:subscriptions`]!,
        adBudgets: shown[`${name}:${date}:ad_budgets`]!,
      });
    }
    return [
      name,
      {
        cashMinor: amounts.cashMinor === null ? null : shown[`${name}:cash`]!,
        reservedMinor: shown[`${name}:reserved`]!,
        committed,
        runRateIn: shown[`${name}:run_rate_in`]!,
        runRateOut: shown[`${name}:run_rate_out`]!,
      },
    ];
  });
  return { shown: Object.fromEntries(entries) as Record<K, TProjectionAmounts>, displayed };
}

/** The projection (pure): the window's days, balances and totals from the amounts. */
export function projectForecast(
  amounts: TProjectionAmounts,
  window: { today: string; from: string; to: string },
): TForecastSeries {
  return buildForecastSeries({ ...window, ...amounts });
}

function seriesDto(series: TForecastSeries) {
  const minorOrNull = (value: bigint | null) => (value === null ? null : toMinor(value));
  const sums = <T extends Record<string, bigint>>(values: T) =>
    Object.fromEntries(Object.entries(values).map(([k, v]) => [k, toMinor(v)])) as { [K in keyof T]: number };
  return {
    opening: sums(series.opening),
    days: series.days.map((d) => ({
      date: d.date,
      committed_in_minor: toMinor(d.committed_in_minor),
      committed_out_minor: toMinor(d.committed_out_minor),
      run_rate_in_minor: toMinor(d.run_rate_in_minor),
      run_rate_out_minor: toMinor(d.run_rate_out_minor),
      balance_committed_minor: minorOrNull(d.balance_committed_minor),
      balance_with_run_rate_minor: minorOrNull(d.balance_with_run_rate_minor),
    })),
    totals: sums(series.totals),
    ending_balance_committed_minor: minorOrNull(series.ending_balance_committed_minor),
    ending_balance_with_run_rate_minor: minorOrNull(series.ending_balance_with_run_rate_minor),
    lowest_balance: series.lowest_balance && {
      date: series.lowest_balance.date,
      amount_minor: toMinor(series.lowest_balance.amount_minor),
    },
  };
}

/** A forecast of the target's scope: the envelope { data, fx, coverage }. */
export async function getForecast(
  db: TDbOrTx,
  input: { ownerId: string; clock: TClock; target: TForecastTarget; query: TForecastQuery },
) {
  const checkWindow = (day: TOwnerDay) => forecastWindow(input.query, day.today);
  if ("business_id" in input.target) {
    const {
      day,
      checked: window,
      scope,
    } = await readOwnerDayAndBusiness(db, input.ownerId, input.clock, input.target.business_id, checkWindow);
    return forecastOf(db, day, scope, window, input.query.display_currency);
  }
  const day = await readOwnerDay(db, input.ownerId, input.clock);
  const scope: TReadScope = "personal" in input.target ? PERSONAL_SCOPE : OWNER_SCOPE;
  return forecastOf(db, day, scope, checkWindow(day), input.query.display_currency);
}

/** The forecast of a resolved scope over a checked window (GET …/forecast, and the business context). */
export async function forecastOf(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  window: TWindow,
  displayCurrency?: string,
  shared: { runRateFlows?: Promise<TActualFlows> } = {},
) {
  const [{ inputs, runRateWindow }, coverage] = await Promise.all([
    loadForecastInputs(db, day, scope, window.to, shared),
    envelopeCoverage(db, day, scope, FORECAST_COVERAGE),
  ]);
  const { shown, displayed } = await showProjections(db, day, {
    displayCurrency,
    projections: { forecast: projectionAmounts(inputs) },
    conversions: inputs.conversions,
  });
  const amounts = shown.forecast;
  const series = projectForecast(amounts, { today: day.today, from: window.from, to: window.to });

  const data: TForecast = {
    currency: displayed.currency,
    base_currency: displayed.baseCurrency,
    scope: toScopeRef(scope) as TForecast["scope"],
    today: day.today,
    from: window.from,
    to: window.to,
    horizon_days: window.horizon_days,
    starting_cash: toCashDto(inputs.cash, amounts.cashMinor ?? undefined),
    reserved_minor: toMinor(amounts.reservedMinor),
    ...seriesDto(series),
    items: toCommitmentItemDtos(inputs.commitments.filter((item) => item.date >= window.from)),
    run_rate: {
      window_from: runRateWindow.from,
      window_to: runRateWindow.to,
      in_minor: toMinor(amounts.runRateIn),
      out_minor: toMinor(amounts.runRateOut),
    },
    fx_used: displayed.fxUsed,
  };
  return { data, fx: displayed.fx, coverage };
}
