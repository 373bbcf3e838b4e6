// K7 (pinned-wave2 §2.1) on the database: what a scope has committed from today to `end`, and
// what it has reserved. The calendar rules are commitments-calendar.ts (pure); this file reads
// the rows they need and values them at today's current rate (K5: each record converted once,
// half even, so the listed items add up to the totals).
//
// - Planned events: counted commitments (K3) with occurred_on ≤ end and a direction (K4); one
//   before today is dated today, overdue. Loaded as rows: they are the items the answer lists.
// - Subscription charges: `active` subscriptions of the scope, rolled from next_charge_on, none
//   before today, none on a day a confirmed event of that subscription is dated. A project
//   counts its own unallocated subscriptions in full and, of every allocated subscription of its
//   business, its share_bps part of each charge (largest remainder, original currency).
//   A subscription with allocations counts only by them, so none counts twice.
// - Reserved: Σ (amount_minor − released_minor) of `active` reservations with expires_on null or
//   ≥ today; undated. Grouped in SQL by (currency, remaining amount); each group is one
//   conversion times its count, which is exactly the sum of the records' conversions.
// - Ad budgets (pinned-wave3 §1.3): each day a campaign has a known daily budget (its planned or
//   applied changes, campaign-budgets.ts), that budget as an out commitment of the day. Held as
//   one item per campaign and day, so the day-by-day sums need nothing else; the answer's list
//   merges a campaign's days into one item (toCommitmentItemDtos).
import type { TDbOrTx } from "../db/client";
import { PREPARED } from "../db/prepared-statements";
import { Prisma } from "../db/generated/client";
import { campaignBudgetChanges } from "./campaign-budgets";
import { campaignBudgetDays, chargeDates, plannedDay, projectPart, type TBillingInterval } from "./commitments-calendar";
import { commitmentCountedSql, commitmentCountedThenSql, directionSql } from "./counted";
import { currentAmounts, toBigInt, toMinor, type TSummaryConversion } from "./display";
import { daySql } from "./period";
import type { TCommitmentItem } from "./read-model.schema";
import { oncePerRequest } from "./request-memo";
import { eventScopeSql, readScopeKey, reservationScopeSql, subscriptionScopeSql, type TReadScope } from "./scope";
import type { TOwnerDay } from "../shared/owner-today";

/** A commitment with its amounts as bigint (base: today's current rate). */
export type TCommitment = {
  kind: "planned" | "subscription" | "ad_budget";
  id: string;
  name: string;
  date: string;
  direction: "in" | "out";
  amountMinor: bigint;
  currency: string;
  baseAmountMinor: bigint;
  overdue: boolean;
  shareBps: number | null;
  /** ad_budget: the campaign whose daily budget this is (`id`: the change in effect that day). */
  campaign?: { integrationId: string; campaignId: string };
};

export type TCommitments = {
  /** Every commitment in [today, end], date ascending (planned before subscriptions on a day). */
  items: TCommitment[];
  /** Their current-rate conversions (the envelope's fx). */
  conversions: TSummaryConversion[];
};

type TPlannedRow = {
  id: string;
  type: string;
  amount_minor: unknown;
  currency: string;
  day: string;
  description: string | null;
  category: string | null;
  direction: "in" | "out";
};

type TSubscriptionRow = {
  id: string;
  name: string;
  amount_minor: unknown;
  currency: string;
  billing_interval: TBillingInterval;
  anchor: string;
  allocated: boolean;
};

type TUnvalued = Omit<TCommitment, "baseAmountMinor">;

/** Planned events of the scope due by `end` (K3 commitments with a direction), or those known at `knownAt`. */
async function plannedRows(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, end: string, knownAt?: Date): Promise<TUnvalued[]> {
  const counted = knownAt ? commitmentCountedThenSql("e", knownAt) : commitmentCountedSql("e");
  const rows = await db.$queryRaw<TPlannedRow[]>`${PREPARED}
    SELECT e.id::text AS id, e.type, e.amount_minor, e.currency::text AS currency,
           to_char(e.occurred_on, 'YYYY-MM-DD') AS day, e.description, e.category, ${directionSql("e")} AS direction
      FROM financial_events e
     WHERE ${eventScopeSql("e", day.ownerId, scope)} AND ${counted}
       AND e.occurred_on <= ${daySql(end)} AND ${directionSql("e")} IS NOT NULL`;
  return rows.map((row) => ({
    kind: "planned",
    id: row.id,
    name: row.description ?? row.category ?? row.type,
    ...plannedDay(row.day, day.today),
    direction: row.direction,
    amountMinor: toBigInt(row.amount_minor),
    currency: row.currency,
    shareBps: null,
  }));
}

