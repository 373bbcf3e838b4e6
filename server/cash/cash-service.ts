// Cash snapshots: an account's balance at a moment. One snapshot per scope, account and day
// (its external_id <provider>:<account_id>:<YYYY-MM-DD of as_of in UTC>, unique per owner and
// scope: two businesses may use one account label); a repeat on the same day in the same
// scope overwrites it only when its as_of is later. The rule lives in
// upsertCashSnapshots, shared by the owner's manual entry (POST /v1/cash-snapshots) and the
// integrations' snapshot path.
import { isCurrencyCode } from "../../lib/currencies";
import { todayUtc, utcDayOf } from "../../lib/days";
import type { TCaller } from "../auth/caller";
import { recordAudit, type TAuditActor } from "../audit/audit-service";
import { requireBusiness } from "../businesses/business-service";
import type { TDbOrTx, TTx } from "../db/client";
import { Prisma, type CashSnapshot } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError, type TErrorCode } from "../errors/app-error";
import { convertManySettled } from "../fx/fx-service";
import { exactMinorOrNull, isExactMinor } from "../fx/money";
import { baseCurrencyOf, toBaseAmounts, type TBaseAmount } from "../fx/base-amounts";
import { pageArgs, toPage, type TPageQuery } from "../shared/pagination";
import type {
  TCashSnapshot,
  TCashSnapshotFilters,
  TCashSnapshotWritten,
  TCashWriteOutcome,
  TCreateCashSnapshotInput,
} from "./cash-snapshot.schema";
import { LATEST_CASH_ACCOUNTS_MAX } from "./find-latest-cash-snapshots.types";
import { DATA_CLASSES } from "./cash-snapshot.schema";
import { parseState } from "../shared/parse-state";

/** A snapshot as the snapshot path takes it (contract: CashSnapshotInput). */
export type TCashSnapshotWrite = {
  business_id?: string | null;
  personal?: boolean;
  amount_minor: number | bigint;
  currency: string;
  /** A timestamp (ISO 8601 with offset) or a Date. */
  as_of: string | Date;
  payload: { account_id: string; iban_last4?: string | null };
  /** Omitted = entered by the owner (MANUAL). Integrations give their source and external_id. */
  provenance?: { source: { type: string; integration_id?: string | null; external_id?: string | null } } | null;
};

export type TCashRejection = { index: number; external_id: string | null; code: TErrorCode; message: string };

export type TCashUpsertItem =
  | { index: number; outcome: TCashWriteOutcome; id: string; external_id: string }
  | { index: number; outcome: "rejected"; code: TErrorCode };

/**
 * inserted counts the snapshots written (new ones and same-day overwrites; replaced says how
 * many of them were overwrites), deduped those kept because the stored one is as recent.
 */
export type TCashUpsertResult = {
  inserted: number;
  replaced: number;
  deduped: number;
  rejected: TCashRejection[];
  items: TCashUpsertItem[];
};

/** How far ahead of the server's clock an as_of may be (clock skew), not more. */
const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

const MANUAL = "MANUAL";

/** A snapshot's scope key: business:<id>, or personal. */
export function cashScope(businessId: string | null): string {
  return businessId === null ? "personal" : `business:${businessId}`;
}

export function cashExternalId(provider: string, accountId: string, asOf: Date): string {
  return `${provider}:${accountId}:${utcDayOf(asOf)}`;
}

type TPrepared = {
  index: number;
  externalId: string;
  data: Omit<Prisma.CashSnapshotUncheckedCreateInput, "id" | "createdAt" | "updatedAt">;
};

function reject(index: number, externalId: string | null, code: TErrorCode, message: string): TCashRejection {
  return { index, external_id: externalId, code, message };
}

