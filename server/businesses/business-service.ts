// Businesses of one owner. Every query carries the owner id, so another owner's business is
// simply not found.
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import type { TDbOrTx } from "../db/client";
import { inTransaction } from "../db/transaction";
import type { Business } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { assertKnownCurrency } from "../shared/currencies";
import { pageArgs, toPage } from "../shared/pagination";
import { archivedAtFor, withUniqueName } from "../shared/unique-name";
import type { TBusiness, TCreateBusinessInput, TFindBusinessesQuery, TUpdateBusinessInput } from "./business.schema";

export function toBusinessDto(row: Business): TBusiness {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    status: row.archivedAt ? "archived" : "active",
    archived_at: row.archivedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function createBusiness(db: TDbOrTx, caller: TCaller, input: TCreateBusinessInput) {
  assertKnownCurrency(input.currency, "currency");
  return inTransaction(db, async (tx) => {
    const row = await withUniqueName("business", input.name, () =>
      tx.business.create({ data: { ownerId: caller.ownerId, name: input.name, currency: input.currency } }),
    );
    await auditCaller(tx, caller, "business.created", { type: "business", id: row.id });
    return toBusinessDto(row);
  });
}

export async function findBusinesses(db: TDbOrTx, ownerId: string, query: TFindBusinessesQuery) {
  const args = pageArgs(query);
  const status = query.status === undefined ? {} : { archivedAt: query.status === "archived" ? { not: null } : null };
  const rows = await db.business.findMany({ ...args, where: { ownerId, ...status, ...args.where } });
  const { rows: kept, page } = toPage(rows, query.limit);
  return { data: kept.map(toBusinessDto), page };
}

/** The owner's business or not_found; the guard every business-scoped operation starts with. */
export async function requireBusiness(db: TDbOrTx, ownerId: string, businessId: string): Promise<Business> {
  const row = await db.business.findFirst({ where: { id: businessId, ownerId } });
  if (!row) throw AppError.notFound("business");
  return row;
}

export async function getBusiness(db: TDbOrTx, ownerId: string, businessId: string) {
  return toBusinessDto(await requireBusiness(db, ownerId, businessId));
}

export async function updateBusiness(db: TDbOrTx, caller: TCaller, businessId: string, input: TUpdateBusinessInput) {
  if (input.currency) assertKnownCurrency(input.currency, "currency");
  return inTransaction(db, async (tx) => {
    const current = await requireBusiness(tx, caller.ownerId, businessId);
    // Archiving an archived business keeps the day it was archived.
    const archive = input.status === "archived" && current.archivedAt ? {} : archivedAtFor(input.status, caller.now);
    // updateMany carries the owner in its filter, so the write itself is tenant-scoped.
    await withUniqueName("business", input.name, () =>
      tx.business.updateMany({
        where: { id: businessId, ownerId: caller.ownerId },
        data: { name: input.name, currency: input.currency, ...archive },
      }),
    );
    await auditCaller(
      tx,
      caller,
      "business.updated",
      { type: "business", id: businessId },
      { fields: Object.keys(input), ...(input.status ? { status: input.status } : {}) },
    );
    return getBusiness(tx, caller.ownerId, businessId);
  });
}
