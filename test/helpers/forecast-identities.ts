// The top-level identities of a forecast answer (pinned-wave2 §2.5, K5; pinned-wave3 §1.4): in
// any display currency the committed totals are their parts and the ending balances are cash −
// reserved + the opening and the window's nets, all from the figures as answered.
import { expect } from "vitest";

type TForecastData = {
  starting_cash: { amount_minor: number } | null;
  reserved_minor: number;
  opening: Record<"committed_in_minor" | "committed_out_minor" | "run_rate_in_minor" | "run_rate_out_minor", number>;
  totals: Record<
    | "planned_in_minor"
    | "planned_out_minor"
    | "subscriptions_minor"
    | "committed_in_minor"
    | "committed_out_minor"
    | "run_rate_in_minor"
    | "run_rate_out_minor",
    number
  >;
  ending_balance_committed_minor: number | null;
  ending_balance_with_run_rate_minor: number | null;
};

export function expectForecastIdentities(data: TForecastData): void {
  const { opening: o, totals: t } = data;
  expect(t.committed_in_minor).toBe(t.planned_in_minor);
  expect(t.committed_out_minor).toBe(t.planned_out_minor + t.subscriptions_minor);
  if (data.starting_cash === null) {
    expect(data.ending_balance_committed_minor).toBeNull();
    expect(data.ending_balance_with_run_rate_minor).toBeNull();
    return;
  }
  const ending =
    data.starting_cash.amount_minor -
    data.reserved_minor +
    o.committed_in_minor -
    o.committed_out_minor +
    t.committed_in_minor -
    t.committed_out_minor;
  expect(data.ending_balance_committed_minor).toBe(ending);
  expect(data.ending_balance_with_run_rate_minor).toBe(
    ending + o.run_rate_in_minor - o.run_rate_out_minor + t.run_rate_in_minor - t.run_rate_out_minor,
  );
}
