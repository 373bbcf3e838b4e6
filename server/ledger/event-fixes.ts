// Fixing a mistake in a manual event (issue 14) or an imported bank line (issue 32, pinned-wave3
// §1.2), by the contract's restatement model: nothing is deleted or edited in place. Void: the
// event's status becomes voided (listed, no longer counted). Correct: the event is voided and a
// new version is written with the corrected fields, linked to it by supersedes_event_id. Both are
// audited in the write's transaction.
//
// Which events: MANUAL ones, and the lines a statement import wrote (source IMPORT on the owner's
// manual_import integration): a re-import of the statement dedupes on the line's external_id
// whatever became of it, so a fix never forks its chain. A line's correction is the owner's own
// entry (source MANUAL) marked as that line (imported-lines.ts); a reconciled line does not count,
// so it is not corrected (409: correct the event it matches, or void it). Other integrations'
// events are restated by their source (a new version ingested with the same external_id): 409
// state_conflict. Another owner's event answers 404, a voided one 409.
//
// Reconciliation: a hand entry that bank lines reconcile takes them along (imported-lines.ts
// relinkLinesOf): its correction keeps them if it is still the same money, else they are released
// and count again — voiding the entry never makes the money vanish. Fixes of actual events take
// the owner's manual_import lock, the one the confirm and the daily job take, so a line is never
// matched to an entry being fixed.
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
import { MANUAL_IMPORT_PROVIDER } from "../sources/providers";
import { lockOwnerIntegrations } from "../sources/integration-store";
import { toEventDto } from "./event-dto";
import { CORRECTED_IMPORT_LINE, isImportedLine, relinkLinesOf } from "./imported-lines";
import type { TCorrectEventInput, TEvent, TVoidEventInput } from "./event.schema";
import { baseAtWrite, getEvent, insertManualEvent, lockedOwner, ownerSettings, type TManualRow } from "./ledger-service";
import { EVENT_STATES, EVENT_TYPES } from "../../lib/event-types";
import { parseState } from "../shared/parse-state";

type TJson = Prisma.InputJsonValue | null;

/** The owner's event, checked fixable: 404 for none (or another owner's), 409 for another source's or a voided one. */
async function fixableEvent(db: TDbOrTx, ownerId: string, eventId: string, verb: "void" | "correct"): Promise<FinancialEvent> {
  const row = await db.financialEvent.findFirst({ where: { id: eventId, ownerId } });
  if (!row) throw AppError.notFound("event");
  if (row.sourceType !== "MANUAL" && !(await isImportedLine(db, row))) {
    throw new AppError(
      "state_conflict",
      `Only manual events and imported bank lines can be ${verb === "void" ? "voided" : "corrected"} here; a ${row.sourceType} event of an integration is restated by its source (send a new version with the same external_id).`,
      { details: { source_type: row.sourceType } },
    );
  }
  if (row.status !== "confirmed") {
    throw new AppError("state_conflict", `The event is already ${row.status}; nothing was changed.`, {
      details: { status: row.status },
    });
  }
  if (verb === "correct" && row.reconciled) {
    throw new AppError(
      "state_conflict",
      "This bank line is reconciled with another event and does not count; correct that event, or void this line.",
      { details: { reconciled: true, reconciles_event_id: reconcilesOf(row) } },
    );
  }
  return row;
}

function reconcilesOf(row: FinancialEvent): unknown {
  const payload = row.payload as Record<string, unknown> | null;
  return payload?.reconciles_event_id ?? null;
}

/** Voids the event if it is still confirmed (and, for a correction, still counted); the loser of a race gets 409. */
async function voidRow(tx: TTx, row: FinancialEvent, now: Date, verb: "void" | "correct"): Promise<void> {
  const { count } = await tx.financialEvent.updateMany({
    where: {
      id: row.id,
      ownerId: row.ownerId,
      sourceType: row.sourceType,
      status: "confirmed",
      ...(verb === "correct" ? { reconciled: false } : {}),
    },
    data: { status: "voided", updatedAt: now },
  });
  if (count !== 1)
    throw new AppError("state_conflict", "The event was voided, corrected or reconciled meanwhile; nothing was changed.");
}

