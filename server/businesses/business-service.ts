// Businesses of one owner. Every query carries the owner id, so another owner's business is
// simply not found.
import type { TDbOrTx } from "../db/client";
import type { Business } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { assertKnownCurrency } from "../shared/currencies";
import { pageArgs, toPage } from "../shared/pagination";
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

export async function createBusiness(db: TDbOrTx, ownerId: string, input: TCreateBusinessInput) {
  assertKnownCurrency(input.currency, "currency");
  const row = await db.business.create({ data: { ownerId, name: input.name, currency: input.currency } });
  return toBusinessDto(row);
}

export async function findBusinesses(db: TDbOrTx, ownerId: string, query: { limit: number; cursor?: string }) {
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

export async function updateBusiness(db: TDbOrTx, ownerId: string, businessId: string, input: TUpdateBusinessInput) {
  if (input.currency) assertKnownCurrency(input.currency, "currency");
  // updateMany carries the owner in its filter, so the write itself is tenant-scoped.
  const { count } = await db.business.updateMany({
    where: { id: businessId, ownerId },
    data: { name: input.name, currency: input.currency },
  });
  if (count === 0) throw AppError.notFound("business");
  return getBusiness(db, ownerId, businessId);
}
