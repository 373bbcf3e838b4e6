// Financial events of one owner: the owner's manual entries (expenses, revenues, planned and
// recurring expenses) and the read API over every event, whatever wrote it.
//
// Order of a write: input (zod) → dates → scope (404 for another owner's business/project) →
// FX conversion (422 currency_unsupported / fx_unavailable) → one transaction with the row(s)
// and their audit entries. Every refusal happens before the transaction, so nothing is written.
import type { TEventState, TEventType } from "../../lib/event-types";
import { todayUtc, utcMidnightOf } from "../../lib/days";
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import type { TDbOrTx, TTx } from "../db/client";
import type { FinancialEvent, Prisma } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { PLAIN_VALUES } from "../db/value-form";
import { AppError } from "../errors/app-error";
import { convertAmount, convertManySettled } from "../fx/fx-service";
import { lockBaseCurrency } from "../fx/rebase-owner";
import { pageArgs, toPage } from "../shared/pagination";
import { loadOwnerDay } from "../shared/owner-today";
import { resolveScope, type TScope } from "../shared/scope";
import { createSubscription } from "../subscriptions/subscription-service";
import { hasSnapshot, toEventDto, type TCurrentBase } from "./event-dto";
import { eventProvenance } from "./provenance";
import type { TCreateRecurringExpenseInput, TEvent, TFindEventsQuery, TManualEventInput } from "./event.schema";

type TOwnerSettings = { baseCurrency: string; timezone: string; today: string };

/** The owner's base currency, timezone and today at `now` (server/shared/owner-today.ts). */
async function ownerSettings(db: TDbOrTx, ownerId: string, now: Date): Promise<TOwnerSettings> {
  return loadOwnerDay(db, ownerId, now);
}

function provenanceOf(caller: TCaller): Prisma.InputJsonObject {
  const actor =
    caller.actor.type === "agent"
      ? { type: "agent" as const, id: caller.actor.agentId }
      : { type: "owner" as const, id: caller.ownerId };
  return eventProvenance(PLAIN_VALUES, { kind: "manual", actor }) as Prisma.InputJsonObject;
}

type TManualRow = {
  type: TEventType;
  state: TEventState;
  amountMinor: bigint;
  currency: string;
  occurredOn: string;
  category?: string | null;
  description?: string | null;
  subscriptionId?: string | null;
};

/**
 * The owner's base currency, read with a share lock inside the write's transaction: a
 * concurrent base-currency change (which re-expresses every event) waits for this write, or
 * this write waits for it, so no event is left in the old base. A conversion error (422)
 * rolls the transaction back, so nothing is written.
 */
async function lockedOwner(tx: TTx, ownerId: string, owner: TOwnerSettings): Promise<TOwnerSettings> {
  return { ...owner, baseCurrency: (await lockBaseCurrency(tx, ownerId)) ?? owner.baseCurrency };
}

/** The FX part of a write: frozen columns for actual events, nothing stored for the others. */
async function baseAtWrite(
  db: TDbOrTx,
  owner: TOwnerSettings,
  row: Pick<TManualRow, "state" | "amountMinor" | "currency" | "occurredOn">,
): Promise<TCurrentBase> {
  const kind = row.state === "actual" ? "snapshot" : "current";
  // A current rate is today's (UTC: rates are published per calendar day), as for every record.
  const on = kind === "snapshot" ? row.occurredOn : todayUtc();
  const converted = await convertAmount(db, {
    amountMinor: row.amountMinor,
    from: row.currency,
    to: owner.baseCurrency,
    on,
    kind,
  });
  return { amountMinor: converted.amountMinor, baseCurrency: owner.baseCurrency, fx: converted.fx };
}

async function insertManualEvent(
  tx: TTx,
  caller: TCaller,
  scope: TScope,
  row: TManualRow,
  base: TCurrentBase,
): Promise<FinancialEvent> {
  const frozen =
    row.state === "actual"
      ? {
          baseAmountMinor: base.amountMinor,
          baseCurrency: base.baseCurrency,
          fxRate: base.fx.rate,
          fxAsOf: utcMidnightOf(base.fx.as_of),
          fxSource: base.fx.source,
        }
      : {};
  const created = await tx.financialEvent.create({
    data: {
      ownerId: caller.ownerId,
      businessId: scope.businessId,
      projectId: scope.projectId,
      personal: scope.personal,
      type: row.type,
      state: row.state,
      status: "confirmed",
      amountMinor: row.amountMinor,
      currency: row.currency,
      ...frozen,
      occurredOn: utcMidnightOf(row.occurredOn),
      category: row.category ?? null,
      description: row.description ?? null,
      sourceType: "MANUAL",
      provenance: provenanceOf(caller),
      confidence: 1,
      payload: {},
      subscriptionId: row.subscriptionId ?? null,
      agentId: caller.actor.type === "agent" ? caller.actor.agentId : null,
    },
  });
  await auditCaller(
    tx,
    caller,
    "event.created",
    { type: "event", id: created.id },
    {
      type: row.type,
      state: row.state,
      amount_minor: Number(row.amountMinor),
      currency: row.currency,
      ...(row.subscriptionId ? { subscription_id: row.subscriptionId } : {}),
    },
  );
  return created;
}

