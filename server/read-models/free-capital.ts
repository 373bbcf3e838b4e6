// Free capital (pinned-wave2 §2.6): GET /v1/free-capital. What is left of the cash once the
// reservations and the out commitments of the window (campaigns' known daily budgets included,
// pinned-wave3 §1.3) are set aside:
//   free_capital = cash − reserved − committed.total (overdue planned costs included; inflows
//   never count; may be negative; null without cash).
// A project has no cash of its own: it answers its business's whole pool, and in `project` its
// own reservations and commitments (its share of allocated subscriptions included).
import type { TDbOrTx } from "../db/client";
import type { TClock } from "../shared/clock";
import { cashPosition, toCashDto } from "./cash";
import { commitmentTotals, loadCommitments, loadReserved, outgoing, toCommitmentItemDtos } from "./commitments";
import { envelopeCoverage } from "./coverage";
import { toDisplay, toMinor } from "./display";
import { freeCapitalWindow, type TWindow } from "./forecast-window";
import { FREE_CAPITAL_COVERAGE, type TFreeCapital, type TFreeCapitalQuery } from "./free-capital.schema";
import { readOwnerDay } from "./period";
import { cashScopeOf, resolveReadScope, toScopeRef, type TReadScope } from "./scope";
import type { TOwnerDay } from "../shared/owner-today";

/** Reserved and out commitments of a scope over the window, in the base. */
async function poolOf(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, to: string) {
  const [reserved, all] = await Promise.all([loadReserved(db, day, scope), loadCommitments(db, day, scope, to)]);
  const commitments = outgoing(all);
  const totals = commitmentTotals(commitments.items);
  return { reserved, commitments, planned: totals.plannedOut, subscriptions: totals.subscriptions, adBudgets: totals.adBudgets };
}

export async function getFreeCapital(
  db: TDbOrTx,
  input: {
    ownerId: string;
    clock: TClock;
    query: TFreeCapitalQuery;
    /** Checks the caller may read the resolved scope (an agent's grant), after its 404 and before any figure. */
    authorize?: (scope: TReadScope) => Promise<void>;
  },
) {
  const day = await readOwnerDay(db, input.ownerId, input.clock);
  const window = freeCapitalWindow(input.query.horizon_days, day.today);
  const scope = await resolveReadScope(db, day.ownerId, input.query);
  await input.authorize?.(scope);
  return freeCapitalOf(db, day, scope, window, input.query.display_currency);
}

/** Free capital of a resolved scope over a checked window (GET /v1/free-capital, and the business context). */
export async function freeCapitalOf(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, window: TWindow, displayCurrency?: string) {
  const poolScope: TReadScope = scope.kind === "project" ? { kind: "business", businessId: scope.businessId } : scope;

  // Independent reads, issued together (see overview.ts).
  const [cash, pool, project, coverage] = await Promise.all([
    cashPosition(db, day, poolScope),
    poolOf(db, day, poolScope, window.to),
    scope.kind === "project" ? poolOf(db, day, scope, window.to) : null,
    envelopeCoverage(db, day, scope, FREE_CAPITAL_COVERAGE),
  ]);

  const components: Record<string, bigint> = {
    reserved: pool.reserved.amountMinor,
    planned: pool.planned,
    subscriptions: pool.subscriptions,
    ad_budgets: pool.adBudgets,
  };
  if (cash) components.cash = cash.amountMinor;
  if (project) {
    components.project_reserved = project.reserved.amountMinor;
    components.project_planned = project.planned;
    components.project_subscriptions = project.subscriptions;
    components.project_ad_budgets = project.adBudgets;
  }
  const displayed = await toDisplay(db, day, {
    displayCurrency,
    components,
    conversions: [
      ...(cash?.conversions ?? []),
      ...pool.reserved.conversions,
      ...pool.commitments.conversions,
      ...(project ? [...project.reserved.conversions, ...project.commitments.conversions] : []),
    ],
  });
  const shown = displayed.amounts;
  // Derived fields recomputed from the shown components, so the identities hold in any currency.
  const committed = (planned: bigint, subscriptions: bigint, adBudgets: bigint, at: string) => ({
    planned_minor: toMinor(planned, `${at}.planned_minor`),
    subscriptions_minor: toMinor(subscriptions, `${at}.subscriptions_minor`),
    ad_budgets_minor: toMinor(adBudgets, `${at}.ad_budgets_minor`),
    total_minor: toMinor(planned + subscriptions + adBudgets, `${at}.total_minor`),
  });
  const total = shown.planned! + shown.subscriptions! + shown.ad_budgets!;
  const data: TFreeCapital = {
    currency: displayed.currency,
    base_currency: displayed.baseCurrency,
    scope: toScopeRef(scope),
    horizon_days: window.horizon_days,
    from: window.from,
    to: window.to,
    cash: toCashDto(cash, cash ? shown.cash : undefined, "cash"),
    cash_scope: cashScopeOf(scope),
    reserved_minor: toMinor(shown.reserved!, "reserved_minor"),
    committed: committed(shown.planned!, shown.subscriptions!, shown.ad_budgets!, "committed"),
    free_capital_minor: cash ? toMinor(shown.cash! - shown.reserved! - total, "free_capital_minor") : null,
    project:
      scope.kind === "project"
        ? {
            project_id: scope.projectId,
            reserved_minor: toMinor(shown.project_reserved!, "project.reserved_minor"),
            committed: committed(
              shown.project_planned!,
              shown.project_subscriptions!,
              shown.project_ad_budgets!,
              "project.committed",
            ),
          }
        : null,
    items: toCommitmentItemDtos(pool.commitments.items, "items"),
    fx_used: displayed.fxUsed,
  };
  // fxBasis is not part of the answer (the output schema leaves it out): for the business context's fx.
  return { data, fx: displayed.fx, coverage, fxBasis: displayed.basis };
}
