// POST /v1/simulations (pinned-wave2 §3.5): what the forecast would say if some things changed.
// Nothing is written and nothing audited (only a denial is, as every scope_denied). Order of
// checks (§1.3): the body and its days (400, every problem at once) → the scope (404) → every id
// the changes name (404) → an agent's grants of finances:observe and forecast:observe covering
// the scope (403 naming what is missing) → ids outside the scope, releases beyond what remains
// (400, every one at once).
//
// Baseline = the §2.5 forecast of the scope and window. The changes alter its inputs (commitments,
// reservations, subscriptions: simulation-changes.ts) and the forecast's own projection runs
// again on them (server/read-models/forecast.ts): an empty list answers the baseline twice.
import { requireGrants, type TAccessCall } from "../access/check-access";
import type { TAgentActor, TOwnerActor } from "../auth/actor";
import type { TResource } from "../auth/grants";
import type { TDbOrTx } from "../db/client";
import { AppError, isAppError } from "../errors/app-error";
import type { TClock } from "../shared/clock";
import type { TOwnerDay } from "../shared/owner-today";
import { projectPart } from "../read-models/commitments-calendar";
import { envelopeCoverage } from "../read-models/coverage";
import { currentAmounts, toMinor, type TCurrentItem, type TSummaryConversion } from "../read-models/display";
import { loadForecastInputs, projectionAmounts, showProjections, type TShownProjection } from "../read-models/forecast";
import { forecastWindow, type TWindow } from "../read-models/forecast-window";
import { readOwnerDay } from "../read-models/period";
import { resolveReadScope, toScopeRef, type TReadScope } from "../read-models/scope";
import { additionDates, applyChanges, dailyDates, type TValuedChange } from "./simulation-changes";
import {
  SIMULATION_COVERAGE,
  SIMULATION_SCOPES,
  type TSimDelta,
  type TSimTotals,
  type TSimulation,
  type TSimulationChange,
  type TSimulationInput,
} from "./simulation.schema";

/** Ad integrations: the ones whose budget a change can move. */
const AD_PROVIDERS = new Set(["social_ads", "search_ads"]);

type TIssue = { path: string; message: string };

function validationError(issues: TIssue[]): AppError {
  const first = issues[0]!;
  return new AppError("validation_error", `${first.path}: ${first.message}`, { details: { issues } });
}

/** The window and every change's day against today: all the problems at once. */
function checkDays(body: TSimulationInput, today: string): TWindow {
  const issues: TIssue[] = [];
  let window: TWindow | null = null;
  try {
    window = forecastWindow(body, today);
  } catch (error) {
    if (!isAppError(error) || error.code !== "validation_error") throw error;
    issues.push(...(error.details as { issues: TIssue[] }).issues);
  }
  body.changes.forEach((change, i) => {
    const day =
      "on" in change ? { field: "on", value: change.on } : "from" in change ? { field: "from", value: change.from } : null;
    if (day?.value !== undefined && day.value < today) {
      issues.push({ path: `changes.${i}.${day.field}`, message: `must not be before today (${today})` });
    }
  });
  if (issues.length > 0) throw validationError(issues);
  return window!;
}

type TScopedRow = { businessId: string | null; projectId: string | null; personal: boolean };

/** Whether a record (a subscription, a reservation) is the scope's, as K2 and K7 read it. */
function inScope(row: TScopedRow, scope: TReadScope, allocatedTo: readonly string[] = []): boolean {
  switch (scope.kind) {
    case "owner":
      return true;
    case "business":
      return row.businessId === scope.businessId;
    case "project":
      return row.projectId === scope.projectId || (row.businessId === scope.businessId && allocatedTo.includes(scope.projectId));
    case "personal":
      return row.personal;
  }
}

/** The grant resource a scope is. */
function resourceOf(scope: TReadScope): TResource {
  return scope;
}

