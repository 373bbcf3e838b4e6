// An agent's grants as the panel edits them: one draft row per grant, limits typed in MAJOR
// units and converted to exact minor units (lib/money.ts) when the form is sent, and the
// server's refusals led back to the control they concern. No React: unit-tested in grants.test.ts.
import { majorToMinor, minorToMajor } from "@/lib/money";
import type { TFieldIssue } from "@/lib/trpc/errors";
import type { TAgent } from "@/server/agents/agent.schema";
import type { TScope } from "@/server/auth/scopes";
import { isValidCidr, SCOPES } from "@/server/panel-contract";

export type TGrantRecord = TAgent["grants"][number];

/** A resource a grant can name, with the owner's words for it. */
export type TResourceOption = { value: string; label: string; group: "General" | "Businesses" | "Projects" };

export const SCOPE_LABELS: Record<TScope, string> = {
  "finances:observe": "Finances: observe",
  "forecast:observe": "Forecast: observe",
  ads: "Ads",
};

export const SCOPE_OPTIONS = SCOPES.map((scope) => ({ value: scope, label: SCOPE_LABELS[scope] }));

export const LEVEL_OPTIONS = [
  { value: "recommend", label: "Recommend: I approve" },
  { value: "execute", label: "Execute within limits" },
] as const;

export const OVER_LIMIT_OPTIONS = [
  { value: "approval", label: "Ask me to approve" },
  { value: "deny", label: "Refuse" },
] as const;

export type TGrantDraft = {
  key: string;
  scope: TScope;
  resource: string;
  level: "recommend" | "execute";
  daily: string;
  monthly: string;
  currency: string;
  over_limit: "approval" | "deny";
};

/** What the server takes (agents.create / agents.update `grants`). */
export type TGrantInput = {
  scope: TScope;
  resource: string;
  level: "recommend" | "execute";
  daily_limit_minor: number | null;
  monthly_limit_minor: number | null;
  currency: string | null;
  over_limit: "approval" | "deny";
};

let nextKey = 0;
function newKey(): string {
  nextKey += 1;
  return `grant-${nextKey}`;
}

/**
 * The resource a new grant row starts on (issue 37): the business in view (the page was opened
 * from it), else the business of the row above, else the first business. "All resources" is the
 * widest grant there is, so it is never the default while a business exists: choosing it is
 * deliberate. Without a business, "*" (Personal and all are then the same money).
 */
export function defaultGrantResource(
  resources: ReadonlyArray<TResourceOption>,
  hints: { inView?: string | null; above?: ReadonlyArray<Pick<TGrantDraft, "resource">> },
): string {
  const businesses = resources.filter((option) => option.group === "Businesses").map((option) => option.value);
  const inView = hints.inView ? `business:${hints.inView}` : null;
  if (inView && businesses.includes(inView)) return inView;
  const above = hints.above?.at(-1)?.resource;
  if (above && businesses.includes(above)) return above;
  return businesses[0] ?? "*";
}

export function emptyDraft(defaultCurrency: string, resource = "*"): TGrantDraft {
  return {
    key: newKey(),
    scope: "ads",
    resource,
    level: "recommend",
    daily: "",
    monthly: "",
    currency: defaultCurrency,
    over_limit: "approval",
  };
}

export function draftFromGrant(grant: TGrantRecord, defaultCurrency: string): TGrantDraft {
  const currency = grant.currency ?? defaultCurrency;
  return {
    key: newKey(),
    scope: (SCOPES as readonly string[]).includes(grant.scope) ? (grant.scope as TScope) : "ads",
    resource: grant.resource,
    level: grant.level,
    daily: grant.daily_limit_minor === null ? "" : minorToMajor(grant.daily_limit_minor, currency),
    monthly: grant.monthly_limit_minor === null ? "" : minorToMajor(grant.monthly_limit_minor, currency),
    currency,
    over_limit: grant.over_limit,
  };
}

