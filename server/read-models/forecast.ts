// Forecasts (pinned-wave2 §2.5): GET /v1/businesses/{id}/forecast, /v1/personal/forecast and
// /v1/forecast. Cash now (K6), reserved and commitments (K7), and the run rate of the last 90
// days' actuals, laid out day by day by forecast-series.ts. Order of checks (§1.3): the window
// (400) before the business (404).
import type { TDbOrTx } from "../db/client";
import type { TClock } from "../shared/clock";
import { cashPosition, toCashDto } from "./cash";
import { commitmentTotals, loadCommitments, loadReserved, toCommitmentItemDto, type TCommitment } from "./commitments";
import { envelopeCoverage } from "./coverage";
import { toDisplay, toMinor } from "./display";
import { burnWindow } from "./burn";
import { actualFlows } from "./flows";
import { buildForecastSeries, type TDayCommitments, type TForecastSeries } from "./forecast-series";
import { forecastWindow } from "./forecast-window";
import { FORECAST_COVERAGE, type TForecast, type TForecastQuery } from "./forecast.schema";
import { readOwnerDay } from "./period";
import { OWNER_SCOPE, PERSONAL_SCOPE, resolveBusinessScope, toScopeRef, type TReadScope } from "./scope";

export type TForecastTarget = { business_id: string } | { personal: true } | { owner: true };

/** Commitments summed per day and kind (base currency). */
function byDay(items: readonly TCommitment[]): Map<string, TDayCommitments> {
  const days = new Map<string, TDayCommitments>();
  for (const item of items) {
    const sums = commitmentTotals([item]);
    const day = days.get(item.date) ?? { plannedIn: 0n, plannedOut: 0n, subscriptions: 0n };
    days.set(item.date, {
      plannedIn: day.plannedIn + sums.plannedIn,
      plannedOut: day.plannedOut + sums.plannedOut,
      subscriptions: day.subscriptions + sums.subscriptions,
    });
  }
  return days;
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
  const day = await readOwnerDay(db, input.ownerId, input.clock);
  const window = forecastWindow(input.query, day.today);
  const scope: TReadScope =
    "business_id" in input.target
      ? await resolveBusinessScope(db, day.ownerId, input.target.business_id)
      : "personal" in input.target
        ? PERSONAL_SCOPE
        : OWNER_SCOPE;

  const runRateWindow = burnWindow(day.today);
  // Independent reads, issued together (see overview.ts).
  const [cash, reserved, commitments, actuals, coverage] = await Promise.all([
    cashPosition(db, day, scope),
    loadReserved(db, day, scope),
    loadCommitments(db, day, scope, window.to),
    actualFlows(db, day, scope, [runRateWindow]),
    envelopeCoverage(db, day, scope, FORECAST_COVERAGE),
  ]);
  const flows = actuals.flows[0]!;

  // The components, in the base: cash, reserved, T_in, T_out and each day's sums by kind. With
  // display_currency each is converted once and the series is rebuilt from the converted ones.
  const committedByDay = byDay(commitments.items);
  const components: Record<string, bigint> = {
    reserved: reserved.amountMinor,
    run_rate_in: flows.inMinor,
    run_rate_out: flows.runRateOutMinor,
  };
  if (cash) components.cash = cash.amountMinor;
  for (const [date, sums] of committedByDay) {
    components[`${date}:planned_in`] = sums.plannedIn;
    components[`${date}:planned_out`] = sums.plannedOut;
    components[`${date}:subscriptions`] = sums.subscriptions;
  }
  const displayed = await toDisplay(db, day, {
    displayCurrency: input.query.display_currency,
    components,
    conversions: [...(cash?.conversions ?? []), ...reserved.conversions, ...commitments.conversions, ...actuals.conversions],
  });
  const shown = displayed.amounts;
  const shownByDay = new Map<string, TDayCommitments>(
    [...committedByDay.keys()].map((date) => [
      date,
      {
        plannedIn: shown[`${date}:planned_in`]!,
        plannedOut: shown[`${date}:planned_out`]!,
        subscriptions: shown[`${date}:subscriptions`]!,
      },
    ]),
  );
  const series = buildForecastSeries({
    today: day.today,
    from: window.from,
    to: window.to,
    cashMinor: cash ? shown.cash! : null,
    reservedMinor: shown.reserved!,
    committed: shownByDay,
    runRateIn: shown.run_rate_in!,
    runRateOut: shown.run_rate_out!,
  });

  const data: TForecast = {
    currency: displayed.currency,
    base_currency: displayed.baseCurrency,
    scope: toScopeRef(scope) as TForecast["scope"],
    today: day.today,
    from: window.from,
    to: window.to,
    horizon_days: window.horizon_days,
    starting_cash: toCashDto(cash, cash ? shown.cash : undefined),
    reserved_minor: toMinor(shown.reserved!),
    ...seriesDto(series),
    items: commitments.items.filter((item) => item.date >= window.from).map(toCommitmentItemDto),
    run_rate: {
      window_from: runRateWindow.from,
      window_to: runRateWindow.to,
      in_minor: toMinor(shown.run_rate_in!),
      out_minor: toMinor(shown.run_rate_out!),
    },
    fx_used: displayed.fxUsed,
  };
  return { data, fx: displayed.fx, coverage };
}
