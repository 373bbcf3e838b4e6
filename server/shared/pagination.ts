// Cursor pagination shared by every list (contract Conventions 7–8): order created_at desc,
// id desc; the cursor is opaque (base64url of the last row's sort key).
import { z } from "zod";
import { AppError } from "../errors/app-error";
import { isInstantInRange } from "./safe-text";
import { ZCurrency, ZDate, ZQueryBoolean, ZUuid, zQueryNumber } from "./schemas";

export const ZPageQuery = z.object({
  limit: zQueryNumber().int().min(1).max(200).default(50).describe("Page size, 1 to 200."),
  // null is the first page too (tRPC's infinite queries start with it).
  cursor: z.string().max(200).nullish().describe("The page.next_cursor of the previous page."),
});

/** The filters every list accepts (Conventions 8); each list uses those that apply to it. */
export const ZListFilters = z.object({
  business_id: ZUuid.optional().describe("Only records of this business (its projects included)."),
  project_id: ZUuid.optional().describe("Only records of this project."),
  personal: ZQueryBoolean.optional().describe("true: only the owner's personal records; false: only business records."),
  type: z.string().max(64).optional().describe("Only records of this type."),
  state: z.string().max(64).optional().describe("Only records in this state."),
  from: ZDate.optional(),
  to: ZDate.optional(),
  source_type: z.string().max(64).optional(),
  currency: ZCurrency.optional().describe("Only records in this ISO 4217 currency (their original currency)."),
});

export const ZListQuery = ZPageQuery.extend(ZListFilters.shape);

export const ZPage = z.object({ next_cursor: z.string().nullable(), has_more: z.boolean() });

export type TPage = z.infer<typeof ZPage>;

/** What a service needs of a list query. */
export type TPageQuery = { limit: number; cursor?: string | null };

/** A list answer: `{ data: Item[], page }`. */
export function ZListOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), page: ZPage });
}

type TSortKey = { createdAt: Date; id: string };

export function encodeCursor(row: TSortKey): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString("base64url");
}

export function decodeCursor(cursor: string): TSortKey {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    const date = new Date(String(createdAt));
    // A date PostgreSQL cannot compare (year 0, +275760) would fail the query: 500 before this check.
    if (typeof id !== "string" || !ZUuid.safeParse(id).success || !isInstantInRange(date)) throw new Error();
    return { createdAt: date, id };
  } catch {
    throw AppError.invalidField("cursor", "is not a cursor this API issued");
  }
}

/** The Prisma `where` and `orderBy` for one page (ask for limit + 1 rows to learn has_more). */
export function pageArgs(query: TPageQuery) {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  return {
    where: after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {},
    orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }],
    take: query.limit + 1,
  };
}

/** Cuts the extra row and builds `page`. */
export function toPage<R extends TSortKey>(rows: R[], limit: number): { rows: R[]; page: TPage } {
  const hasMore = rows.length > limit;
  const kept = hasMore ? rows.slice(0, limit) : rows;
  const last = kept.at(-1);
  return { rows: kept, page: { next_cursor: hasMore && last ? encodeCursor(last) : null, has_more: hasMore } };
}
