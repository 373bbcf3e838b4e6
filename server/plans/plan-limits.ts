// The plans and their limits (pinned-wave2 §5.2): ONE table, read by the write path's check
// (plan-service.ts assertPlanAllows), the Plan resource, the upgrade preview and the OpenAPI
// schema (plan.schema.ts). No zod here: the panel imports it too.

export const PLAN_NAMES = ["free", "pro", "business"] as const;
export type TPlanName = (typeof PLAN_NAMES)[number];

export const PLAN_STATUSES = ["active", "trialing", "expired"] as const;
export type TPlanStatus = (typeof PLAN_STATUSES)[number];

export const PLAN_LIMIT_KEYS = [
  "businesses",
  "projects",
  "agents",
  "integrations",
  "events_per_month",
  "imports_per_month",
] as const;
export type TPlanLimitKey = (typeof PLAN_LIMIT_KEYS)[number];

/** A plan's limits; null = unlimited. */
export type TPlanLimits = Record<TPlanLimitKey, number | null>;

export const PLAN_LIMITS: Readonly<Record<TPlanName, Readonly<TPlanLimits>>> = {
  free: { businesses: 3, projects: 10, agents: 2, integrations: 3, events_per_month: 1_000, imports_per_month: 10 },
  pro: { businesses: 25, projects: 250, agents: 20, integrations: 30, events_per_month: 100_000, imports_per_month: 500 },
  business: {
    businesses: null,
    projects: null,
    agents: null,
    integrations: null,
    events_per_month: null,
    imports_per_month: null,
  },
};

export const PLAN_DISPLAY_NAMES: Readonly<Record<TPlanName, string>> = { free: "Free", pro: "Pro", business: "Business" };

/** What each limit counts (the OpenAPI description and the panel say the same). */
export const PLAN_LIMIT_MEANINGS: Readonly<Record<TPlanLimitKey, string>> = {
  businesses: "businesses",
  projects: "projects, all businesses together",
  agents: "agents not revoked",
  integrations: "integrations active or pending, manual_import not counted",
  events_per_month: "manual events (source MANUAL, agent decisions included) created in the UTC month",
  imports_per_month: "imports confirmed in the UTC month",
};

/** The panel's unit words: "2 of 3 businesses". */
export const PLAN_LIMIT_UNITS: Readonly<Record<TPlanLimitKey, string>> = {
  businesses: "businesses",
  projects: "projects",
  agents: "agents",
  integrations: "integrations",
  events_per_month: "manual events this month",
  imports_per_month: "imports this month",
};

export const TRIAL_DAYS = 14;
/** plan.trial_ending goes out this many days before the trial ends. */
export const TRIAL_ENDING_NOTICE_DAYS = 3;

export function isPlanName(value: string): value is TPlanName {
  return (PLAN_NAMES as readonly string[]).includes(value);
}

/** The limits of a stored plan name (an unknown one counts as free). */
export function limitsOf(plan: string): TPlanLimits {
  return { ...PLAN_LIMITS[isPlanName(plan) ? plan : "free"] };
}

export type TExceeded = { limit: TPlanLimitKey; used: number; allowed: number };

/** The limits `usage` is over under `limits`, in the table's order. */
export function exceededLimits(limits: TPlanLimits, usage: Record<TPlanLimitKey, number>): TExceeded[] {
  return PLAN_LIMIT_KEYS.flatMap((limit) => {
    const allowed = limits[limit];
    return allowed !== null && usage[limit] > allowed ? [{ limit, used: usage[limit], allowed }] : [];
  });
}
