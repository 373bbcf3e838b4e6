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
//   showProjections      one or more projections laid out over the window in the base
//                        (buildForecastSeries, pure), then shown in the display currency: the
//                        totals, opening, cash, reserved and each day converted once as
//                        components (toDisplay, with the envelope's fx), the derived figures
//                        recomputed from them (showSeries, pure; pinned-wave3 §1.4).
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
import {
  buildForecastSeries,
  seriesComponents,
  showSeries,
  type TDayCommitments,
  type TForecastSeries,
  type TForecastSeriesInput,
} from "./forecast-series";
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

/** A projection as shown: its cash, reserved and run-rate totals, and its series (in the base or a display currency). */
export type TShownProjection = Pick<TProjectionAmounts, "cashMinor" | "reservedMinor" | "runRateIn" | "runRateOut"> & {
  series: TForecastSeries;
};

/**
 * Projections laid out over the window and shown in the display currency (K5, pinned-wave3
 * §1.4). Each is projected in the base (buildForecastSeries), then its components (cash,
 * reserved, T_in, T_out, the opening figures, the window's totals, and each day's figures) are
 * converted once from the base in ONE toDisplay call, so identical components show identical
 * amounts in every projection; showSeries recomputes the derived figures from them.
 */
export async function showProjections<K extends string>(
  db: TDbOrTx,
  day: TOwnerDay,
  input: {
    displayCurrency?: string;
    window: { today: string; from: string; to: string };
    projections: Record<K, TProjectionAmounts>;
    conversions: readonly TSummaryConversion[];
  },
): Promise<{ shown: Record<K, TShownProjection>; displayed: TDisplayed<string> }> {
  const names = Object.keys(input.projections) as K[];
  const series = new Map(names.map((name) => [name, projectForecast(input.projections[name], input.window)]));
  const components: Record<string, bigint> = {};
  for (const name of names) {
    const amounts = input.projections[name];
    components[`${name}:reserved`] = amounts.reservedMinor;
    components[`${name}:run_rate_in`] = amounts.runRateIn;
    components[`${name}:run_rate_out`] = amounts.runRateOut;
    if (amounts.cashMinor !== null) components[`${name}:cash`] = amounts.cashMinor;
    for (const [key, value] of Object.entries(seriesComponents(series.get(name)!))) components[`${name}:${key}`] = value;
  }
  const displayed = await toDisplay(db, day, {
    displayCurrency: input.displayCurrency,
    components,
    conversions: input.conversions,
  });
  const shown = (name: K) => (key: string) => displayed.amounts[`${name}:${key}`]!;
  const entries = names.map((name): [K, TShownProjection] => {
    const at = shown(name);
    const cashMinor = input.projections[name].cashMinor === null ? null : at("cash");
    const reservedMinor = at("reserved");
    return [
      name,
      {
        cashMinor,
        reservedMinor,
        runRateIn: at("run_rate_in"),
        runRateOut: at("run_rate_out"),
        series: showSeries(series.get(name)!, at, cashMinor, reservedMinor),
      },
    ];
  });
  return { shown: Object.fromEntries(entries) as Record<K, TShownProjection>, displayed };
}

/** The projection (pure): the window's days, balances and totals from the amounts, in their currency. */
export function projectForecast(
  amounts: TProjectionAmounts,
  window: { today: string; from: string; to: string },
): TForecastSeries {
  return buildForecastSeries({ ...window, ...amounts });
}

function seriesDto(series: TForecastSeries) {
  const minorOrNull = (value: bigint | null, field: string) => (value === null ? null : toMinor(value, field));
  const sums = <T extends Record<string, bigint>>(values: T, at: string) =>
    Object.fromEntries(Object.entries(values).map(([k, v]) => [k, toMinor(v, `${at}.${k}`)])) as { [K in keyof T]: number };
  // The window's figures first: when one is beyond the exact range, it is the one the 422 names.
  const totals = sums(series.totals, "totals");
  return {
    opening: sums(series.opening, "opening"),
    totals,
    ending_balance_committed_minor: minorOrNull(series.ending_balance_committed_minor, "ending_balance_committed_minor"),
    ending_balance_with_run_rate_minor: minorOrNull(
      series.ending_balance_with_run_rate_minor,
      "ending_balance_with_run_rate_minor",
    ),
    lowest_balance: series.lowest_balance && {
      date: series.lowest_balance.date,
      amount_minor: toMinor(series.lowest_balance.amount_minor, "lowest_balance.amount_minor"),
    },
    days: series.days.map((d, i) => ({
      date: d.date,
      committed_in_minor: toMinor(d.committed_in_minor, `days.${i}.committed_in_minor`),
      committed_out_minor: toMinor(d.committed_out_minor, `days.${i}.committed_out_minor`),
      run_rate_in_minor: toMinor(d.run_rate_in_minor, `days.${i}.run_rate_in_minor`),
      run_rate_out_minor: toMinor(d.run_rate_out_minor, `days.${i}.run_rate_out_minor`),
      balance_committed_minor: minorOrNull(d.balance_committed_minor, `days.${i}.balance_committed_minor`),
      balance_with_run_rate_minor: minorOrNull(d.balance_with_run_rate_minor, `days.${i}.balance_with_run_rate_minor`),
    })),
  };
}

/** A forecast of the target's scope: the envelope { data, fx, coverage }. */
export async function getForecast(
  db: TDbOrTx,
  input: {
    ownerId: string;
    clock: TClock;
    target: TForecastTarget;
    query: TForecastQuery;
    /** Checks the caller may read the resolved scope (an agent's grant), after its 404 and before any figure. */
    authorize?: (scope: TReadScope) => Promise<void>;
  },
) {
  const checkWindow = (day: TOwnerDay) => forecastWindow(input.query, day.today);
  if ("business_id" in input.target) {
    const {
      day,
      checked: window,
      scope,
    } = await readOwnerDayAndBusiness(db, input.ownerId, input.clock, input.target.business_id, checkWindow);
    await input.authorize?.(scope);
    return forecastOf(db, day, scope, window, input.query.display_currency);
  }
  const day = await readOwnerDay(db, input.ownerId, input.clock);
  const scope: TReadScope = "personal" in input.target ? PERSONAL_SCOPE : OWNER_SCOPE;
  await input.authorize?.(scope);
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
    window: { today: day.today, from: window.from, to: window.to },
    projections: { forecast: projectionAmounts(inputs) },
    conversions: inputs.conversions,
  });
  const { series, ...amounts } = shown.forecast;

  const data: TForecast = {
    currency: displayed.currency,
    base_currency: displayed.baseCurrency,
    scope: toScopeRef(scope) as TForecast["scope"],
    today: day.today,
    from: window.from,
    to: window.to,
    horizon_days: window.horizon_days,
    starting_cash: toCashDto(inputs.cash, amounts.cashMinor ?? undefined, "starting_cash"),
    reserved_minor: toMinor(amounts.reservedMinor, "reserved_minor"),
    run_rate: {
      window_from: runRateWindow.from,
      window_to: runRateWindow.to,
      in_minor: toMinor(amounts.runRateIn, "run_rate.in_minor"),
      out_minor: toMinor(amounts.runRateOut, "run_rate.out_minor"),
    },
    ...seriesDto(series),
    items: toCommitmentItemDtos(
      inputs.commitments.filter((item) => item.date >= window.from),
      "items",
    ),
    fx_used: displayed.fxUsed,
  };
  // fxBasis is not part of the answer (the output schema leaves it out): for the business context's fx.
  return { data, fx: displayed.fx, coverage, fxBasis: displayed.basis };
}
