// An agent's grants with what their limits have counted in the current UTC day and month
// (server/access/limits.ts counts them there, only while a grant has the limit).
import type { TGrant } from "../auth/grants";
import { periodEnds, periodStarts } from "../auth/limit-periods";
import type { TDbOrTx } from "../db/client";
import type { AgentGrant } from "../db/generated/client";
import { exactMinorOrNull } from "../fx/money";
import type { TGrantUsage, TGrantWithUsage } from "./agent-me.schema";
import { parseState } from "../shared/parse-state";
import { GRANT_LEVELS, OVER_LIMIT_ACTIONS } from "./agent.schema";

export function toGrant(row: AgentGrant): TGrant {
  return {
    id: row.id,
    scope: row.scope,
    resource: row.resource,
    level: parseState(GRANT_LEVELS, row.level),
    dailyLimitMinor: row.dailyLimitMinor,
    monthlyLimitMinor: row.monthlyLimitMinor,
    currency: row.currency,
    overLimit: parseState(OVER_LIMIT_ACTIONS, row.overLimit),
  };
}

/** The agent's grants, oldest first (as the Agent record lists them). */
export async function loadGrants(db: TDbOrTx, agentId: string): Promise<TGrant[]> {
  const rows = await db.agentGrant.findMany({ where: { agentId }, orderBy: { createdAt: "asc" } });
  return rows.map(toGrant);
}

function usageOf(limit: bigint | null, used: bigint, start: Date, end: Date): TGrantUsage | null {
  if (limit === null) return null;
  const left = limit > used ? limit - used : 0n;
  // Exact: a limit is a safe integer (the grant schema), and the counter never passes it.
  return {
    period_start: start.toISOString().slice(0, 10),
    resets_at: end.toISOString(),
    limit_minor: Number(limit),
    used_minor: Number(used),
    left_minor: Number(left),
  };
}

/** `grants` (of one agent) with their counters of `now`'s UTC day and month. */
export async function withUsage(db: TDbOrTx, grants: TGrant[], now: Date): Promise<TGrantWithUsage[]> {
  const starts = periodStarts(now);
  const ends = periodEnds(now);
  const limited = grants.filter((grant) => grant.dailyLimitMinor !== null || grant.monthlyLimitMinor !== null);
  const counters = limited.length
    ? await db.agentLimitUsage.findMany({
        where: {
          grantId: { in: limited.map((grant) => grant.id) },
          OR: [
            { period: "day", periodStart: starts.day },
            { period: "month", periodStart: starts.month },
          ],
        },
      })
    : [];
  const used = (grantId: string, period: "day" | "month") =>
    counters.find((row) => row.grantId === grantId && row.period === period)?.usedMinor ?? 0n;
  return grants.map((grant) => ({
    scope: grant.scope,
    resource: grant.resource,
    level: grant.level,
    daily_limit_minor: exactMinorOrNull(grant.dailyLimitMinor),
    monthly_limit_minor: exactMinorOrNull(grant.monthlyLimitMinor),
    currency: grant.currency,
    over_limit: grant.overLimit,
    today: usageOf(grant.dailyLimitMinor, used(grant.id, "day"), starts.day, ends.day),
    this_month: usageOf(grant.monthlyLimitMinor, used(grant.id, "month"), starts.month, ends.month),
  }));
}