/** The lock of every writer of bank lines and their links (imports, the daily job), for an actual event's fix. */
async function lockBankLines(tx: TTx, row: FinancialEvent): Promise<void> {
  if (row.state === "actual") await lockOwnerIntegrations(tx, row.ownerId, { provider: MANUAL_IMPORT_PROVIDER });
}

/** A hand entry's lines follow it (or are released); an imported line's fix moves no link. */
const isHandEntry = (row: FinancialEvent) => row.sourceType === "MANUAL" && row.state === "actual";

/** POST /v1/events/{id}/void. */
export async function voidEvent(db: TDbOrTx, caller: TCaller, eventId: string, input: TVoidEventInput): Promise<TEvent> {
  const row = await fixableEvent(db, caller.ownerId, eventId, "void");
  await inTransaction(db, async (tx) => {
    await lockBankLines(tx, row);
    await voidRow(tx, row, caller.now, "void");
    const lines = isHandEntry(row) ? await relinkLinesOf(tx, row, null, caller.now) : null;
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
        ...(lines?.released ? { released_lines: lines.released } : {}),
      },
    );
  });
  return getEvent(db, caller.ownerId, row.id);
}

function scopeOf(row: FinancialEvent): TScope {
  return { businessId: row.businessId, projectId: row.projectId, personal: row.personal };
}

/** What a correction of a bank line (or of its correction) carries: the line it stands for. */
function correctionPayload(old: FinancialEvent): Prisma.InputJsonObject | undefined {
  const payload = (old.payload ?? {}) as Record<string, Prisma.InputJsonValue>;
  if (old.sourceType === "IMPORT") {
    return {
      [CORRECTED_IMPORT_LINE]: { import_id: typeof payload.batch_id === "string" ? payload.batch_id : null, event_id: old.id },
      ...(typeof payload.counterparty === "string" ? { counterparty: payload.counterparty } : {}),
    };
  }
  if (payload[CORRECTED_IMPORT_LINE] === undefined) return undefined;
  const { [CORRECTED_IMPORT_LINE]: line, counterparty } = payload;
  return { [CORRECTED_IMPORT_LINE]: line!, ...(counterparty !== undefined ? { counterparty } : {}) };
}

/** The corrected version: the old fields, with what the input gives (null clears category and description). */
function correctedRow(old: FinancialEvent, input: TCorrectEventInput): TManualRow {
  const payload = correctionPayload(old);
  return {
    ...(payload ? { payload } : {}),
    type: parseState(EVENT_TYPES, old.type),
    state: parseState(EVENT_STATES, old.state),
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
    // The owner's share lock first, then the bank lines' (the order of the confirm's locks).
    const locked = await lockedOwner(tx, caller.ownerId, owner);
    await lockBankLines(tx, old);
    await voidRow(tx, old, caller.now, "correct");
    const base = await baseAtWrite(tx, locked, row);
    const created = await insertManualEvent(tx, caller, scope, row, base);
    const lines = isHandEntry(old)
      ? await relinkLinesOf(
          tx,
          old,
          {
            id: created.id,
            amountMinor: created.amountMinor,
            currency: created.currency,
            occurredOn: row.occurredOn,
            businessId: created.businessId,
            personal: created.personal,
          },
          caller.now,
        )
      : null;
    const reason = input.reason ? { reason: input.reason } : {};
    const relinked = {
      ...(lines?.followed ? { lines_followed: lines.followed } : {}),
      ...(lines?.released ? { released_lines: lines.released } : {}),
    };
    await auditCaller(
      tx,
      caller,
      "event.voided",
      { type: "event", id: old.id },
      { superseded_by_event_id: created.id, ...reason, ...relinked },
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