/** Checks one input and builds its row, or says why it is rejected (no database access). */
function prepare(ownerId: string, input: TCashSnapshotWrite, index: number, now: number): TPrepared | TCashRejection {
  const accountId = typeof input.payload?.account_id === "string" ? input.payload.account_id.trim() : "";
  const asOf = input.as_of instanceof Date ? input.as_of : new Date(input.as_of);
  const source = input.provenance?.source;
  const sourceType = source?.type ?? MANUAL;
  const validAsOf = !Number.isNaN(asOf.getTime());
  const externalId =
    source?.external_id ?? (accountId && validAsOf ? cashExternalId(sourceType.toLowerCase(), accountId, asOf) : null);
  const invalid = (field: string, message: string) => reject(index, externalId, "validation_error", `${field}: ${message}`);

  if (!accountId || accountId.length > 128) return invalid("payload.account_id", "must be 1 to 128 characters");
  if (!validAsOf) return invalid("as_of", "must be a timestamp");
  if (asOf.getTime() > now + FUTURE_TOLERANCE_MS) return invalid("as_of", "must not be in the future");
  const business = input.business_id ?? null;
  if ((business !== null) === (input.personal === true))
    return invalid("business_id", "give exactly one of business_id or personal");
  if (!isCurrencyCode(input.currency)) return invalid("currency", `${input.currency} is not an ISO 4217 currency code`);
  const amount = typeof input.amount_minor === "bigint" ? input.amount_minor : Number(input.amount_minor);
  if (typeof amount === "number" ? !Number.isSafeInteger(amount) : !isExactMinor(amount))
    return invalid("amount_minor", "must be an integer within ±(2^53 − 1)");
  const iban = input.payload.iban_last4 ?? null;
  if (iban !== null && !/^[0-9A-Za-z]{4}$/.test(iban)) return invalid("payload.iban_last4", "must be 4 letters or digits");
  // The day key must be this account and this day, whatever the provider prefix.
  const suffix = `:${accountId}:${utcDayOf(asOf)}`;
  if (!externalId || !externalId.endsWith(suffix) || externalId.length === suffix.length) {
    return invalid("provenance.source.external_id", `must be <provider>${suffix}`);
  }
  return {
    index,
    externalId,
    data: {
      ownerId,
      businessId: business,
      personal: business === null,
      scope: cashScope(business),
      amountMinor: BigInt(amount),
      currency: input.currency,
      asOf,
      accountId,
      ibanLast4: iban?.toUpperCase() ?? null,
      externalId,
      dataClass: sourceType === MANUAL ? "manual" : "real",
      sourceType,
      integrationId: source?.integration_id ?? null,
      provenance: {
        source: { type: sourceType, integration_id: source?.integration_id ?? null, external_id: externalId },
      },
    },
  };
}

/**
 * Writes snapshots for one owner, each independently (partial success): a new scope-account-day
 * is inserted; a repeat for the same scope, account and day overwrites the stored snapshot only when
 * its as_of is later, else the stored one is kept (deduped). Rejections: validation_error
 * (shape, scope, a business that is not the owner's), currency_unsupported, fx_unavailable.
 * Both writes are single atomic statements (INSERT … ON CONFLICT DO NOTHING, then UPDATE …
 * WHERE as_of < new), so concurrent writers of one account-day keep the latest as_of.
 * `now` is the time the write runs at (an as_of after it is refused). With `audit`, every write is
 * audited in the same transaction.
 */
