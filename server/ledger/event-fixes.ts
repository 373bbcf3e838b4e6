// Fixing a mistake in a manual event (issue 14), by the contract's restatement model: nothing
// is deleted or edited in place. Void: the event's status becomes voided (listed, no longer
// counted). Correct: the event is voided and a new version is written with the corrected
// fields, linked to it by supersedes_event_id. Both are audited in the write's transaction.
//
// Only MANUAL events: an integration's or an import's events are restated by their source (a
// new version ingested with the same external_id), so fixing them here would fork the chain;
// they answer 409 state_conflict. Another owner's event answers 404, a voided one 409.
//
// Races: the void is a conditional UPDATE (status still confirmed) inside the transaction, so
// of two concurrent voids or corrections of one event exactly one wins; the other sees 409.
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import type { TDbOrTx, TTx } from "../db/client";
import type { FinancialEvent, Prisma } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { utcDayOf } from "../../lib/days";
import { resolveScope, type TScope } from "../shared/scope";
import { toEventDto } from "./event-dto";
import type { TCorrectEventInput, TEvent, TVoidEventInput } from "./event.schema";
import { baseAtWrite, getEvent, insertManualEvent, lockedOwner, ownerSettings, type TManualRow } from "./ledger-service";

type TJson = Prisma.InputJsonValue | null;

/** The owner's event, checked fixable: 404 for none (or another owner's), 409 for a non-manual or voided one. */
async function fixableEvent(db: TDbOrTx, ownerId: string, eventId: string, verb: "void" | "correct"): Promise<FinancialEvent> {
  const row = await db.financialEvent.findFirst({ where: { id: eventId, ownerId } });
  if (!row) throw AppError.notFound("event");
  if (row.sourceType !== "MANUAL") {
    throw new AppError(
      "state_conflict",
      `Only manual events can be ${verb === "void" ? "voided" : "corrected"} here; a ${row.sourceType} event is restated by its source (send a new version with the same external_id).`,
      { details: { source_type: row.sourceType } },
    );
  }
  if (row.status !== "confirmed") {
    throw new AppError("state_conflict", `The event is already ${row.status}; nothing was changed.`, {
      details: { status: row.status },
    });
  }
  return row;
}

/** Voids the event if it is still confirmed; the loser of a race gets 409. */
async function voidRow(tx: TTx, ownerId: string, eventId: string, now: Date): Promise<void> {
  const { count } = await tx.financialEvent.updateMany({
    where: { id: eventId, ownerId, sourceType: "MANUAL", status: "confirmed" },
    data: { status: "voided", updatedAt: now },
  });
  if (count !== 1) throw new AppError("state_conflict", "The event was voided or corrected meanwhile; nothing was changed.");
}

/** POST /v1/events/{id}/void. */
export async function voidEvent(db: TDbOrTx, caller: TCaller, eventId: string, input: TVoidEventInput): Promise<TEvent> {
  const row = await fixableEvent(db, caller.ownerId, eventId, "void");
  await inTransaction(db, async (tx) => {
    await voidRow(tx, caller.ownerId, row.id, caller.now);
    await auditCaller(
      tx,
      caller,
      "event.voided",
      { type: "event", id: row.id },
      {
        type: row.type,
        amount_minor: Number(row.amountMinor),
        currency: row.currency,
        ...(input.reason ? { reason: input.reason } : {}),
      },
    );
  });
  return getEvent(db, caller.ownerId, row.id);
}

function scopeOf(row: FinancialEvent): TScope {
  return { businessId: row.businessId, projectId: row.projectId, personal: row.personal };
}

