// Subscriptions (recurring costs) of one owner, with their allocations over projects and their
// capacity. Every query carries the owner id, so another owner's subscription is not_found.
// Writes that change a subscription first lock its row (an UPDATE of updated_at), so two
// concurrent replacements of its allocations or capacity run one after the other.
import { utcDayOf, utcMidnightOf } from "../../lib/days";
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import { requireBusiness } from "../businesses/business-service";
import type { TDbOrTx, TTx } from "../db/client";
import type { Prisma, Subscription, SubscriptionAllocation, SubscriptionCapacity } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { assertKnownCurrency } from "../shared/currencies";
import { pageArgs, toPage, type TPageQuery } from "../shared/pagination";
import { resolveScope, toScopeDto } from "../shared/scope";
import { distributeByBps, sortAllocations, TOTAL_BPS } from "./allocation-math";
import { toBaseAmounts, toBaseAmountsForWrite, type TBaseAmount } from "../fx/base-amounts";
import { exactMinorOrNull } from "../fx/money";
import {
  BILLING_INTERVALS,
  SUBSCRIPTION_STATUSES,
  type TCapacity,
  type TCreateSubscriptionInput,
  type TPutAllocationsInput,
  type TPutCapacityInput,
  type TSubscription,
  type TSubscriptionFilters,
  type TUpdateSubscriptionInput,
} from "./subscription.schema";
import { parseState } from "../shared/parse-state";

const withParts = { allocations: true, capacity: true } as const;

type TSubscriptionRow = Subscription & { allocations: SubscriptionAllocation[]; capacity: SubscriptionCapacity | null };

/** Where a subscription came from; the owner's own entries are MANUAL, an import's accepted proposals IMPORT. */
export type TSubscriptionOrigin = {
  source_type?: "MANUAL" | "IMPORT";
  provenance?: Prisma.InputJsonValue;
  /** 0 to 1; default 1. */
  confidence?: number;
};