export async function upsertCashSnapshots(
  tx: TDbOrTx,
  ownerId: string,
  inputs: TCashSnapshotWrite[],
  options: { now: Date; audit?: { actor: TAuditActor; requestId?: string | null } },
): Promise<TCashUpsertResult> {
  const { audit } = options;
  const now = options.now.getTime();
  const rejected: TCashRejection[] = [];
  let prepared: TPrepared[] = [];
  for (const [index, input] of inputs.entries()) {
    const result = prepare(ownerId, input, index, now);
    if ("code" in result) rejected.push(result);
    else prepared.push(result);
  }

  // Businesses must be the owner's: one query for all.
  const businessIds = [...new Set(prepared.flatMap((p) => (p.data.businessId ? [p.data.businessId] : [])))];
  if (businessIds.length > 0) {
    const owned = await tx.business.findMany({ where: { ownerId, id: { in: businessIds } }, select: { id: true } });
    const known = new Set(owned.map((b) => b.id));
    prepared = prepared.filter((p) => {
      if (!p.data.businessId || known.has(p.data.businessId)) return true;
      rejected.push(reject(p.index, p.externalId, "validation_error", "business_id: no such business"));
      return false;
    });
  }

  // The amount must convert to the base currency (the records show base amounts), within the
  // exact range: one lookup.
  if (prepared.length > 0) {
    const base = await baseCurrencyOf(tx, ownerId);
    const day = todayUtc();
    const outcomes = await convertManySettled(
      tx,
      prepared.map((p) => ({
        amountMinor: p.data.amountMinor as bigint,
        from: p.data.currency,
        to: base,
        on: day,
        kind: "current" as const,
      })),
    );
    prepared = prepared.filter((p, i) => {
      const outcome = outcomes[i]!;
      if (!outcome.ok) rejected.push(reject(p.index, p.externalId, outcome.error.code, outcome.error.message));
      else if (outcome.amountMinor === null)
        rejected.push(reject(p.index, p.externalId, "validation_error", outcome.outOfRange.message));
      else return true;
      return false;
    });
  }

  const items: TCashUpsertItem[] = rejected.map((r) => ({ index: r.index, outcome: "rejected", code: r.code }));
  let inserted = 0;
  let replaced = 0;
  let deduped = 0;
  // In input order, so two inputs for one account-day in the same batch follow the same rule.
  for (const p of prepared) {
    const created = await tx.cashSnapshot.createMany({ data: [p.data], skipDuplicates: true });
    let outcome: TCashWriteOutcome;
    if (created.count === 1) {
      outcome = "created";
      inserted++;
    } else {
      const { ownerId: _owner, scope, externalId: _key, ...fields } = p.data;
      const updated = await tx.cashSnapshot.updateMany({
        where: { ownerId, scope, externalId: p.externalId, asOf: { lt: p.data.asOf } },
        data: fields,
      });
      outcome = updated.count === 1 ? "replaced" : "kept";
      if (outcome === "replaced") {
        inserted++;
        replaced++;
      } else deduped++;
    }
    const row = await tx.cashSnapshot.findUniqueOrThrow({
      where: { ownerId_scope_externalId: { ownerId, scope: p.data.scope, externalId: p.externalId } },
      select: { id: true },
    });
    items.push({ index: p.index, outcome, id: row.id, external_id: p.externalId });
    if (audit && outcome !== "kept") {
      await recordAudit(tx, {
        ownerId,
        actor: audit.actor,
        requestId: audit.requestId ?? null,
        action: outcome === "created" ? "cash_snapshot.created" : "cash_snapshot.replaced",
        target: { type: "cash_snapshot", id: row.id },
        details: { external_id: p.externalId, as_of: p.data.asOf instanceof Date ? p.data.asOf.toISOString() : null },
      });
    }
  }
  items.sort((a, b) => a.index - b.index);
  rejected.sort((a, b) => a.index - b.index);
  return { inserted, replaced, deduped, rejected, items };
}