/** The corrected version: the old fields, with what the input gives (null clears category and description). */
function correctedRow(old: FinancialEvent, input: TCorrectEventInput): TManualRow {
  return {
    type: old.type as TManualRow["type"],
    state: old.state as TManualRow["state"],
    amountMinor: input.amount_minor !== undefined ? BigInt(input.amount_minor) : old.amountMinor,
    currency: input.currency ?? old.currency,
    occurredOn: input.occurred_on ?? utcDayOf(old.occurredOn),
    category: input.category !== undefined ? input.category : old.category,
    description: input.description !== undefined ? input.description : old.description,
    subscriptionId: old.subscriptionId,
    supersedesEventId: old.id,
  };
}

function sameScope(a: TScope, b: TScope): boolean {
  return a.businessId === b.businessId && a.projectId === b.projectId && a.personal === b.personal;
}

/** What the correction changed, for the audit entry: { field: [old, new] }. */
function changesOf(old: FinancialEvent, oldScope: TScope, row: TManualRow, scope: TScope): Record<string, [TJson, TJson]> {
  const changes: Record<string, [TJson, TJson]> = {};
  if (row.amountMinor !== old.amountMinor) changes.amount_minor = [Number(old.amountMinor), Number(row.amountMinor)];
  if (row.currency !== old.currency) changes.currency = [old.currency, row.currency];
  if (row.occurredOn !== utcDayOf(old.occurredOn)) changes.occurred_on = [utcDayOf(old.occurredOn), row.occurredOn];
  if ((row.category ?? null) !== old.category) changes.category = [old.category, row.category ?? null];
  if ((row.description ?? null) !== old.description) changes.description = [old.description, row.description ?? null];
  if (!sameScope(oldScope, scope)) {
    changes.scope = [
      { business_id: oldScope.businessId, project_id: oldScope.projectId, personal: oldScope.personal },
      { business_id: scope.businessId, project_id: scope.projectId, personal: scope.personal },
    ];
  }
  return changes;
}

/**
 * POST /v1/events/{id}/correct: the event voided and its corrected version written, linked by
 * supersedes_event_id, in one transaction. Validation as for a new expense or revenue; a
 * correction that changes nothing is refused (400) rather than writing an identical version.
 */
export async function correctEvent(db: TDbOrTx, caller: TCaller, eventId: string, input: TCorrectEventInput): Promise<TEvent> {
  const old = await fixableEvent(db, caller.ownerId, eventId, "correct");
  if (old.fulfilledByEventId) {
    // A new version would be an open commitment again beside the actual that fulfilled it.
    throw new AppError("state_conflict", "This planned event is already fulfilled by an actual event; void it instead.", {
      details: { fulfilled_by_event_id: old.fulfilledByEventId },
    });
  }
  const owner = await ownerSettings(db, caller.ownerId, caller.now);
  const row = correctedRow(old, input);
  if (row.state === "actual" && row.occurredOn > owner.today) {
    throw AppError.invalidField("occurred_on", "is after today; an actual event cannot be in the future");
  }
  const oldScope = scopeOf(old);
  const given = input.business_id !== undefined || input.project_id !== undefined || input.personal !== undefined;
  const scope = given ? await resolveScope(db, caller.ownerId, input) : oldScope;
  const changes = changesOf(old, oldScope, row, scope);
  if (Object.keys(changes).length === 0) {
    // Named on amount_minor, the field a correction most often changes (issues need a path).
    throw AppError.invalidField("amount_minor", "the correction changes nothing: give at least one field a new value");
  }
  return inTransaction(db, async (tx) => {
    await voidRow(tx, caller.ownerId, old.id, caller.now);
    const base = await baseAtWrite(tx, await lockedOwner(tx, caller.ownerId, owner), row);
    const created = await insertManualEvent(tx, caller, scope, row, base);
    const reason = input.reason ? { reason: input.reason } : {};
    await auditCaller(
      tx,
      caller,
      "event.voided",
      { type: "event", id: old.id },
      { superseded_by_event_id: created.id, ...reason },
    );
    await auditCaller(
      tx,
      caller,
      "event.corrected",
      { type: "event", id: created.id },
      { supersedes_event_id: old.id, changes, ...reason },
    );
    return toEventDto(created, base);
  });
}
