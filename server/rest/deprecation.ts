// Versioning 4: a deprecated field or path keeps working for at least 90 days, its answers carry
// Deprecation: true, Sunset (RFC 1123) and Link rel="deprecation" to its changelog entry. After the
// sunset, removing it would be a breaking change, which only /v2 may make: inside /v1 a deprecated
// operation goes on answering as before, with the same headers.
import type { TDeprecation } from "../trpc/meta";

/** Versioning 4: a deprecation lasts at least this long. */
export const MIN_DEPRECATION_DAYS = 90;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function dayNumber(day: string): number | null {
  if (!DAY.test(day)) return null;
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== day ? null : time / 86_400_000;
}

/** What is wrong with an operation's deprecation (empty: nothing); checked when the REST layer is built. */
export function deprecationProblems(operation: string, deprecation: TDeprecation): string[] {
  const problems: string[] = [];
  const since = dayNumber(deprecation.since);
  const sunset = dayNumber(deprecation.sunset);
  if (since === null) problems.push(`${operation}: deprecation since ${deprecation.since} is not a day (YYYY-MM-DD)`);
  if (sunset === null) problems.push(`${operation}: sunset ${deprecation.sunset} is not a day (YYYY-MM-DD)`);
  if (since !== null && sunset !== null && sunset - since < MIN_DEPRECATION_DAYS) {
    problems.push(
      `${operation}: sunset ${deprecation.sunset} is less than ${MIN_DEPRECATION_DAYS} days after ${deprecation.since} (Versioning 4)`,
    );
  }
  if (!deprecation.replacement.trim()) problems.push(`${operation}: a deprecation names its replacement`);
  if (!/CHANGELOG\.md#[\w-]+$/.test(deprecation.link)) {
    problems.push(`${operation}: the link must point at its CHANGELOG.md entry (…/CHANGELOG.md#anchor)`);
  }
  return problems;
}

/** Throws at start-up on a deprecation Versioning 4 does not allow. */
export function assertDeprecations(routes: readonly { method: string; path: string; deprecation?: TDeprecation }[]): void {
  const problems = routes.flatMap((route) =>
    route.deprecation ? deprecationProblems(`${route.method} ${route.path}`, route.deprecation) : [],
  );
  if (problems.length > 0) throw new Error(`Deprecations that Versioning 4 does not allow:\n  ${problems.join("\n  ")}`);
}

/**
 * The headers of every answer of a deprecated operation: before its sunset and after it alike (in
 * /v1 it is never removed), errors included once the route is known.
 */
export function deprecationHeaders(deprecation: TDeprecation | undefined): Record<string, string> {
  if (!deprecation) return {};
  return {
    Deprecation: "true",
    Sunset: new Date(`${deprecation.sunset}T00:00:00Z`).toUTCString(),
    Link: `<${deprecation.link}>; rel="deprecation"`,
  };
}