export function toCashSnapshotDto(row: CashSnapshot, base: TBaseAmount): TCashSnapshot {
  return {
    id: row.id,
    business_id: row.businessId,
    project_id: null,
    personal: row.personal,
    amount_minor: exactMinorOrNull(row.amountMinor),
    currency: row.currency,
    ...base,
    as_of: row.asOf.toISOString(),
    account_id: row.accountId,
    iban_last4: row.ibanLast4,
    external_id: row.externalId,
    data_class: parseState(DATA_CLASSES, row.dataClass),
    source_type: row.sourceType,
    integration_id: row.integrationId,
    provenance: (row.provenance as Record<string, unknown> | null) ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The owner's manual entry: created (201), or replaced / kept (200) for an account-day already stored. */
export async function createCashSnapshot(
  db: TDbOrTx,
  caller: TCaller,
  input: TCreateCashSnapshotInput,
): Promise<TCashSnapshotWritten> {
  if (input.business_id) await requireBusiness(db, caller.ownerId, input.business_id);
  return inTransaction(db, async (tx: TTx) => {
    const result = await upsertCashSnapshots(
      tx,
      caller.ownerId,
      [
        {
          business_id: input.business_id ?? null,
          personal: input.personal === true,
          amount_minor: input.amount_minor,
          currency: input.currency,
          as_of: input.as_of,
          payload: input.payload,
        },
      ],
      { now: caller.now, audit: { actor: caller.actor, requestId: caller.requestId } },
    );
    const [rejection] = result.rejected;
    if (rejection) {
      throw new AppError(rejection.code, rejection.message, {
        details: rejection.code === "validation_error" ? { issues: [issueOf(rejection.message)] } : undefined,
      });
    }
    const item = result.items[0]!;
    if (item.outcome === "rejected") throw new AppError("internal_error");
    const row = await tx.cashSnapshot.findUniqueOrThrow({ where: { id: item.id } });
    const [base] = await toBaseAmounts(tx, caller.ownerId, [row]);
    return { ...toCashSnapshotDto(row, base!), outcome: item.outcome };
  });
}

/** "field: message" back into a validation issue. */
function issueOf(message: string): { path: string; message: string } {
  const at = message.indexOf(": ");
  return at > 0 ? { path: message.slice(0, at), message: message.slice(at + 2) } : { path: "", message };
}

async function toCashSnapshotDtos(db: TDbOrTx, ownerId: string, rows: CashSnapshot[]): Promise<TCashSnapshot[]> {
  const bases = await toBaseAmounts(db, ownerId, rows);
  return rows.map((row, index) => toCashSnapshotDto(row, bases[index]!));
}

/** Every stored snapshot of the owner, newest first (the list convention's order). */
export async function findCashSnapshots(db: TDbOrTx, ownerId: string, query: TPageQuery & TCashSnapshotFilters) {
  const args = pageArgs(query);
  const rows = await db.cashSnapshot.findMany({
    ...args,
    where: {
      ownerId,
      businessId: query.business_id,
      personal: query.personal,
      accountId: query.account_id,
      ...args.where,
    },
  });
  const { rows: kept, page } = toPage(rows, query.limit);
  return { data: await toCashSnapshotDtos(db, ownerId, kept), page };
}

/**
 * The latest snapshot (by as_of; ties: the later written) of each account of each scope, in
 * the order of the read models' cash (K6), so the balances shown are the ones it sums. The
 * DISTINCT ON walks cash_snapshots_latest_idx.
 */
export async function findLatestCashSnapshots(
  db: TDbOrTx,
  ownerId: string,
  filters: TCashSnapshotFilters,
): Promise<{ data: TCashSnapshot[]; truncated: boolean }> {
  const conditions = [Prisma.sql`cs.owner_id = ${ownerId}::uuid`];
  if (filters.business_id) conditions.push(Prisma.sql`cs.business_id = ${filters.business_id}::uuid`);
  if (filters.personal !== undefined) conditions.push(Prisma.sql`cs.personal = ${filters.personal}`);
  if (filters.account_id) conditions.push(Prisma.sql`cs.account_id = ${filters.account_id}`);
  const latest = await db.$queryRaw<Array<{ id: string }>>`
    SELECT DISTINCT ON (cs.business_id, cs.personal, cs.account_id) cs.id::text AS id
      FROM cash_snapshots cs
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY cs.business_id, cs.personal, cs.account_id, cs.as_of DESC, cs.updated_at DESC, cs.id DESC
     LIMIT ${LATEST_CASH_ACCOUNTS_MAX + 1}`;
  const truncated = latest.length > LATEST_CASH_ACCOUNTS_MAX;
  const ids = latest.slice(0, LATEST_CASH_ACCOUNTS_MAX).map((row) => row.id);
  const rows = await db.cashSnapshot.findMany({
    where: { ownerId, id: { in: ids } },
    orderBy: [{ businessId: { sort: "asc", nulls: "last" } }, { accountId: "asc" }],
  });
  return { data: await toCashSnapshotDtos(db, ownerId, rows), truncated };
}
