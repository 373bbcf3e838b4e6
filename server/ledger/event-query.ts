// The events list's filters, search and orders as SQL over financial_events, ONE meaning for
// GET /v1/events, its totals and its CSV export (issue 14). Every value is a bound parameter;
// the search escapes LIKE's wildcards so `50%` finds "50%" and not every row.
//
// Keyset pagination per sort: the page after a cursor is the rows strictly after the cursor's
// row in the sort's total order (ties broken by created_at, then id, in the sort's direction),
// so pages neither skip nor repeat a row while rows are added. The default sort keeps the
// contract's cursor (server/shared/pagination.ts).
import { utcDayOf } from "../../lib/days";
import { moneyDirectionSql } from "../../lib/money-direction";
import { Prisma } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { decodeCursor, encodeCursor } from "../shared/pagination";
import { isInstantInRange } from "../shared/safe-text";
import { countsInTotalsSql } from "./counted-total";
import { ZStoredDate, ZUuid } from "../shared/schemas";
import type { TEventFilters, TEventSort } from "./event.schema";

/** `text` as a literal ILIKE pattern (ESCAPE '\'): \, % and _ lose their wildcard meaning. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * 'in', 'out' or NULL: the side of the profit and loss financial_events row `alias` counts on
 * (server/reports/profit-and-loss.ts TYPE_ROWS): a refund to a customer lowers the in side, a
 * refund received lowers the out side; what moves no money is on neither.
 */
export function pnlSideSql(alias: string): string {
  const direction = moneyDirectionSql(alias);
  return `CASE WHEN (${direction}) IS NULL THEN NULL
    WHEN ${alias}.type = 'revenue' OR (${alias}.type = 'refund' AND (${direction}) = 'out') THEN 'in'
    ELSE 'out' END`;
}

/** The filters as one SQL condition over financial_events row `e` (owner first: tenant isolation). */
export function eventWhereSql(ownerId: string, filters: TEventFilters): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`e.owner_id = ${ownerId}::uuid`];
  if (filters.business_id) parts.push(Prisma.sql`e.business_id = ${filters.business_id}::uuid`);
  if (filters.project_id) parts.push(Prisma.sql`e.project_id = ${filters.project_id}::uuid`);
  if (filters.personal !== undefined) parts.push(Prisma.sql`e.personal = ${filters.personal}`);
  if (filters.type) parts.push(Prisma.sql`e.type = ${filters.type}`);
  if (filters.state) parts.push(Prisma.sql`e.state = ${filters.state}`);
  if (filters.status) parts.push(Prisma.sql`e.status = ${filters.status}`);
  if (filters.source_type) parts.push(Prisma.sql`e.source_type = ${filters.source_type}`);
  if (filters.currency) parts.push(Prisma.sql`e.currency = ${filters.currency}`);
  if (filters.from) parts.push(Prisma.sql`e.occurred_on >= ${filters.from}::date`);
  if (filters.to) parts.push(Prisma.sql`e.occurred_on <= ${filters.to}::date`);
  if (filters.category) parts.push(Prisma.sql`lower(e.category) = lower(${filters.category})`);
  if (filters.no_category) parts.push(Prisma.sql`e.category IS NULL`);
  if (filters.no_project) parts.push(Prisma.sql`e.project_id IS NULL`);
  // K3 and K4 as the read models count them (read-models/counted.ts actualMoneySql; written
  // here from the same two rules, ledger/counted-total and lib/money-direction, as read-models
  // builds on ledger and not the other way round).
  if (filters.counted)
    parts.push(Prisma.raw(`e.state = 'actual' AND ${countsInTotalsSql("e")} AND (${moneyDirectionSql("e")}) IS NOT NULL`));
  if (filters.side) parts.push(Prisma.sql`${Prisma.raw(pnlSideSql("e"))} = ${filters.side}`);
  if (filters.q) {
    const pattern = likeContains(filters.q);
    parts.push(Prisma.sql`(e.description ILIKE ${pattern} ESCAPE '\\'
      OR e.category ILIKE ${pattern} ESCAPE '\\'
      OR (jsonb_typeof(e.payload) = 'object' AND e.payload->>'counterparty' ILIKE ${pattern} ESCAPE '\\'))`);
  }
  return Prisma.join(parts, " AND ");
}

/** What a cursor of each sort remembers of the last row. */
export type TSortRow = { id: string; createdAt: Date; occurredOn: Date; baseAmountMinor: bigint | null };

type TKeyset = {
  /** ORDER BY over row `e`. */
  orderBy: Prisma.Sql;
  /** The rows after `cursor` (null: the first page). */
  after: (cursor: string) => Prisma.Sql;
  encode: (row: TSortRow) => string;
};

