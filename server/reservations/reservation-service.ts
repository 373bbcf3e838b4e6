// Budget reservations: money of a business, project or the personal finances set aside for a
// purpose, released in full or in parts. A release is one conditional UPDATE (released +
// amount ≤ total, status active), so concurrent releases can never release more than the
// reservation: on PostgreSQL the second writer re-checks the condition on the row the first
// one committed.
import { utcDayOf, utcMidnightOf } from "../../lib/days";
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import type { TDbOrTx } from "../db/client";
import type { BudgetReservation } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { assertKnownCurrency } from "../shared/currencies";
import { pageArgs, toPage, type TPageQuery } from "../shared/pagination";
import { ownerToday } from "../shared/owner-today";
import { resolveScope, toScopeDto } from "../shared/scope";
import { toBaseAmounts, toBaseAmountsForWrite, toJsonAmount, type TBaseAmount } from "../fx/base-amounts";
import { exactMinorOrNull } from "../fx/money";
import {
  RESERVATION_STATUSES,
  type TCreateReservationInput,
  type TReleaseReservationInput,
  type TReservation,
  type TReservationFilters,
} from "./reservation.schema";
import { parseState } from "../shared/parse-state";

function toReservationDto(row: BudgetReservation, base: TBaseAmount): TReservation {
  return {
    id: row.id,
    ...toScopeDto(row),
    amount_minor: exactMinorOrNull(row.amountMinor),
    released_minor: exactMinorOrNull(row.releasedMinor),
    remaining_minor: exactMinorOrNull(row.amountMinor - row.releasedMinor),
    currency: row.currency,
    ...base,
    purpose: row.purpose,
    status: parseState(RESERVATION_STATUSES, row.status),
    expires_on: row.expiresOn ? utcDayOf(row.expiresOn) : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function toReservationDtos(db: TDbOrTx, ownerId: string, rows: BudgetReservation[]): Promise<TReservation[]> {
  const bases = await toBaseAmounts(db, ownerId, rows);
  return rows.map((row, index) => toReservationDto(row, bases[index]!));
}

export async function createReservation(db: TDbOrTx, caller: TCaller, input: TCreateReservationInput): Promise<TReservation> {
  assertKnownCurrency(input.currency, "currency");
  if (input.expires_on && input.expires_on < (await ownerToday(db, caller.ownerId, caller.now))) {
    throw AppError.invalidField("expires_on", "must not be in the past");
  }
  return inTransaction(db, async (tx) => {
    const scope = await resolveScope(tx, caller.ownerId, input);
    // Converted before the write: a currency without a rate answers 422, an amount beyond the
    // exact range in the base 400; nothing is written.
    const [base] = await toBaseAmountsForWrite(tx, caller.ownerId, [
      { amountMinor: BigInt(input.amount_minor), currency: input.currency },
    ]);
    const row = await tx.budgetReservation.create({
      data: {
        ownerId: caller.ownerId,
        ...scope,
        amountMinor: BigInt(input.amount_minor),
        currency: input.currency,
        purpose: input.purpose,
        expiresOn: input.expires_on ? utcMidnightOf(input.expires_on) : null,
        agentId: caller.actor.type === "agent" ? caller.actor.agentId : null,
      },
    });
    await auditCaller(
      tx,
      caller,
      "reservation.created",
      { type: "budget_reservation", id: row.id },
      { amount_minor: input.amount_minor, currency: input.currency },
    );
    return toReservationDto(row, base!);
  });
}

export async function findReservations(db: TDbOrTx, ownerId: string, query: TPageQuery & TReservationFilters) {
  const args = pageArgs(query);
  const rows = await db.budgetReservation.findMany({
    ...args,
    where: {
      ownerId,
      businessId: query.business_id,
      projectId: query.project_id,
      personal: query.personal,
      status: query.status,
      currency: query.currency,
      ...args.where,
    },
  });
  const { rows: kept, page } = toPage(rows, query.limit);
  return { data: await toReservationDtos(db, ownerId, kept), page };
}

function stateConflict(message: string, row: BudgetReservation): AppError {
  return new AppError("state_conflict", message, {
    details: { status: row.status, remaining_minor: toJsonAmount(row.amountMinor - row.releasedMinor, "remaining_minor") },
  });
}

/**
 * Releases `amount_minor`, or everything that remains when it is omitted. Releasing more than
 * remains, or releasing a released reservation, answers 409 state_conflict and changes nothing.
 * When nothing remains the reservation becomes released.
 */
export async function releaseReservation(
  db: TDbOrTx,
  caller: TCaller,
  id: string,
  input: TReleaseReservationInput,
): Promise<TReservation> {
  return inTransaction(db, async (tx) => {
    const before = await tx.budgetReservation.findFirst({ where: { id, ownerId: caller.ownerId } });
    if (!before) throw AppError.notFound("budget reservation");
    if (before.status === "released") throw stateConflict("This reservation is already released.", before);
    const requested = input.amount_minor === undefined ? null : BigInt(input.amount_minor);

    // The amount is fixed at creation, so "released + requested ≤ amount" is
    // "released ≤ amount − requested": a condition on the row that the UPDATE re-checks.
    const { count } =
      requested === null
        ? await tx.budgetReservation.updateMany({
            where: { id, ownerId: caller.ownerId, status: "active" },
            data: { releasedMinor: before.amountMinor, status: "released" },
          })
        : await tx.budgetReservation.updateMany({
            where: { id, ownerId: caller.ownerId, status: "active", releasedMinor: { lte: before.amountMinor - requested } },
            data: { releasedMinor: { increment: requested } },
          });
    if (count === 0) {
      const now = (await tx.budgetReservation.findFirst({ where: { id, ownerId: caller.ownerId } })) ?? before;
      if (now.status === "released") throw stateConflict("This reservation is already released.", now);
      throw stateConflict(
        `Cannot release ${requested} ${now.currency} minor units; only ${now.amountMinor - now.releasedMinor} remain.`,
        now,
      );
    }
    // This transaction holds the row now: closing it when nothing remains is race-free.
    await tx.budgetReservation.updateMany({
      where: { id, status: "active", releasedMinor: before.amountMinor },
      data: { status: "released" },
    });
    const after = await tx.budgetReservation.findFirstOrThrow({ where: { id, ownerId: caller.ownerId } });
    await auditCaller(
      tx,
      caller,
      "reservation.released",
      { type: "budget_reservation", id },
      {
        amount_minor: requested === null ? null : toJsonAmount(requested, "amount_minor"),
        released_minor: toJsonAmount(after.releasedMinor, "released_minor"),
        status: after.status,
      },
    );
    const [dto] = await toReservationDtos(tx, caller.ownerId, [after]);
    return dto!;
  });
}
