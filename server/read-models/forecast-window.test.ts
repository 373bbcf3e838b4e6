import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error";
import { forecastWindow, freeCapitalWindow } from "./forecast-window";

const today = "2027-03-01";

function refusal(run: () => unknown): { code: string; path: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError)
      return { code: error.code, path: (error.details as { issues: { path: string }[] }).issues[0]!.path };
    throw error;
  }
  throw new Error("not refused");
}

describe("forecastWindow (§2.5)", () => {
  it("runs horizon days from today, 30 by default", () => {
    expect(forecastWindow({}, today)).toEqual({ from: today, to: "2027-03-30", horizon_days: 30 });
    expect(forecastWindow({ horizon: 7 }, today)).toEqual({ from: today, to: "2027-03-07", horizon_days: 7 });
    expect(forecastWindow({ horizon: 90 }, today)).toEqual({ from: today, to: "2027-05-29", horizon_days: 90 });
  });

  it("takes from and to together, today ≤ from ≤ to, at most 365 days apart", () => {
    expect(forecastWindow({ from: "2027-03-05", to: "2027-03-05" }, today)).toEqual({
      from: "2027-03-05",
      to: "2027-03-05",
      horizon_days: 1,
    });
    expect(forecastWindow({ from: today, to: "2028-02-29" }, today)).toEqual({
      from: today,
      to: "2028-02-29",
      horizon_days: 366,
    });
  });

  it("refuses other horizons, one of from/to alone, either with horizon, a past from, to before from, a longer span", () => {
    expect(refusal(() => forecastWindow({ horizon: 14 }, today))).toEqual({ code: "validation_error", path: "horizon" });
    expect(refusal(() => forecastWindow({ from: today }, today))).toEqual({ code: "validation_error", path: "to" });
    expect(refusal(() => forecastWindow({ to: today }, today))).toEqual({ code: "validation_error", path: "from" });
    expect(refusal(() => forecastWindow({ horizon: 30, from: today, to: today }, today))).toEqual({
      code: "validation_error",
      path: "horizon",
    });
    expect(refusal(() => forecastWindow({ horizon: 30, to: today }, today))).toEqual({
      code: "validation_error",
      path: "horizon",
    });
    expect(refusal(() => forecastWindow({ from: "2027-02-28", to: today }, today))).toEqual({
      code: "validation_error",
      path: "from",
    });
    expect(refusal(() => forecastWindow({ from: "2027-03-05", to: "2027-03-04" }, today))).toEqual({
      code: "validation_error",
      path: "to",
    });
    expect(refusal(() => forecastWindow({ from: today, to: "2028-03-01" }, today))).toEqual({
      code: "validation_error",
      path: "to",
    });
  });
});

describe("freeCapitalWindow (§2.6)", () => {
  it("runs horizon_days from today, 30 by default, 1 to 365", () => {
    expect(freeCapitalWindow(undefined, today)).toEqual({ from: today, to: "2027-03-30", horizon_days: 30 });
    expect(freeCapitalWindow(1, today)).toEqual({ from: today, to: today, horizon_days: 1 });
    expect(freeCapitalWindow(365, today).to).toBe("2028-02-28");
    for (const bad of [0, 366, 1.5, -3]) expect(refusal(() => freeCapitalWindow(bad, today)).path).toBe("horizon_days");
  });
});
