// What an owner's read models answer, for tests that prove an operation leaves them as they were
// (an overlapping statement, a reverted import): the business's financial summary, the
// Overview, the business's forecast (its run rate reads the last 90 days' actuals) and the events
// list's totals, each as the API answers it, less what only says when it was computed.
import { expect } from "vitest";
import type { TTestApi } from "./api";

/**
 * Keys that say when an answer was made, or how fresh its sources are, not what it counts; and
 * the totals' not_counted, the number of rows left out (a reconciled or voided line is one more
 * row the list shows, and counts nowhere).
 */
const IGNORED_KEYS = new Set([
  "generated_at",
  "computed_at",
  "as_of",
  "last_import_at",
  "last_data_at",
  "at",
  "request_id",
  "not_counted",
]);

function withoutClock(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutClock);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => !IGNORED_KEYS.has(key))
        .map(([key, inner]) => [key, withoutClock(inner)]),
    );
  }
  return value;
}

export type TReadModels = Record<string, unknown>;

/** The read models of one business over [from, to] (the forecast: its default window from today). */
export async function readModels(
  api: TTestApi,
  token: string,
  scope: { businessId: string; from: string; to: string },
): Promise<TReadModels> {
  const period = `from=${scope.from}&to=${scope.to}`;
  const paths = {
    summary: `/v1/businesses/${scope.businessId}/financial-summary?${period}`,
    overview: `/v1/overview?${period}`,
    forecast: `/v1/businesses/${scope.businessId}/forecast`,
    totals: `/v1/events/totals?${period}&business_id=${scope.businessId}`,
  };
  const answers: TReadModels = {};
  for (const [name, path] of Object.entries(paths)) {
    const response = await api.call("GET", path, { token });
    expect(response.status, `${path}: ${response.text}`).toBe(200);
    answers[name] = withoutClock(response.body.data);
  }
  return answers;
}