/**
 * The scope's active subscriptions (with `knownAt`: those created before it; the ledger keeps no
 * history of a subscription's status, so the current one is taken). A project: its own
 * subscriptions and its business's with an allocation to it; `allocated` says whether a
 * subscription is split by allocations.
 */
function subscriptionRows(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, knownAt?: Date): Promise<TSubscriptionRow[]> {
  const where =
    scope.kind === "project"
      ? Prisma.sql`s.owner_id = ${day.ownerId}::uuid
          AND (s.project_id = ${scope.projectId}::uuid
               OR (s.business_id = ${scope.businessId}::uuid
                   AND EXISTS (SELECT 1 FROM subscription_allocations a
                                WHERE a.subscription_id = s.id AND a.project_id = ${scope.projectId}::uuid)))`
      : subscriptionScopeSql("s", day.ownerId, scope);
  return db.$queryRaw<TSubscriptionRow[]>`
    SELECT s.id::text AS id, s.name, s.amount_minor, s.currency::text AS currency, s.billing_interval,
           to_char(s.next_charge_on, 'YYYY-MM-DD') AS anchor,
           EXISTS (SELECT 1 FROM subscription_allocations a WHERE a.subscription_id = s.id) AS allocated
      FROM subscriptions s
     WHERE ${where} AND s.status = 'active' ${knownAt ? Prisma.sql`AND s.created_at < ${knownAt}` : Prisma.empty}`;
}

/** Subscription charges of the scope in [today, end] (with `knownAt`: as known then). */
async function chargeItems(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, end: string, knownAt?: Date): Promise<TUnvalued[]> {
  if (end < day.today) return [];
  const subscriptions = await subscriptionRows(db, day, scope, knownAt);
  if (subscriptions.length === 0) return [];
  const ids = subscriptions.map((s) => s.id);
  // Days already charged by a confirmed event of the subscription (POST /v1/recurring-expenses'
  // first charge): one query for all of them.
  const charged = await db.$queryRaw<Array<{ subscription_id: string; day: string }>>`
    SELECT DISTINCT e.subscription_id::text AS subscription_id, to_char(e.occurred_on, 'YYYY-MM-DD') AS day
      FROM financial_events e
     WHERE e.owner_id = ${day.ownerId}::uuid AND e.subscription_id = ANY(${ids}::uuid[])
       AND ${knownAt ? Prisma.sql`e.created_at < ${knownAt} AND (e.status = 'confirmed' OR e.uncounted_at >= ${knownAt})` : Prisma.sql`e.status = 'confirmed'`}
       AND e.occurred_on BETWEEN ${daySql(day.today)} AND ${daySql(end)}`;
  const skip = new Map<string, Set<string>>();
  for (const row of charged) skip.set(row.subscription_id, (skip.get(row.subscription_id) ?? new Set()).add(row.day));

  const allocations =
    scope.kind === "project" && subscriptions.some((s) => s.allocated)
      ? await db.subscriptionAllocation.findMany({
          where: { subscriptionId: { in: subscriptions.filter((s) => s.allocated).map((s) => s.id) } },
          select: { subscriptionId: true, projectId: true, shareBps: true },
        })
      : [];
  const items: TUnvalued[] = [];
  for (const subscription of subscriptions) {
    const amount = toBigInt(subscription.amount_minor);
    let part: { amountMinor: bigint; shareBps: number | null } | null = { amountMinor: amount, shareBps: null };
    if (scope.kind === "project" && subscription.allocated) {
      part = projectPart(
        amount,
        allocations.filter((a) => a.subscriptionId === subscription.id),
        scope.projectId,
      );
    }
    if (part === null) continue;
    const dates = chargeDates({
      nextChargeOn: subscription.anchor,
      interval: subscription.billing_interval,
      today: day.today,
      end,
      skip: skip.get(subscription.id),
    });
    for (const date of dates) {
      items.push({
        kind: "subscription",
        id: subscription.id,
        name: subscription.name,
        date,
        direction: "out",
        amountMinor: part.amountMinor,
        currency: subscription.currency,
        overdue: false,
        shareBps: part.shareBps,
      });
    }
  }
  return items;
}