const MANUAL_KINDS = {
  expense: { type: "expense", state: "actual" },
  revenue: { type: "revenue", state: "actual" },
  planned_expense: { type: "planned_expense", state: "planned" },
} as const satisfies Record<string, { type: TEventType; state: TEventState }>;

export type TManualKind = keyof typeof MANUAL_KINDS;

/** POST /v1/expenses, /v1/revenues, /v1/planned-expenses. */
export async function createManualEvent(
  db: TDbOrTx,
  caller: TCaller,
  kind: TManualKind,
  input: TManualEventInput,
): Promise<TEvent> {
  const { type, state } = MANUAL_KINDS[kind];
  const owner = await ownerSettings(db, caller.ownerId, caller.now);
  if (state === "actual" && input.occurred_on > owner.today) {
    throw AppError.invalidField("occurred_on", "is after today; record a future expense as a planned expense");
  }
  const scope = await resolveScope(db, caller.ownerId, input);
  const row: TManualRow = {
    type,
    state,
    amountMinor: BigInt(input.amount_minor),
    currency: input.currency,
    occurredOn: input.occurred_on,
    category: input.category,
    description: input.description,
  };
  return inTransaction(db, async (tx) => {
    const base = await baseAtWrite(tx, await lockedOwner(tx, caller.ownerId, owner), row);
    return toEventDto(await insertManualEvent(tx, caller, scope, row, base), base);
  });
}

/**
 * POST /v1/recurring-expenses: the subscription and its first charge as one event, in one
 * transaction. The event is actual when next_charge_on is on or before today (the owner's
 * timezone), planned otherwise; it links to the subscription by subscription_id.
 */
export async function createRecurringExpense(db: TDbOrTx, caller: TCaller, input: TCreateRecurringExpenseInput) {
  const owner = await ownerSettings(db, caller.ownerId, caller.now);
  const state: TEventState = input.next_charge_on <= owner.today ? "actual" : "planned";
  const scope = await resolveScope(db, caller.ownerId, input);
  const row: TManualRow = {
    type: "recurring_expense",
    state,
    amountMinor: BigInt(input.amount_minor),
    currency: input.currency,
    occurredOn: input.next_charge_on,
    category: input.category,
    description: input.name,
  };
  return inTransaction(db, async (tx) => {
    const base = await baseAtWrite(tx, await lockedOwner(tx, caller.ownerId, owner), row);
    const subscription = await createSubscription(tx, caller, input);
    const event = await insertManualEvent(tx, caller, scope, { ...row, subscriptionId: subscription.id }, base);
    return { event: toEventDto(event, base), subscription };
  });
}

/**
 * Current-rate base amounts of the events without a frozen snapshot, with ONE batched
 * conversion. An event whose currency has no rate shows base_amount_minor null (no base at
 * all); one whose conversion is beyond the exact range shows it null with its rate.
 */
async function currentBases(db: TDbOrTx, ownerId: string, rows: FinancialEvent[]): Promise<Map<string, TCurrentBase>> {
  const pending = rows.filter((row) => !hasSnapshot(row));
  const bases = new Map<string, TCurrentBase>();
  if (pending.length === 0) return bases;
  const now = new Date(); // reads value at the current rate of the wall clock's day (no caller here)
  const owner = await ownerSettings(db, ownerId, now);
  const on = todayUtc(now);
  const outcomes = await convertManySettled(
    db,
    pending.map((row) => ({
      amountMinor: row.amountMinor,
      from: row.currency,
      to: owner.baseCurrency,
      on,
      kind: "current" as const,
    })),
  );
  pending.forEach((row, index) => {
    const outcome = outcomes[index]!;
    if (outcome.ok) bases.set(row.id, { amountMinor: outcome.amountMinor, baseCurrency: owner.baseCurrency, fx: outcome.fx });
  });
  return bases;
}

function eventFilters(query: TFindEventsQuery): Prisma.FinancialEventWhereInput {
  return {
    businessId: query.business_id,
    projectId: query.project_id,
    personal: query.personal,
    type: query.type,
    state: query.state,
    status: query.status,
    sourceType: query.source_type,
    currency: query.currency,
    ...(query.from || query.to
      ? {
          occurredOn: {
            ...(query.from ? { gte: utcMidnightOf(query.from) } : {}),
            ...(query.to ? { lte: utcMidnightOf(query.to) } : {}),
          },
        }
      : {}),
  };
}

/** GET /v1/events: every event of the owner, voided and reconciled ones included (flagged). */
export async function findEvents(db: TDbOrTx, ownerId: string, query: TFindEventsQuery) {
  const args = pageArgs(query);
  const rows = await db.financialEvent.findMany({ ...args, where: { ownerId, ...eventFilters(query), ...args.where } });
  const { rows: kept, page } = toPage(rows, query.limit);
  const bases = await currentBases(db, ownerId, kept);
  return { data: kept.map((row) => toEventDto(row, bases.get(row.id) ?? null)), page };
}

/** GET /v1/events/{id}. */
export async function getEvent(db: TDbOrTx, ownerId: string, eventId: string): Promise<TEvent> {
  const row = await db.financialEvent.findFirst({ where: { id: eventId, ownerId } });
  if (!row) throw AppError.notFound("event");
  const bases = await currentBases(db, ownerId, [row]);
  return toEventDto(row, bases.get(row.id) ?? null);
}
