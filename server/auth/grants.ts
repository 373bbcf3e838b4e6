// An agent's grants: scope on a resource at a level, with optional limits (DESIGN.md shape).
// Matching is pure: the grants travel with the agent actor.
import type { TScope } from "./scopes";

export type TGrantLevel = "recommend" | "execute";
export type TOverLimit = "approval" | "deny";

export type TGrant = {
  id: string;
  scope: string;
  /** business:<id> | project:<id> | personal | * */
  resource: string;
  level: TGrantLevel;
  dailyLimitMinor: bigint | null;
  monthlyLimitMinor: bigint | null;
  currency: string | null;
  overLimit: TOverLimit;
};

/** What an operation touches, in grant terms. */
export type TResource =
  | { kind: "business"; businessId: string }
  | { kind: "project"; projectId: string; businessId: string }
  | { kind: "personal" }
  | { kind: "owner" }; // the owner as a whole (only `*` covers it)

export function resourceLabel(resource: TResource): string {
  switch (resource.kind) {
    case "business":
      return `business:${resource.businessId}`;
    case "project":
      return `project:${resource.projectId}`;
    case "personal":
      return "personal";
    case "owner":
      return "*";
  }
}

/** How specific a grant's resource is for this resource; -1 when it does not cover it. */
function specificity(grantResource: string, resource: TResource): number {
  if (grantResource === "*") return 0;
  switch (resource.kind) {
    case "business":
      return grantResource === `business:${resource.businessId}` ? 2 : -1;
    case "project":
      if (grantResource === `project:${resource.projectId}`) return 3;
      return grantResource === `business:${resource.businessId}` ? 2 : -1;
    case "personal":
      return grantResource === "personal" ? 2 : -1;
    case "owner":
      return -1;
  }
}

export function hasScope(grants: TGrant[], scope: TScope): boolean {
  return grants.some((grant) => grant.scope === scope);
}

/** The most specific grant of `scope` covering `resource`, or null. */
export function findGrant(grants: TGrant[], scope: TScope, resource: TResource): TGrant | null {
  let best: TGrant | null = null;
  let bestRank = -1;
  for (const grant of grants) {
    if (grant.scope !== scope) continue;
    const rank = specificity(grant.resource, resource);
    if (rank > bestRank) {
      best = grant;
      bestRank = rank;
    }
  }
  return best;
}