/** Each day a campaign of the scope has a known daily budget in [today, end]: its budget that day (§1.3). */
async function adBudgetItems(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, end: string, knownAt?: Date): Promise<TUnvalued[]> {
  const changes = await campaignBudgetChanges(db, day, scope, end, knownAt);
  const byCampaign = new Map<string, typeof changes>();
  for (const change of changes) {
    const key = `${change.integrationId}|${change.campaignId}`;
    byCampaign.set(key, [...(byCampaign.get(key) ?? []), change]);
  }
  const items: TUnvalued[] = [];
  for (const campaignChanges of byCampaign.values()) {
    for (const { date, change } of campaignBudgetDays(campaignChanges, day.today, end)) {
      items.push({
        kind: "ad_budget",
        id: change.id,
        name: `Ad budget ${change.campaignId}`,
        date,
        direction: "out",
        amountMinor: change.dailyBudgetMinor,
        currency: change.currency,
        overdue: false,
        shareBps: null,
        campaign: { integrationId: change.integrationId, campaignId: change.campaignId },
      });
    }
  }
  return items;
}

const KIND_ORDER = { planned: 0, subscription: 1, ad_budget: 2 } as const;

function byDate(a: TUnvalued, b: TUnvalued): number {
  return (
    a.date.localeCompare(b.date) ||
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
    a.name.localeCompare(b.name) ||
    a.id.localeCompare(b.id)
  );
}

/**
 * The scope's commitments from today to `end` (inclusive), each valued at today's rate. With
 * `knownAt`, as known at that instant (the daily brief: `day.today` is its date, `knownAt` that
 * day's end): planned events created before it that were open then, subscriptions created before it.
 */
export function loadCommitments(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  end: string,
  options: { knownAt?: Date } = {},
): Promise<TCommitments> {
  // Once per request: the business context's forecast and free capital both ask for its 30 days.
  const key = `commitments:${readScopeKey(scope)}:${end}:${options.knownAt?.toISOString() ?? "now"}`;
  return oncePerRequest(db, day, key, () => readCommitments(db, day, scope, end, options.knownAt));
}

async function readCommitments(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  end: string,
  knownAt?: Date,
): Promise<TCommitments> {
  const [planned, charges, adBudgets] = await Promise.all([
    plannedRows(db, day, scope, end, knownAt),
    chargeItems(db, day, scope, end, knownAt),
    adBudgetItems(db, day, scope, end, knownAt),
  ]);
  const unvalued = [...planned, ...charges, ...adBudgets].sort(byDate);
  const { amounts, conversions } = await currentAmounts(db, day, unvalued);
  return { items: unvalued.map((item, i) => ({ ...item, baseAmountMinor: amounts[i]! })), conversions };
}

/** The out commitments only (free capital, upcoming costs): inflows never count there. */
export function outgoing(commitments: TCommitments): TCommitments {
  const keep = commitments.items.map((item) => item.direction === "out");
  return {
    items: commitments.items.filter((_, i) => keep[i]),
    conversions: commitments.conversions.filter((_, i) => keep[i]),
  };
}

/** Σ of planned, subscription and ad budget commitments (planned by direction), in the base currency. */
export function commitmentTotals(items: readonly TCommitment[]) {
  const totals = { plannedIn: 0n, plannedOut: 0n, subscriptions: 0n, adBudgets: 0n };
  for (const item of items) {
    if (item.kind === "subscription") totals.subscriptions += item.baseAmountMinor;
    else if (item.kind === "ad_budget") totals.adBudgets += item.baseAmountMinor;
    else if (item.direction === "in") totals.plannedIn += item.baseAmountMinor;
    else totals.plannedOut += item.baseAmountMinor;
  }
  return totals;
}