/**
 * The drafts as the server's grants, or the problems found on the way (keyed by the same
 * paths the server uses: `grants.0.daily_limit_minor`). Only what cannot be converted is
 * checked here; everything else is the server's to judge.
 */
export function grantsFromDrafts(drafts: TGrantDraft[]): { grants: TGrantInput[]; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const grants = drafts.map((draft, index): TGrantInput => {
    const hasLimit = draft.daily.trim() !== "" || draft.monthly.trim() !== "";
    const currency = draft.currency.trim().toUpperCase();
    const limit = (text: string, field: "daily_limit_minor" | "monthly_limit_minor"): number | null => {
      if (text.trim() === "") return null;
      if (!currency) return null;
      const parsed = majorToMinor(text, currency);
      if (parsed.ok) return parsed.minor;
      errors[`grants.${index}.${field}`] = parsed.message;
      return null;
    };
    if (hasLimit && !currency) errors[`grants.${index}.currency`] = "Choose the currency of the limit.";
    return {
      scope: draft.scope,
      resource: draft.resource,
      level: draft.level,
      daily_limit_minor: limit(draft.daily, "daily_limit_minor"),
      monthly_limit_minor: limit(draft.monthly, "monthly_limit_minor"),
      currency: hasLimit ? currency || null : null,
      over_limit: draft.over_limit,
    };
  });
  return { grants, errors };
}

/** "10.0.0.0/8, 192.0.2.7\n2001:db8::/32" → the three entries (commas, spaces or lines apart). */
export function parseIpRanges(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** The resource's name for people: "All resources", "Personal", "Business · Atlas Studio". */
export function resourceLabel(resource: string, options: TResourceOption[]): string {
  const known = options.find((option) => option.value === resource);
  if (known) return known.label;
  if (resource.startsWith("business:")) return "A business no longer listed";
  if (resource.startsWith("project:")) return "A project no longer listed";
  return resource;
}

export function levelLabel(level: "recommend" | "execute"): string {
  return level === "recommend" ? "Recommend" : "Execute";
}

const GRANT_FIELDS = ["scope", "resource", "level", "daily_limit_minor", "monthly_limit_minor", "currency", "over_limit"];

/**
 * Which control of the agent form a server issue belongs to (`grants.0.currency`, the grant's
 * row for a field it does not show, the IP ranges box naming the entry), or null: the summary.
 */
export function agentFormFieldOf(ipRanges: string[]) {
  return (issue: TFieldIssue): { field: string; message?: string } | null => {
    const { path, message } = issue;
    if (path === "name") return { field: "name" };
    const grant = /^grants\.(\d+)\.([a-z_]+)/.exec(path);
    if (grant) return { field: GRANT_FIELDS.includes(grant[2]!) ? `grants.${grant[1]}.${grant[2]}` : `grants.${grant[1]}` };
    if (/^grants(\.\d+)?$/.test(path)) return { field: path };
    const range = /^allowed_ip_ranges(?:\.(\d+))?/.exec(path);
    if (range) {
      const entry = range[1] === undefined ? undefined : ipRanges[Number(range[1])];
      return { field: "allowed_ip_ranges", message: entry === undefined ? message : `“${entry}” ${message}` };
    }
    return null;
  };
}

/**
 * What the agent form checks before sending, besides the grants' limits: a name, and IP ranges
 * that are addresses or CIDR ranges (the server's rules, so it would refuse the same).
 */
export function agentFormChecks(name: string, ipRanges: string[]): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!name.trim()) errors.name = "Enter a name.";
  const invalid = ipRanges.filter((range) => !isValidCidr(range));
  if (invalid.length > 0)
    // Worded as the server words it (ZIpRanges), so the message does not change with who found it.
    errors.allowed_ip_ranges = `${invalid.map((range) => `“${range}”`).join(", ")} ${
      invalid.length === 1 ? "must be an IP address or CIDR range" : "must be IP addresses or CIDR ranges"
    }.`;
  return errors;
}
