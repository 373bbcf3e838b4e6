// K6 (pinned-wave2 §2.1): the cash of a scope. The latest snapshot (by as_of) of each
// (business or personal, account) of the scope, each converted at today's current rate (half
// even), summed; as_of = the oldest snapshot used; no snapshot → null. Events recorded after a
// snapshot are not added. "At the end of day D": only snapshots with as_of before the end of D
// in the owner's timezone. One row per account is loaded (a bounded list), chosen in SQL.
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { TOwnerDay } from "../shared/owner-today";
import { currentAmounts, toBigInt, toMinor, type TSummaryConversion } from "./display";
import { dayEndExclusive } from "./period";
import type { TCash } from "./read-model.schema";
import { oncePerRequest } from "./request-memo";
import { cashScopeSql, readScopeKey, type TReadScope } from "./scope";

export type TCashPosition = {
  /** Σ in the base currency. */
  amountMinor: bigint;
  /** The oldest as_of among the snapshots used. */
  asOf: Date;
  /** Accounts counted. */
  accounts: number;
  /** Their current-rate conversions (for the envelope's fx). */
  conversions: TSummaryConversion[];
};

type TLatestRow = { business_id: string | null; currency: string; amount_minor: unknown; as_of: Date };

/** The latest snapshot of each (business or personal, account) of the scope, valued at today's rate; once per request. */
function latestSnapshots(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, endOf: string | undefined) {
  return oncePerRequest(db, day, `cash:${readScopeKey(scope)}:${endOf ?? "now"}`, () =>
    readLatestSnapshots(db, day, scope, endOf),
  );
}

async function readLatestSnapshots(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, endOf: string | undefined) {
  const until = endOf ? Prisma.sql`AND cs.as_of < ${dayEndExclusive(day.timezone, endOf)}` : Prisma.empty;
  // The scope's accounts (hashed, a few of thousands of snapshots), then each one's latest as one
  // backward step of cash_snapshots_latest_idx: a DISTINCT ON sorted every snapshot of the
  // scope (two years of daily ones: 4,380 rows, the slowest statement of the daily brief).
  // A personal account (business_id NULL) takes the second branch: `=` never matches NULL. Each
  // branch orders by the whole index key, so IS NULL too walks the index instead of sorting.
  const latest = (key: Prisma.Sql) => Prisma.sql`
    SELECT cs.currency, cs.amount_minor, cs.as_of FROM cash_snapshots cs
     WHERE cs.owner_id = ${day.ownerId}::uuid AND ${key} AND cs.personal = a.personal AND cs.account_id = a.account_id ${until}
     ORDER BY cs.business_id, cs.personal, cs.account_id, cs.as_of DESC, cs.updated_at DESC, cs.id DESC LIMIT 1`;
  const rows = await db.$queryRaw<TLatestRow[]>`
    SELECT a.business_id::text AS business_id, l.currency::text AS currency, l.amount_minor, l.as_of
      FROM (SELECT DISTINCT cs.business_id, cs.personal, cs.account_id FROM cash_snapshots cs
             WHERE ${cashScopeSql("cs", day.ownerId, scope)} ${until}) a
     CROSS JOIN LATERAL ((${latest(Prisma.sql`cs.business_id = a.business_id`)})
                         UNION ALL
                         (${latest(Prisma.sql`a.business_id IS NULL AND cs.business_id IS NULL`)})) l
     ORDER BY a.business_id, a.personal, a.account_id`;
  const { amounts, conversions } = await currentAmounts(
    db,
    day,
    rows.map((row) => ({ amountMinor: toBigInt(row.amount_minor), currency: row.currency })),
  );
  return rows.map((row, i) => ({
    businessId: row.business_id,
    asOf: new Date(row.as_of),
    amountMinor: amounts[i]!,
    conversion: conversions[i]!,
  }));
}

function positionOf(snapshots: Awaited<ReturnType<typeof readLatestSnapshots>>): TCashPosition | null {
  if (snapshots.length === 0) return null;
  return {
    amountMinor: snapshots.reduce((sum, s) => sum + s.amountMinor, 0n),
    asOf: snapshots.map((s) => s.asOf).reduce((oldest, at) => (at < oldest ? at : oldest)),
    accounts: snapshots.length,
    conversions: snapshots.map((s) => s.conversion),
  };
}

/** The scope's cash now, or at the end of day `endOf` (owner timezone); null without a snapshot. */
export async function cashPosition(
  db: TDbOrTx,
  day: TOwnerDay,
  scope: TReadScope,
  options: { endOf?: string } = {},
): Promise<TCashPosition | null> {
  return positionOf(await latestSnapshots(db, day, scope, options.endOf));
}

/**
 * The whole owner's cash and each business's from the same snapshots (one query): the owner's
 * position, and business id → its position (personal snapshots count in the owner's only).
 */
export async function cashPositionsByBusiness(
  db: TDbOrTx,
  day: TOwnerDay,
): Promise<{ owner: TCashPosition | null; businesses: Map<string, TCashPosition> }> {
  const snapshots = await latestSnapshots(db, day, { kind: "owner" }, undefined);
  const businesses = new Map<string, TCashPosition>();
  for (const id of new Set(snapshots.flatMap((s) => (s.businessId ? [s.businessId] : [])))) {
    businesses.set(id, positionOf(snapshots.filter((s) => s.businessId === id))!);
  }
  return { owner: positionOf(snapshots), businesses };
}

/** The Cash shape, with the amount already in the display currency when one was asked. */
export function toCashDto(position: TCashPosition | null, displayAmountMinor?: bigint): TCash {
  if (!position) return null;
  return { amount_minor: toMinor(displayAmountMinor ?? position.amountMinor), as_of: position.asOf.toISOString() };
}