/**
 * The CommitmentItem list of commitments in date order (base_amount_minor stays in the base
 * currency: a breakdown). A campaign's ad budget days become ONE item where its first day falls:
 * from, to, its days' sums, and the budget (and change) of its last day. `at` is the list's path
 * in the answer ("items"), naming an amount beyond the exact range ("items.3.amount_minor").
 */
export function toCommitmentItemDtos(items: readonly TCommitment[], at: string): TCommitmentItem[] {
  const answer: TCommitmentItem[] = [];
  const campaigns = new Map<string, { dto: TCommitmentItem; path: string; amount: bigint; base: bigint }>();
  for (const item of items) {
    const path = `${at}.${answer.length}`;
    if (item.kind !== "ad_budget" || !item.campaign) {
      answer.push(toCommitmentItemDto(item, path));
      continue;
    }
    const key = `${item.campaign.integrationId}|${item.campaign.campaignId}|${item.currency}`;
    const seen = campaigns.get(key);
    if (!seen) {
      const dto = {
        ...toCommitmentItemDto(item, path),
        from: item.date,
        to: item.date,
        campaign_id: item.campaign.campaignId,
        integration_id: item.campaign.integrationId,
        daily_budget_minor: toMinor(item.amountMinor, `${path}.daily_budget_minor`),
      };
      campaigns.set(key, { dto, path, amount: item.amountMinor, base: item.baseAmountMinor });
      answer.push(dto);
      continue;
    }
    seen.amount += item.amountMinor;
    seen.base += item.baseAmountMinor;
    Object.assign(seen.dto, {
      id: item.id,
      to: item.date,
      amount_minor: toMinor(seen.amount, `${seen.path}.amount_minor`),
      base_amount_minor: toMinor(seen.base, `${seen.path}.base_amount_minor`),
      daily_budget_minor: toMinor(item.amountMinor, `${seen.path}.daily_budget_minor`),
    });
  }
  return answer;
}

/** One commitment's CommitmentItem shape; `at` is its path in the answer ("items.3"). */
function toCommitmentItemDto(item: TCommitment, at: string): TCommitmentItem {
  return {
    kind: item.kind,
    id: item.id,
    name: item.name,
    date: item.date,
    direction: item.direction,
    amount_minor: toMinor(item.amountMinor, `${at}.amount_minor`),
    currency: item.currency,
    base_amount_minor: toMinor(item.baseAmountMinor, `${at}.base_amount_minor`),
    overdue: item.overdue,
    share_bps: item.shareBps,
  };
}

/** K7 reserved: the scope's active reservations not expired before today, at today's rate; once per request. */
export function loadReserved(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
): Promise<{ amountMinor: bigint; conversions: TSummaryConversion[] }> {
  return oncePerRequest(db, day, `reserved:${readScopeKey(scope)}`, () => readReserved(db, day, scope));
}

async function readReserved(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
): Promise<{ amountMinor: bigint; conversions: TSummaryConversion[] }> {
  const groups = await db.$queryRaw<Array<{ currency: string; remaining: unknown; count: unknown }>>`${PREPARED}
    SELECT r.currency::text AS currency, (r.amount_minor - r.released_minor) AS remaining, COUNT(*) AS count
      FROM budget_reservations r
     WHERE ${reservationScopeSql("r", day.ownerId, scope)} AND r.status = 'active'
       AND (r.expires_on IS NULL OR r.expires_on >= ${daySql(day.today)})
     GROUP BY 1, 2`;
  const { amounts, conversions } = await currentAmounts(
    db,
    day,
    groups.map((g) => ({ amountMinor: toBigInt(g.remaining), currency: g.currency })),
  );
  let total = 0n;
  const weighted = conversions.map((conversion, i) => {
    const count = toBigInt(groups[i]!.count);
    total += amounts[i]! * count;
    return { ...conversion, amountMinor: conversion.amountMinor * count };
  });
  return { amountMinor: total, conversions: weighted };
}