/** The records the changes name, each the owner's or 404 (the first change naming an unknown one). */
async function loadChangeRecords(db: TDbOrTx, ownerId: string, changes: readonly TSimulationChange[]) {
  const ids = (kind: "subscription" | "reservation" | "integration") => [
    ...new Set(
      changes.flatMap((c) =>
        kind === "subscription" && "subscription_id" in c
          ? [c.subscription_id]
          : kind === "reservation" && "reservation_id" in c
            ? [c.reservation_id]
            : kind === "integration" && "integration_id" in c
              ? [c.integration_id]
              : [],
      ),
    ),
  ];
  const scoped = { businessId: true, projectId: true, personal: true } as const;
  const [subscriptionIds, reservationIds, integrationIds] = [ids("subscription"), ids("reservation"), ids("integration")];
  // Only the lookups a change needs.
  const [subscriptions, reservations, integrations] = await Promise.all([
    subscriptionIds.length === 0
      ? []
      : db.subscription.findMany({
          where: { ownerId, id: { in: subscriptionIds } },
          select: {
            id: true,
            ...scoped,
            name: true,
            currency: true,
            status: true,
            allocations: { select: { subscriptionId: true, projectId: true, shareBps: true } },
          },
        }),
    reservationIds.length === 0
      ? []
      : db.budgetReservation.findMany({
          where: { ownerId, id: { in: reservationIds } },
          select: { id: true, ...scoped, amountMinor: true, releasedMinor: true, currency: true, status: true, expiresOn: true },
        }),
    integrationIds.length === 0
      ? []
      : db.integration.findMany({
          where: { ownerId, id: { in: integrationIds } },
          select: { id: true, businessId: true, provider: true },
        }),
  ]);
  const records = {
    subscriptions: new Map(subscriptions.map((s) => [s.id, s])),
    reservations: new Map(reservations.map((r) => [r.id, r])),
    integrations: new Map(integrations.map((r) => [r.id, r])),
  };
  changes.forEach((change, i) => {
    if ("subscription_id" in change && !records.subscriptions.has(change.subscription_id)) {
      throw new AppError("not_found", `No such subscription (changes.${i}.subscription_id).`);
    }
    if ("reservation_id" in change && !records.reservations.has(change.reservation_id)) {
      throw new AppError("not_found", `No such budget reservation (changes.${i}.reservation_id).`);
    }
    if ("integration_id" in change && !records.integrations.has(change.integration_id)) {
      throw new AppError("not_found", `No such integration (changes.${i}.integration_id).`);
    }
  });
  return records;
}

type TChangeRecords = Awaited<ReturnType<typeof loadChangeRecords>>;

/** Changes naming a record outside the scope, and releases beyond what remains: 400, all at once. */
function checkAgainstScope(changes: readonly TSimulationChange[], records: TChangeRecords, scope: TReadScope, day: TOwnerDay) {
  const issues: TIssue[] = [];
  const released = new Map<string, bigint>();
  changes.forEach((change, i) => {
    const outside = (what: string) =>
      issues.push({ path: `changes.${i}`, message: `the ${what} is not in this simulation's scope` });
    switch (change.kind) {
      case "cancel_subscription":
      case "change_subscription": {
        const subscription = records.subscriptions.get(change.subscription_id)!;
        if (
          !inScope(
            subscription,
            scope,
            subscription.allocations.map((a) => a.projectId),
          )
        )
          outside("subscription");
        break;
      }
      case "release_reservation": {
        const reservation = records.reservations.get(change.reservation_id)!;
        if (!inScope(reservation, scope)) {
          outside("budget reservation");
          break;
        }
        const remaining = countedRemaining(reservation, day.today) - (released.get(reservation.id) ?? 0n);
        const amount = change.amount_minor === undefined ? remaining : BigInt(change.amount_minor);
        if (amount > remaining) {
          issues.push({
            path: `changes.${i}.amount_minor`,
            message: `is more than the ${remaining} ${reservation.currency} minor units that remain reserved`,
          });
        }
        released.set(reservation.id, (released.get(reservation.id) ?? 0n) + amount);
        break;
      }
      case "ad_budget_change": {
        const integration = records.integrations.get(change.integration_id)!;
        const ours = scope.kind === "owner" || (scope.kind === "business" && integration.businessId === scope.businessId);
        if (!ours) outside("integration");
        else if (!AD_PROVIDERS.has(integration.provider)) {
          issues.push({ path: `changes.${i}.integration_id`, message: "is not an ad integration (social_ads or search_ads)" });
        }
        break;
      }
      default:
        break;
    }
  });
  if (issues.length > 0) throw validationError(issues);
}

/** What a reservation counts in reserved today (K7): its remainder while active and not expired, else 0. */
function countedRemaining(
  reservation: { amountMinor: bigint; releasedMinor: bigint; status: string; expiresOn: Date | null },
  today: string,
): bigint {
  const expired = reservation.expiresOn !== null && reservation.expiresOn.toISOString().slice(0, 10) < today;
  return reservation.status === "active" && !expired ? reservation.amountMinor - reservation.releasedMinor : 0n;
}

