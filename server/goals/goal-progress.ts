// A goal's progress (pinned-wave2 §3.6), computed on read from the read models, never from
// the ledger directly:
//   save       free capital over the next 30 days (GET /v1/free-capital's free_capital_minor)
//   revenue    net revenue since the goal's creation day (financial summary's net_revenue_minor)
//   spend_cap  this month's outflow (financial summary's outflow_minor, month start to today)
//   runway     the runway's days (financial summary's runway, K8)
// Money kinds ask the read model for the goal's currency as display currency, so current_minor
// compares with the target in one currency. ratio = current / target (§1.4); runway not burning
// → 1, unknown → null. A rate the conversion needs that is missing (422 fx_unavailable,
// currency_unsupported), or a figure beyond the exact range (422 amount_out_of_range), makes
// the progress null: a goal always reads.
//
// Decided where the pin is silent:
// - A project has no cash (§2.6): a project's save goal counts its business's pool (as free
//   capital answers a project) and a project's runway goal its business's runway; revenue and
//   spend_cap count the project's own events (K2).
// - "Since creation" is not capped at the read models' 366-day query limit: that limit is
//   resolvePeriod's rule for a period a client asks for (K1), not getFinancialSummary's, which
//   sums any span in SQL; the goal's span is the server's, so a goal a year old still counts
//   everything since it was created.
import { todayIn } from "../../lib/days";
import type { TDbOrTx } from "../db/client";
import type { Goal } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { getFinancialSummary } from "../read-models/financial-summary";
import { getFreeCapital } from "../read-models/free-capital";
import type { TOwnerDay } from "../read-models/period";
import { ratio, type TRunway } from "../read-models/read-model.schema";
import type { TReadScope } from "../read-models/scope";
import type { TGoalKind, TGoalProgress } from "./goal.schema";

/** Free capital's horizon for a save goal: the next 30 days. */
export const SAVE_HORIZON_DAYS = 30;

type TGoalRow = Pick<
  Goal,
  "businessId" | "projectId" | "personal" | "kind" | "targetAmountMinor" | "currency" | "targetDays" | "createdAt"
>;

/** The read models' errors that mean "no figure to show" (no rate to convert with, a sum beyond the exact range): the progress is unknown, not a failure. */
const UNCONVERTIBLE = new Set(["fx_unavailable", "currency_unsupported", "amount_out_of_range"]);

/** A goal's scope as the read models take it (a goal always has one: never the whole owner). */
export type TGoalScope = Exclude<TReadScope, { kind: "owner" }>;

export function goalReadScope(row: Pick<Goal, "businessId" | "projectId" | "personal">): TGoalScope {
  if (row.projectId && row.businessId) return { kind: "project", projectId: row.projectId, businessId: row.businessId };
  if (row.businessId) return { kind: "business", businessId: row.businessId };
  return { kind: "personal" };
}

/** The scope a runway counts: a project has no cash, so its business's. */
export function runwayScopeOf(scope: TGoalScope): Exclude<TGoalScope, { kind: "project" }> {
  return scope.kind === "project" ? { kind: "business", businessId: scope.businessId } : scope;
}

/** The scope as a read model's query fields. */
export function scopeQuery(scope: TGoalScope): { business_id?: string; project_id?: string; personal?: boolean } {
  if (scope.kind === "business") return { business_id: scope.businessId };
  if (scope.kind === "project") return { project_id: scope.projectId };
  return { personal: true };
}

function scopeKey(scope: TGoalScope): string {
  return scope.kind === "project" ? `p:${scope.projectId}` : scope.kind === "business" ? `b:${scope.businessId}` : scope.kind;
}

/** The first day of `day`'s month. */
export function monthStartOf(day: string): string {
  return `${day.slice(0, 8)}01`;
}

/** One promise per key: the same read asked twice is asked once. */
function readOnce() {
  const reads = new Map<string, Promise<unknown>>();
  return <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let pending = reads.get(key) as Promise<T> | undefined;
    if (!pending) {
      pending = read();
      reads.set(key, pending);
    }
    return pending;
  };
}

/**
 * Reads goals' progress at one instant. The same read (kind, scope, currency, span) is asked
 * once however many goals need it (a list of goals of one scope).
 */
export function goalProgressReader(db: TDbOrTx, day: TOwnerDay) {
  const once = readOnce();
  const clock = { now: () => day.now };

  /** A money goal's current amount in its currency; null without cash (save). */
  function currentOf(row: TGoalRow, scope: TGoalScope): Promise<bigint | null> {
    const currency = row.currency ?? undefined;
    switch (row.kind as Exclude<TGoalKind, "runway">) {
      case "save":
        return once(`save:${scopeKey(scope)}:${currency}`, async () => {
          const answer = await getFreeCapital(db, {
            ownerId: day.ownerId,
            clock,
            query: { ...scopeQuery(scope), horizon_days: SAVE_HORIZON_DAYS, display_currency: currency },
          });
          const free = answer.data.free_capital_minor;
          return free === null ? null : BigInt(free);
        });
      case "revenue": {
        // The creation day in the owner's timezone; never after today (a timezone changed since).
        const created = todayIn(day.timezone, row.createdAt);
        const from = created > day.today ? day.today : created;
        return once(`revenue:${scopeKey(scope)}:${currency}:${from}`, async () => {
          const summary = await getFinancialSummary(db, day, scope, { from, to: day.today, displayCurrency: currency });
          return BigInt(summary.data.net_revenue_minor);
        });
      }
      case "spend_cap": {
        const from = monthStartOf(day.today);
        return once(`spend_cap:${scopeKey(scope)}:${currency}`, async () => {
          const summary = await getFinancialSummary(db, day, scope, { from, to: day.today, displayCurrency: currency });
          return BigInt(summary.data.outflow_minor);
        });
      }
    }
  }

  /** The runway (K8, today) of the scope a runway goal counts. */
  function runwayOf(scope: TGoalScope): Promise<TRunway> {
    const counted = runwayScopeOf(scope);
    return once(`runway:${scopeKey(counted)}`, async () => {
      const summary = await getFinancialSummary(db, day, counted, { from: day.today, to: day.today });
      return summary.data.runway;
    });
  }

  return async function progressOf(row: TGoalRow): Promise<TGoalProgress | null> {
    const scope = goalReadScope(row);
    const as_of = day.now.toISOString();
    try {
      if (row.kind === "runway") {
        const runway = await runwayOf(scope);
        if (runway.status === "not_burning") return { current_minor: null, current_days: null, ratio: 1, as_of };
        if (runway.status === "unknown" || runway.days === null)
          return { current_minor: null, current_days: null, ratio: null, as_of };
        return {
          current_minor: null,
          current_days: runway.days,
          ratio: ratio(BigInt(runway.days), BigInt(row.targetDays ?? 0)),
          as_of,
        };
      }
      const current = await currentOf(row, scope);
      return {
        current_minor: current === null ? null : Number(current),
        current_days: null,
        ratio: current === null ? null : ratio(current, row.targetAmountMinor ?? 0n),
        as_of,
      };
    } catch (error) {
      if (error instanceof AppError && UNCONVERTIBLE.has(error.code)) return null;
      throw error;
    }
  };
}
