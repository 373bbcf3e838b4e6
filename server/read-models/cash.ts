// K6 (pinned-wave2 §2.1): the cash of a scope. The latest snapshot (by as_of) of each
// (business or personal, account) of the scope, each converted at today's current rate (half
// even), summed; as_of = the oldest snapshot used; no snapshot → null. Events recorded after a
// snapshot are not added. "At the end of day D": only snapshots with as_of before the end of D
// in the owner's timezone. One row per account is loaded (a bounded list), chosen in SQL.
import type { TDbOrTx } from "../db/client";
import { PREPARED } from "../db/prepared-statements";
import { Prisma } from "../db/generated/client";
import type { TOwnerDay } from "../shared/owner-today";
import { currentAmounts, toBigInt, toMinor, type TSummaryConversion } from "./display";
import { dayEndExclusive } from "./period";
import type { TCash } from "./read-model.schema";
import { oncePerRequest } from "./request-memo";
import { readScopeKey, type TReadScope } from "./scope";

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

/**
 * The scope's accounts, (business_id, personal, account_id), each found by one step of
 * cash_snapshots_latest_idx (a recursive skip scan: the next key after the last one found), so
 * the few accounts cost a few index probes instead of hashing every snapshot (4,380 for two years
 * of daily ones: the DISTINCT was most of the statement). A row comparison never matches NULL, so
 * the accounts without a business (personal ones) are walked on their own, under `business_id IS NULL`.
 */
function scopeAccountsSql(ownerId: string, scope: TReadScope): Prisma.Sql {
  const owner = Prisma.sql`cs.owner_id = ${ownerId}::uuid`;
  const inScope =
    scope.kind === "business" || scope.kind === "project"
      ? Prisma.sql`AND cs.business_id = ${scope.businessId}::uuid`
      : scope.kind === "personal"
        ? Prisma.sql`AND cs.personal = true`
        : Prisma.empty;
  const order = Prisma.sql`ORDER BY cs.business_id, cs.personal, cs.account_id LIMIT 1`;
  const ofBusinesses = Prisma.sql`
    WITH RECURSIVE k AS (
      (SELECT cs.business_id, cs.personal, cs.account_id FROM cash_snapshots cs
        WHERE ${owner} AND cs.business_id IS NOT NULL ${inScope} ${order})
      UNION ALL
      SELECT n.business_id, n.personal, n.account_id FROM k CROSS JOIN LATERAL (
        SELECT cs.business_id, cs.personal, cs.account_id FROM cash_snapshots cs
         WHERE ${owner} ${inScope} AND (cs.business_id, cs.personal, cs.account_id) > (k.business_id, k.personal, k.account_id)
         ${order}) n)
    SELECT business_id, personal, account_id FROM k`;
  // A business's scope has no account without a business.
  if (scope.kind === "business" || scope.kind === "project") return ofBusinesses;
  const withoutBusiness = Prisma.sql`
    WITH RECURSIVE k AS (
      (SELECT cs.personal, cs.account_id FROM cash_snapshots cs
        WHERE ${owner} AND cs.business_id IS NULL ${inScope} ${order})
      UNION ALL
      SELECT n.personal, n.account_id FROM k CROSS JOIN LATERAL (
        SELECT cs.personal, cs.account_id FROM cash_snapshots cs
         WHERE ${owner} AND cs.business_id IS NULL ${inScope} AND (cs.personal, cs.account_id) > (k.personal, k.account_id)
         ${order}) n)
    SELECT NULL::uuid AS business_id, personal, account_id FROM k`;
  return Prisma.sql`(${ofBusinesses}) UNION ALL (${withoutBusiness})`;
}

async function readLatestSnapshots(db: TDbOrTx, day: TOwnerDay, scope: TReadScope, endOf: string | undefined) {
  const until = endOf ? Prisma.sql`AND cs.as_of < ${dayEndExclusive(day.timezone, endOf)}` : Prisma.empty;
  // The scope's accounts (scopeAccountsSql), then each one's latest as one backward step of
  // cash_snapshots_latest_idx: a DISTINCT ON sorted every snapshot of the scope. An account
  // with no snapshot before `endOf` has no latest, and drops out of the join.
  // A personal account (business_id NULL) takes the second branch: `=` never matches NULL. Each
  // branch orders by the whole index key, so IS NULL too walks the index instead of sorting.
  const latest = (key: Prisma.Sql) => Prisma.sql`
    SELECT cs.currency, cs.amount_minor, cs.as_of FROM cash_snapshots cs
     WHERE cs.owner_id = ${day.ownerId}::uuid AND ${key} AND cs.personal = a.personal AND cs.account_id = a.account_id ${until}
     ORDER BY cs.business_id, cs.personal, cs.account_id, cs.as_of DESC, cs.updated_at DESC, cs.id DESC LIMIT 1`;
  const rows = await db.$queryRaw<TLatestRow[]>`${PREPARED}
    SELECT a.business_id::text AS business_id, l.currency::text AS currency, l.amount_minor, l.as_of
      FROM (${scopeAccountsSql(day.ownerId, scope)}) a
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

/**
 * The Cash shape, with the amount already in the display currency when one was asked; `at` is
 * the field's name in the answer ("cash", "starting_cash"), naming it when beyond the exact range.
 */
export function toCashDto(position: TCashPosition | null, displayAmountMinor: bigint | undefined, at: string): TCash {
  if (!position) return null;
  return {
    amount_minor: toMinor(displayAmountMinor ?? position.amountMinor, `${at}.amount_minor`),
    as_of: position.asOf.toISOString(),
  };
}