/**
 * The changes dated and valued: every amount converted at today's rate in one lookup (each
 * record once, half even, as K5 values records), with the conversions for the envelope's fx.
 */
async function valueChanges(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  window: TWindow,
  changes: readonly TSimulationChange[],
  records: TChangeRecords,
): Promise<{ valued: TValuedChange[]; conversions: TSummaryConversion[] }> {
  // Each change asks for amounts to convert; `finish` builds it from their base values.
  const toConvert: Array<TCurrentItem & { weight: bigint }> = [];
  const ask = (amountMinor: bigint, currency: string, weight = 1n) => toConvert.push({ amountMinor, currency, weight }) - 1;
  const released = new Map<string, bigint>();
  const builders = changes.map((change, i): ((base: bigint[]) => TValuedChange) => {
    switch (change.kind) {
      case "add_expense":
      case "add_revenue":
      case "ad_budget_change": {
        const dates =
          change.kind === "ad_budget_change"
            ? dailyDates(change.from, window.to)
            : additionDates({ on: change.on, billingInterval: change.billing_interval }, day.today, window.to);
        const amountMinor = BigInt(change.kind === "ad_budget_change" ? change.delta_daily_minor : change.amount_minor);
        const at = ask(amountMinor, change.currency, BigInt(dates.length));
        return (base) => ({
          kind: "commitments",
          index: i,
          name: change.kind,
          direction: change.kind === "add_revenue" ? "in" : "out",
          dates,
          amountMinor,
          currency: change.currency,
          baseAmountMinor: base[at]!,
        });
      }
      case "cancel_subscription":
        return () => ({
          kind: "subscription",
          subscriptionId: change.subscription_id,
          from: change.from ?? day.today,
          charge: null,
        });
      case "change_subscription": {
        const subscription = records.subscriptions.get(change.subscription_id)!;
        let amountMinor = BigInt(change.amount_minor);
        // A project pays its share of an allocated subscription (K7): the same split of the new amount.
        if (scope.kind === "project" && subscription.allocations.length > 0) {
          amountMinor = projectPart(amountMinor, subscription.allocations, scope.projectId)?.amountMinor ?? 0n;
        }
        const at = ask(amountMinor, subscription.currency);
        return (base) => ({
          kind: "subscription",
          subscriptionId: change.subscription_id,
          from: change.from ?? day.today,
          charge: { amountMinor, baseAmountMinor: base[at]! },
        });
      }
      case "add_reservation": {
        const at = ask(BigInt(change.amount_minor), change.currency);
        return (base) => ({ kind: "reserved", deltaMinor: base[at]! });
      }
      case "release_reservation": {
        // Reserved counts each reservation's remainder at today's rate: the change is the
        // remainder after the release valued, less the remainder before it valued.
        const reservation = records.reservations.get(change.reservation_id)!;
        const before = countedRemaining(reservation, day.today) - (released.get(reservation.id) ?? 0n);
        const amount = change.amount_minor === undefined ? before : BigInt(change.amount_minor);
        released.set(reservation.id, (released.get(reservation.id) ?? 0n) + amount);
        const was = ask(before, reservation.currency, 0n);
        const is = ask(before - amount, reservation.currency);
        return (base) => ({ kind: "reserved", deltaMinor: base[is]! - base[was]! });
      }
    }
  });
  const { amounts, conversions } = await currentAmounts(db, day, toConvert);
  return {
    valued: builders.map((build) => build(amounts)),
    conversions: conversions
      .map((conversion, i) => ({ ...conversion, amountMinor: conversion.amountMinor * toConvert[i]!.weight }))
      .filter((conversion) => conversion.amountMinor !== 0n),
  };
}