export function toCapacityDto(row: SubscriptionCapacity): TCapacity {
  return {
    unit: row.unit,
    total: row.total,
    used: row.used,
    available: Math.max(0, row.total - row.used),
    utilization: row.total === 0 ? 0 : Math.min(1, row.used / row.total),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toSubscriptionDto(row: TSubscriptionRow, base: TBaseAmount): TSubscription {
  // A stable order, which is also the tie-break order of the largest-remainder split.
  const allocations = sortAllocations(row.allocations);
  const shares = allocations.map((allocation) => allocation.shareBps);
  const parts = distributeByBps(row.amountMinor, shares).map(exactMinorOrNull);
  // A base amount beyond the exact range (null) leaves every allocation's base null too.
  const baseParts = base.base_amount_minor === null ? null : distributeByBps(BigInt(base.base_amount_minor), shares);
  return {
    id: row.id,
    ...toScopeDto(row),
    name: row.name,
    amount_minor: exactMinorOrNull(row.amountMinor),
    currency: row.currency,
    ...base,
    billing_interval: parseState(BILLING_INTERVALS, row.billingInterval),
    next_charge_on: utcDayOf(row.nextChargeOn),
    category: row.category,
    status: parseState(SUBSCRIPTION_STATUSES, row.status),
    source_type: row.sourceType,
    provenance: (row.provenance as Record<string, unknown> | null) ?? null,
    confidence: Number(row.confidence.toString()),
    allocations: allocations.map((allocation, index) => ({
      project_id: allocation.projectId,
      share_bps: allocation.shareBps,
      amount_minor: parts[index]!,
      currency: row.currency,
      base_amount_minor: baseParts ? exactMinorOrNull(baseParts[index]!) : null,
      base_currency: base.base_currency,
      fx: base.fx,
    })),
    capacity: row.capacity ? toCapacityDto(row.capacity) : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** DTOs of several rows with one batched currency conversion. */
async function toSubscriptionDtos(db: TDbOrTx, ownerId: string, rows: TSubscriptionRow[]): Promise<TSubscription[]> {
  const bases = await toBaseAmounts(db, ownerId, rows);
  return rows.map((row, index) => toSubscriptionDto(row, bases[index]!));
}

async function loadSubscription(db: TDbOrTx, ownerId: string, id: string): Promise<TSubscriptionRow> {
  const row = await db.subscription.findFirst({ where: { id, ownerId }, include: withParts });
  if (!row) throw AppError.notFound("subscription");
  return row;
}

/** Locks the owner's subscription row for the rest of the transaction and reads it. */
async function lockSubscription(tx: TTx, ownerId: string, id: string): Promise<TSubscriptionRow> {
  const { count } = await tx.subscription.updateMany({ where: { id, ownerId }, data: { updatedAt: new Date() } });
  if (count === 0) throw AppError.notFound("subscription");
  return loadSubscription(tx, ownerId, id);
}

function assertNotCancelled(row: Subscription): void {
  if (row.status === "cancelled") {
    throw new AppError("state_conflict", "This subscription is cancelled; a cancelled subscription cannot change.", {
      details: { status: row.status },
    });
  }
}

/**
 * Creates a subscription and its audit entry in one transaction (or inside the caller's: POST
 * /v1/recurring-expenses calls this in its own transaction). The currency must be convertible
 * to the owner's base currency (422 currency_unsupported / fx_unavailable, nothing written).
 */
export async function createSubscription(
  db: TDbOrTx,
  caller: TCaller,
  input: TCreateSubscriptionInput,
  origin: TSubscriptionOrigin = {},
): Promise<TSubscription> {
  assertKnownCurrency(input.currency, "currency");
  return inTransaction(db, async (tx) => {
    const scope = await resolveScope(tx, caller.ownerId, input);
    const sourceType = origin.source_type ?? "MANUAL";
    const [base] = await toBaseAmountsForWrite(tx, caller.ownerId, [
      { amountMinor: BigInt(input.amount_minor), currency: input.currency },
    ]);
    const row = await tx.subscription.create({
      data: {
        ownerId: caller.ownerId,
        ...scope,
        name: input.name,
        amountMinor: BigInt(input.amount_minor),
        currency: input.currency,
        billingInterval: input.billing_interval,
        nextChargeOn: utcMidnightOf(input.next_charge_on),
        category: input.category ?? null,
        sourceType,
        provenance: origin.provenance ?? { source: { type: sourceType, integration_id: null, external_id: null } },
        confidence: origin.confidence ?? 1,
      },
      include: withParts,
    });
    await auditCaller(
      tx,
      caller,
      "subscription.created",
      { type: "subscription", id: row.id },
      { amount_minor: input.amount_minor, currency: input.currency, source_type: sourceType },
    );
    return toSubscriptionDto(row, base!);
  });
}

export async function getSubscription(db: TDbOrTx, ownerId: string, id: string): Promise<TSubscription> {
  const [dto] = await toSubscriptionDtos(db, ownerId, [await loadSubscription(db, ownerId, id)]);
  return dto!;
}

async function findPage(db: TDbOrTx, ownerId: string, where: Prisma.SubscriptionWhereInput, query: TPageQuery) {
  const args = pageArgs(query);
  const rows = await db.subscription.findMany({ ...args, where: { ownerId, ...where, ...args.where }, include: withParts });
  const { rows: kept, page } = toPage(rows, query.limit);
  return { data: await toSubscriptionDtos(db, ownerId, kept), page };
}

export async function findSubscriptions(db: TDbOrTx, ownerId: string, query: TPageQuery & TSubscriptionFilters) {
  return findPage(
    db,
    ownerId,
    {
      businessId: query.business_id,
      projectId: query.project_id,
      personal: query.personal,
      status: query.status,
      currency: query.currency,
      sourceType: query.source_type,
    },
    query,
  );
}

/** The business's subscriptions, including those of its projects. */
export async function findBusinessSubscriptions(
  db: TDbOrTx,
  ownerId: string,
  businessId: string,
  query: TPageQuery,
  /** Checks the caller may read the business (an agent's grant), after its 404. */
  authorize?: (businessId: string) => Promise<void>,
) {
  await requireBusiness(db, ownerId, businessId);
  await authorize?.(businessId);
  return findPage(db, ownerId, { businessId }, query);
}

export async function findPersonalSubscriptions(db: TDbOrTx, ownerId: string, query: TPageQuery) {
  return findPage(db, ownerId, { personal: true }, query);
}

export async function updateSubscription(
  db: TDbOrTx,
  caller: TCaller,
  id: string,
  input: TUpdateSubscriptionInput,
): Promise<TSubscription> {
  if (input.currency) assertKnownCurrency(input.currency, "currency");
  return inTransaction(db, async (tx) => {
    const current = await lockSubscription(tx, caller.ownerId, id);
    assertNotCancelled(current);
    if (input.amount_minor !== undefined || input.currency) {
      // The new amount must be expressible in the base (400 naming amount_minor, nothing written).
      await toBaseAmountsForWrite(tx, caller.ownerId, [
        { amountMinor: BigInt(input.amount_minor ?? current.amountMinor), currency: input.currency ?? current.currency },
      ]);
    }
    await tx.subscription.update({
      where: { id },
      data: {
        name: input.name,
        amountMinor: input.amount_minor === undefined ? undefined : BigInt(input.amount_minor),
        currency: input.currency,
        billingInterval: input.billing_interval,
        nextChargeOn: input.next_charge_on ? utcMidnightOf(input.next_charge_on) : undefined,
        category: input.category,
        status: input.status,
      },
    });
    await auditCaller(
      tx,
      caller,
      "subscription.updated",
      { type: "subscription", id },
      { fields: Object.keys(input), ...(input.status && input.status !== current.status ? { status: input.status } : {}) },
    );
    // Converted inside the transaction: a currency without a rate rolls the change back (422).
    return getSubscription(tx, caller.ownerId, id);
  });
}

/**
 * Replaces the whole allocation list. Projects must belong to the subscription's business
 * (400 naming allocations.N.project_id); the shares must sum to exactly 10000 (422
 * allocation_sum_invalid); [] clears the list. A subscription without a business (personal)
 * has no projects to share it: 409 state_conflict.
 */
export async function putAllocations(
  db: TDbOrTx,
  caller: TCaller,
  id: string,
  input: TPutAllocationsInput,
): Promise<TSubscription> {
  return inTransaction(db, async (tx) => {
    const current = await lockSubscription(tx, caller.ownerId, id);
    assertNotCancelled(current);
    const entries = input.allocations;
    if (entries.length > 0) {
      if (!current.businessId) {
        throw new AppError("state_conflict", "A personal subscription has no business whose projects could share its cost.", {
          details: { personal: true },
        });
      }
      const found = await tx.project.findMany({
        where: { ownerId: caller.ownerId, businessId: current.businessId, id: { in: entries.map((entry) => entry.project_id) } },
        select: { id: true },
      });
      const known = new Set(found.map((project) => project.id));
      const issues = entries.flatMap((entry, index) =>
        known.has(entry.project_id)
          ? []
          : [{ path: `allocations.${index}.project_id`, message: "is not a project of this subscription's business" }],
      );
      if (issues.length > 0) {
        throw new AppError("validation_error", `${issues[0]!.path}: ${issues[0]!.message}`, { details: { issues } });
      }
      const sum = entries.reduce((acc, entry) => acc + entry.share_bps, 0);
      if (sum !== TOTAL_BPS) {
        throw new AppError(
          "allocation_sum_invalid",
          `Allocation shares sum to ${sum} bps; they must sum to exactly ${TOTAL_BPS}.`,
          {
            details: { sum_bps: sum, expected_bps: TOTAL_BPS },
          },
        );
      }
    }
    await tx.subscriptionAllocation.deleteMany({ where: { subscriptionId: id } });
    if (entries.length > 0) {
      await tx.subscriptionAllocation.createMany({
        data: entries.map((entry) => ({ subscriptionId: id, projectId: entry.project_id, shareBps: entry.share_bps })),
      });
    }
    await auditCaller(tx, caller, "subscription.allocations_replaced", { type: "subscription", id }, { allocations: entries });
    return getSubscription(tx, caller.ownerId, id);
  });
}

/** The capacity, or null when none was set (the subscription itself must exist: 404 otherwise). */
export async function getCapacity(db: TDbOrTx, ownerId: string, id: string): Promise<TCapacity | null> {
  const row = await db.subscription.findFirst({ where: { id, ownerId }, select: { capacity: true } });
  if (!row) throw AppError.notFound("subscription");
  return row.capacity ? toCapacityDto(row.capacity) : null;
}

/** Sets unit, total and used; more used than total is 422 capacity_exceeded and changes nothing. */
export async function putCapacity(db: TDbOrTx, caller: TCaller, id: string, input: TPutCapacityInput): Promise<TCapacity> {
  return inTransaction(db, async (tx) => {
    const current = await lockSubscription(tx, caller.ownerId, id);
    assertNotCancelled(current);
    if (input.used > input.total) {
      throw new AppError("capacity_exceeded", `used (${input.used}) is more than total (${input.total}).`, {
        details: { total: input.total, used: input.used },
      });
    }
    const data = { unit: input.unit, total: input.total, used: input.used };
    const row = await tx.subscriptionCapacity.upsert({
      where: { subscriptionId: id },
      create: { subscriptionId: id, ...data },
      update: data,
    });
    await auditCaller(tx, caller, "subscription.capacity_set", { type: "subscription", id }, data);
    return toCapacityDto(row);
  });
}
