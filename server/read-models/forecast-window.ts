// The window of a forecast (pinned-wave2 §2.5) and of free capital (§2.6), pure.
//
// Forecast: `horizon` ∈ {7, 30, 90} (default 30) gives [today, today + horizon − 1]; or `from`
// and `to` together, today ≤ from ≤ to, to − from ≤ 365. One of from/to alone, or either with
// horizon, is a 400 naming the field. horizon_days is the number of days listed, to − from + 1.
// Free capital: horizon_days 1–365 (default 30) gives [today, today + horizon_days − 1].
import { addDays, daysBetween } from "../../lib/days";
import { AppError } from "../errors/app-error";

export const FORECAST_HORIZONS = [7, 30, 90] as const;
export const DEFAULT_HORIZON_DAYS = 30;
/** The longest forecast given by from&to: to − from ≤ 365 (366 days listed). */
export const MAX_FORECAST_SPAN_DAYS = 365;
export const MAX_FREE_CAPITAL_HORIZON_DAYS = 365;

export type TWindow = { from: string; to: string; horizon_days: number };

/** The parameters' shape alone (no today needed): the refusal a zod refinement reports, or null. */
export function forecastParameterProblem(input: { horizon?: number; from?: string; to?: string }): {
  path: string;
  message: string;
} | null {
  const hasFrom = input.from !== undefined;
  const hasTo = input.to !== undefined;
  if (input.horizon !== undefined && (hasFrom || hasTo)) {
    return { path: "horizon", message: "give either horizon or from and to, not both" };
  }
  if (hasFrom && !hasTo) return { path: "to", message: "is required with from" };
  if (hasTo && !hasFrom) return { path: "from", message: "is required with to" };
  return null;
}

/** The forecast's window for the owner's today; a 400 naming the field when it cannot be one. */
export function forecastWindow(input: { horizon?: number; from?: string; to?: string }, today: string): TWindow {
  const problem = forecastParameterProblem(input);
  if (problem) throw AppError.invalidField(problem.path, problem.message);
  if (input.from === undefined || input.to === undefined) {
    const horizon = input.horizon ?? DEFAULT_HORIZON_DAYS;
    if (!(FORECAST_HORIZONS as readonly number[]).includes(horizon)) {
      throw AppError.invalidField("horizon", `must be one of ${FORECAST_HORIZONS.join(", ")}`);
    }
    return { from: today, to: addDays(today, horizon - 1), horizon_days: horizon };
  }
  const { from, to } = input;
  if (from < today) throw AppError.invalidField("from", `must not be before today (${today})`);
  if (to < from) throw AppError.invalidField("to", "must not be before from");
  const span = daysBetween(from, to);
  if (span > MAX_FORECAST_SPAN_DAYS) {
    throw AppError.invalidField("to", `must be at most ${MAX_FORECAST_SPAN_DAYS} days after from`);
  }
  return { from, to, horizon_days: span + 1 };
}

/** Free capital's window: [today, today + horizon_days − 1]. */
export function freeCapitalWindow(horizonDays: number | undefined, today: string): TWindow {
  const days = horizonDays ?? DEFAULT_HORIZON_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_FREE_CAPITAL_HORIZON_DAYS) {
    throw AppError.invalidField("horizon_days", `must be an integer from 1 to ${MAX_FREE_CAPITAL_HORIZON_DAYS}`);
  }
  return { from: today, to: addDays(today, days - 1), horizon_days: days };
}