/** A projection's totals (§3.5 SimTotals), in the display currency; `at` names them in the answer ("baseline"). */
function simTotals(projection: TShownProjection, at: string): TSimTotals {
  const { series } = projection;
  const minor = (value: bigint, field: string) => toMinor(value, `${at}.${field}`);
  const minorOrNull = (value: bigint | null, field: string) => (value === null ? null : minor(value, field));
  const firstNegative = series.days.find((d) => d.balance_committed_minor !== null && d.balance_committed_minor < 0n);
  const committedOut = series.opening.committed_out_minor + series.totals.committed_out_minor;
  return {
    committed_in_minor: minor(series.totals.committed_in_minor, "committed_in_minor"),
    committed_out_minor: minor(series.totals.committed_out_minor, "committed_out_minor"),
    reserved_minor: minor(projection.reservedMinor, "reserved_minor"),
    run_rate_in_minor: minor(series.totals.run_rate_in_minor, "run_rate_in_minor"),
    run_rate_out_minor: minor(series.totals.run_rate_out_minor, "run_rate_out_minor"),
    ending_balance_committed_minor: minorOrNull(series.ending_balance_committed_minor, "ending_balance_committed_minor"),
    lowest_balance_minor: minorOrNull(series.lowest_balance?.amount_minor ?? null, "lowest_balance_minor"),
    lowest_balance_on: series.lowest_balance?.date ?? null,
    first_negative_on: firstNegative?.date ?? null,
    free_capital_minor:
      projection.cashMinor === null
        ? null
        : minor(projection.cashMinor - projection.reservedMinor - committedOut, "free_capital_minor"),
  };
}

function deltaOf(baseline: TSimTotals, simulated: TSimTotals): TSimDelta {
  const difference = (a: number | null, b: number | null, field: string) =>
    a === null || b === null ? null : toMinor(BigInt(b) - BigInt(a), `delta.${field}`);
  const of = (field: keyof TSimDelta) => difference(baseline[field], simulated[field], field);
  return {
    committed_in_minor: of("committed_in_minor")!,
    committed_out_minor: of("committed_out_minor")!,
    reserved_minor: of("reserved_minor")!,
    run_rate_in_minor: of("run_rate_in_minor")!,
    run_rate_out_minor: of("run_rate_out_minor")!,
    ending_balance_committed_minor: of("ending_balance_committed_minor"),
    lowest_balance_minor: of("lowest_balance_minor"),
    free_capital_minor: of("free_capital_minor"),
  };
}

export async function runSimulation(
  db: TDbOrTx,
  input: { actor: TOwnerActor | TAgentActor; clock: TClock; call: TAccessCall; body: TSimulationInput },
) {
  const { body } = input;
  const day = await readOwnerDay(db, input.actor.ownerId, input.clock);
  const window = checkDays(body, day.today);
  const scope = await resolveReadScope(db, day.ownerId, body);
  const records = await loadChangeRecords(db, day.ownerId, body.changes);
  if (input.actor.type === "agent") await requireGrants(input.actor, SIMULATION_SCOPES, resourceOf(scope), input.call);
  checkAgainstScope(body.changes, records, scope, day);

  const [{ inputs }, valuation, coverage] = await Promise.all([
    loadForecastInputs(db, day, scope, window.to),
    valueChanges(db, day, scope, window, body.changes, records),
    envelopeCoverage(db, day, scope, SIMULATION_COVERAGE),
  ]);
  const simulatedInputs = applyChanges(inputs, valuation.valued, valuation.conversions);
  const { shown, displayed } = await showProjections(db, day, {
    displayCurrency: body.display_currency,
    window: { today: day.today, from: window.from, to: window.to },
    projections: { baseline: projectionAmounts(inputs), simulated: projectionAmounts(simulatedInputs) },
    conversions: simulatedInputs.conversions,
  });
  const baseline = simTotals(shown.baseline, "baseline");
  const simulated = simTotals(shown.simulated, "simulated");
  const simulatedDays = shown.simulated.series.days;

  const minorOrNull = (value: bigint | null, field: string) => (value === null ? null : toMinor(value, field));
  const data: TSimulation = {
    currency: displayed.currency,
    base_currency: displayed.baseCurrency,
    scope: toScopeRef(scope),
    from: window.from,
    to: window.to,
    horizon_days: window.horizon_days,
    baseline,
    simulated,
    delta: deltaOf(baseline, simulated),
    days: shown.baseline.series.days.map((d, i) => ({
      date: d.date,
      baseline_balance_minor: minorOrNull(d.balance_committed_minor, `days.${i}.baseline_balance_minor`),
      simulated_balance_minor: minorOrNull(simulatedDays[i]!.balance_committed_minor, `days.${i}.simulated_balance_minor`),
    })),
    fx_used: displayed.fxUsed,
  };
  return { data, fx: displayed.fx, coverage };
}
