// A report's range and periods (pinned-wave3 §4): defaults, the 36-month bound, calendar periods cut to the range.
import { describe, expect, it } from "vitest";
import { isAppError } from "../errors/app-error";
import { reportPeriods, resolveReportRange } from "./report-period";

const refused = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return isAppError(error) ? error.code : "thrown";
  }
  return "answered";
};

describe("resolveReportRange", () => {
  it("defaults to the last 12 whole months and the current one", () => {
    expect(resolveReportRange({}, "2026-05-10")).toEqual({ from: "2025-05-01", to: "2026-05-10" });
    expect(resolveReportRange({ to: "2026-01-31" }, "2026-05-10")).toEqual({ from: "2025-01-01", to: "2026-01-31" });
    expect(resolveReportRange({ from: "2026-02-03" }, "2026-05-10")).toEqual({ from: "2026-02-03", to: "2026-05-10" });
  });

  it("refuses from after to and more than 36 months", () => {
    expect(refused(() => resolveReportRange({ from: "2026-05-11" }, "2026-05-10"))).toBe("validation_error");
    expect(refused(() => resolveReportRange({ from: "2023-05-10", to: "2026-05-10" }, "2026-05-10"))).toBe("validation_error");
    expect(refused(() => resolveReportRange({ from: "2023-05-11", to: "2026-05-10" }, "2026-05-10"))).toBe("answered");
  });
});

describe("reportPeriods", () => {
  it("cuts the calendar periods the range touches to it", () => {
    expect(reportPeriods({ from: "2026-01-15", to: "2026-03-02" }, "month")).toEqual([
      { start: "2026-01-15", end: "2026-01-31" },
      { start: "2026-02-01", end: "2026-02-28" },
      { start: "2026-03-01", end: "2026-03-02" },
    ]);
    expect(reportPeriods({ from: "2025-11-20", to: "2026-04-01" }, "quarter")).toEqual([
      { start: "2025-11-20", end: "2025-12-31" },
      { start: "2026-01-01", end: "2026-03-31" },
      { start: "2026-04-01", end: "2026-04-01" },
    ]);
    expect(reportPeriods({ from: "2024-02-29", to: "2026-01-01" }, "year")).toEqual([
      { start: "2024-02-29", end: "2024-12-31" },
      { start: "2025-01-01", end: "2025-12-31" },
      { start: "2026-01-01", end: "2026-01-01" },
    ]);
    expect(reportPeriods({ from: "2026-05-10", to: "2026-05-10" }, "month")).toEqual([
      { start: "2026-05-10", end: "2026-05-10" },
    ]);
  });
});
