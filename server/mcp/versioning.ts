// The companion tool protocol's versioning (contract, Versioning 7): the REST policy applied to
// MCP tools.
//   - Every tool declares itself experimental or stable; a new tool starts experimental, and a
//     tool is never more stable than the /v1 operation it calls (an experimental operation's
//     tool is experimental). Promotion follows Versioning 6 (a changelog entry, never a shape
//     change in the same step).
//   - A deprecated tool's description starts with the deprecation marker, its sunset date and
//     its replacement; it is served until the sunset date and removed only after it, in a
//     release whose MCP server version (the contract's major.minor) moves.
//   - The MCP server's version is the contract's major.minor: tools follow the contract, not a
//     numbering of their own.
import { CONTRACT_VERSION } from "../shared/contract-version";

export type TStability = "experimental" | "stable";

/** How a deprecated tool is declared (sunset and replacement are what its description shows). */
export type TToolDeprecation = {
  /**
   * The day the deprecation was announced (YYYY-MM-DD); a tool declares it. A tool deprecated
   * because its /v1 operation is carries the operation's sunset and link only.
   */
  since?: string;
  /** The first day the tool may be gone (YYYY-MM-DD), at least 90 days after `since` (Versioning 4). */
  sunset: string;
  /** What to call instead: a tool name, or where the changelog says. */
  replacement: string;
};

/** The first words of a deprecated tool's description. */
export const DEPRECATED_MARKER = "[DEPRECATED]";
/** The first words of an experimental tool's description (after a deprecation prefix, if any). */
export const EXPERIMENTAL_MARKER = "[EXPERIMENTAL]";
/** Versioning 4: a deprecation lasts at least this long. */
export const MIN_DEPRECATION_DAYS = 90;

/** `_meta` keys every tool carries (neutral prefix, as the contract's X-Service-* headers). */
export const META_STABILITY = "x-service/stability";
export const META_OPERATION = "x-service/operation";
export const META_DEPRECATION = "x-service/deprecation";

/** The MCP server's version: the contract's major.minor ("1.0.0-rc.9" → "1.0"). */
export function mcpServerVersion(contractVersion: string = CONTRACT_VERSION): string {
  const match = /^(\d+)\.(\d+)\./.exec(contractVersion);
  if (!match) throw new Error(`The contract version ${contractVersion} is not major.minor.patch`);
  return `${match[1]}.${match[2]}`;
}

/** The prefix of a deprecated tool's description: marker, sunset date, replacement. */
export function deprecationPrefix(deprecation: TToolDeprecation): string {
  return `${DEPRECATED_MARKER} Sunset ${deprecation.sunset}; use ${deprecation.replacement} instead.`;
}

/** A tool's description: the deprecation prefix, then the experimental marker, then the text. */
export function toolDescription(text: string, stability: TStability, deprecation?: TToolDeprecation): string {
  const parts: string[] = [];
  if (deprecation) parts.push(deprecationPrefix(deprecation));
  if (stability === "experimental") parts.push(`${EXPERIMENTAL_MARKER} May change without a deprecation period.`);
  parts.push(text);
  return parts.join(" ");
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function dayNumber(day: string): number | null {
  if (!DAY.test(day)) return null;
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== day ? null : time / 86_400_000;
}

/** What a tool declares about its own versioning, beside the operation it calls. */
export type TVersionedTool = {
  name: string;
  stability: TStability;
  deprecation?: TToolDeprecation;
  /** Whether the /v1 operation it calls is experimental. */
  operationExperimental: boolean;
};

/**
 * What is wrong with a set of tool declarations under Versioning 7 (empty: nothing). Checked
 * when the server is built, so a wrong declaration never reaches a client.
 */
export function versioningProblems(tools: readonly TVersionedTool[]): string[] {
  const problems: string[] = [];
  const names = new Set(tools.map((tool) => tool.name));
  for (const tool of tools) {
    if (tool.stability === "stable" && tool.operationExperimental) {
      problems.push(`${tool.name} is declared stable but calls an experimental operation`);
    }
    const deprecation = tool.deprecation;
    if (!deprecation) continue;
    const since = deprecation.since === undefined ? undefined : dayNumber(deprecation.since);
    const sunset = dayNumber(deprecation.sunset);
    if (since === null) problems.push(`${tool.name}: deprecation since ${deprecation.since} is not a day (YYYY-MM-DD)`);
    if (sunset === null) problems.push(`${tool.name}: sunset ${deprecation.sunset} is not a day (YYYY-MM-DD)`);
    if (since != null && sunset !== null && sunset - since < MIN_DEPRECATION_DAYS) {
      problems.push(
        `${tool.name}: sunset ${deprecation.sunset} is less than ${MIN_DEPRECATION_DAYS} days after ${deprecation.since}`,
      );
    }
    const replacement = deprecation.replacement.trim();
    if (!replacement) problems.push(`${tool.name}: a deprecation names its replacement`);
    else if (replacement === tool.name) problems.push(`${tool.name}: a tool cannot replace itself`);
    else if (/^[a-z][a-z0-9_]*$/.test(replacement) && !names.has(replacement)) {
      problems.push(`${tool.name}: its replacement ${replacement} is not a tool`);
    }
  }
  return problems;
}
