// Businesses of one owner. Every query carries the owner id, so another owner's business is
// simply not found.
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import type { TDbOrTx } from "../db/client";
import { inTransaction } from "../db/transaction";
import type { Business } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { assertKnownCurrency } from "../shared/currencies";
import { pageArgs, toPage, type TPageQuery } from "../shared/pagination";
import type { TBusiness, TCreateBusinessInput, TUpdateBusinessInput } from "./business.schema";

export function toBusinessDto(row: Business): TBusiness {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function createBusiness(db: TDbOrTx, caller: TCaller, input: TCreateBusinessInput) {
  assertKnownCurrency(input.currency, "currency");
  return inTransaction(db, async (tx) => {
    const row = await tx.business.create({ data: { ownerId: caller.ownerId, name: input.name, currency: input.currency } });
    await auditCaller(tx, caller, "business.created", { type: "business", id: row.id });
    return toBusinessDto(row);
  });
}

export async function findBusinesses(db: TDbOrTx, ownerId: string, query: TPageQuery) {
  const args = pageArgs(query);
  const rows = await db.business.findMany({ ...args, where: { ownerId, ...args.where } });
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
    // updateMany carries the owner in its filter, so the write itself is tenant-scoped.
    const { count } = await tx.business.updateMany({
      where: { id: businessId, ownerId: caller.ownerId },
      data: { name: input.name, currency: input.currency },
    });
    if (count === 0) throw AppError.notFound("business");
    await auditCaller(tx, caller, "business.updated", { type: "business", id: businessId }, { fields: Object.keys(input) });
    return getBusiness(tx, caller.ownerId, businessId);
  });
}