const DESC = { sql: Prisma.raw("DESC"), before: Prisma.raw("<") };
const ASC = { sql: Prisma.raw("ASC"), before: Prisma.raw(">") };

function invalidCursor(): AppError {
  return AppError.invalidField("cursor", "is not a cursor this API issued for this sort");
}

type TTaggedCursor = { sort: TEventSort; key: string | null; createdAt: Date; id: string };

function encodeTagged(cursor: { sort: TEventSort; key: string | null; createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.key, cursor.createdAt.toISOString(), cursor.id])).toString("base64url");
}

function decodeTagged(cursor: string, sort: TEventSort, key: (value: unknown) => value is string | null): TTaggedCursor {
  try {
    const parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    const [tag, value, createdAt, id] = parts;
    const date = new Date(String(createdAt));
    if (!Array.isArray(parts) || parts.length !== 4 || tag !== sort || !key(value)) throw new Error();
    if (typeof id !== "string" || !ZUuid.safeParse(id).success || !isInstantInRange(date)) throw new Error();
    return { sort, key: value, createdAt: date, id };
  } catch {
    throw invalidCursor();
  }
}

// A cursor's key must be a value PostgreSQL can cast, or a tampered cursor would be a 500.
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const isDay = (value: unknown): value is string => typeof value === "string" && ZStoredDate.safeParse(value).success;
const isMinorOrNull = (value: unknown): value is string | null =>
  value === null ||
  (typeof value === "string" && /^-?\d{1,19}$/.test(value) && BigInt(value) >= INT64_MIN && BigInt(value) <= INT64_MAX);

/** The tie-breakers after the sort's key, in its direction. */
function tieAfter(dir: typeof DESC, c: TTaggedCursor): Prisma.Sql {
  return Prisma.sql`(e.created_at, e.id) ${dir.before} (${c.createdAt.toISOString()}::timestamptz, ${c.id}::uuid)`;
}

function byDay(dir: typeof DESC, sort: TEventSort): TKeyset {
  return {
    orderBy: Prisma.sql`e.occurred_on ${dir.sql}, e.created_at ${dir.sql}, e.id ${dir.sql}`,
    after: (cursor) => {
      const c = decodeTagged(cursor, sort, isDay);
      return Prisma.sql`(e.occurred_on, e.created_at, e.id) ${dir.before} (${c.key}::date, ${c.createdAt.toISOString()}::timestamptz, ${c.id}::uuid)`;
    },
    encode: (row) => encodeTagged({ sort, key: utcDayOf(row.occurredOn), createdAt: row.createdAt, id: row.id }),
  };
}

/** By base_amount_minor, rows without one last in both directions. */
function byAmount(dir: typeof DESC, sort: TEventSort): TKeyset {
  return {
    orderBy: Prisma.sql`(e.base_amount_minor IS NULL) ASC, e.base_amount_minor ${dir.sql}, e.created_at ${dir.sql}, e.id ${dir.sql}`,
    after: (cursor) => {
      const c = decodeTagged(cursor, sort, isMinorOrNull);
      if (c.key === null) return Prisma.sql`(e.base_amount_minor IS NULL AND ${tieAfter(dir, c)})`;
      return Prisma.sql`(e.base_amount_minor IS NULL
        OR e.base_amount_minor ${dir.before} ${c.key}::bigint
        OR (e.base_amount_minor = ${c.key}::bigint AND ${tieAfter(dir, c)}))`;
    },
    encode: (row) =>
      encodeTagged({
        sort,
        key: row.baseAmountMinor === null ? null : row.baseAmountMinor.toString(),
        createdAt: row.createdAt,
        id: row.id,
      }),
  };
}

/** The contract's order and cursor: created_at desc, id desc. */
const BY_CREATED: TKeyset = {
  orderBy: Prisma.sql`e.created_at DESC, e.id DESC`,
  after: (cursor) => {
    const c = decodeCursor(cursor);
    return Prisma.sql`(e.created_at, e.id) < (${c.createdAt.toISOString()}::timestamptz, ${c.id}::uuid)`;
  },
  encode: (row) => encodeCursor(row),
};

export const KEYSETS: Record<TEventSort, TKeyset> = {
  "-created_at": BY_CREATED,
  "-occurred_on": byDay(DESC, "-occurred_on"),
  occurred_on: byDay(ASC, "occurred_on"),
  "-amount": byAmount(DESC, "-amount"),
  amount: byAmount(ASC, "amount"),
};
