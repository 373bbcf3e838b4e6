// Statement imports of one owner (contract: Import preview, Import rules): the upload parses the
// file and stores a preview (nothing reaches the ledger), the confirm writes the events through
// the ingest path in ONE transaction with the accepted proposals' subscriptions and one audit
// entry. Every lookup is set-based: one query for the file's external ids, one for the
// reconciliation candidates of its date range, whatever the number of rows.
import { randomUUID } from "node:crypto";
import { auditCaller } from "../audit/audit-service";
import type { TCaller } from "../auth/caller";
import { requireBusiness } from "../businesses/business-service";
import type { TDbOrTx, TTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { daysBetween, todayUtc } from "../fx/money";
import { ingestEventsInTx } from "../ingest/ingest-events";
import { isKnownCurrency } from "../shared/currencies";
import { ZUuid } from "../shared/schemas";
import { createSubscription } from "../subscriptions/subscription-service";
import {
  IMPORT_LIFETIME_MS,
  IMPORT_MAX_LISTED_REJECTIONS,
  IMPORT_TX_OPTIONS,
  IMPORT_PAGE_ROWS,
  type TConfirmImportInput,
  type TCreateImportResult,
  type TImport,
  type TImportPresetDto,
  type TImportRejection,
  type TImportResult,
} from "./import.schema";
import { packRow, toPreviewRow, unpackRow, type TRowData, type TStoredRow } from "./import-rows";
import { parseStatement, type TParsedRow } from "./parse-statement";
import { findPreset, IMPORT_PRESETS, type TImportMapping } from "./presets";
import { detectRecurring, nameKey, type TProposal, type TRecurringInput } from "./recurring-detector";
import { MANUAL_IMPORT_PROVIDER } from "../sources/providers";

/** Events per ingest call inside the confirm's transaction (bind-parameter limits). */
export const INGEST_CHUNK = 2000;
/** Reconciliation window (contract Limits: 3 days). */
const RECONCILE_DAYS = 3;
const PAGES_PER_INSERT = 20;
/** Past import charges that join the file's rows for recurring detection (a monthly statement holds one charge per series). */
const HISTORY_DAYS = 400;
const HISTORY_MAX_EVENTS = 20_000;

function inImportTransaction<T>(db: TDbOrTx, fn: (tx: TTx) => Promise<T>): Promise<T> {
  return inTransaction(db, fn, IMPORT_TX_OPTIONS);
}

export type TImportSettingsStored = { currency_default: string | null; reconcile: boolean; own_accounts: string[] };

type TSummary = {
  total_rows: number;
  would_insert: number;
  would_dedupe: number;
  rejected: TImportRejection[];
  rejected_count: number;
  unmapped_columns: string[];
  skipped_transfers: number;
};

export type TCreateImportInput = {
  bytes: Uint8Array;
  fileName: string | null;
  businessId: string;
  projectId?: string;
  presetId: string;
  mapping?: TImportMapping;
  ownAccounts?: string[];
  currencyDefault?: string;
  reconcile: boolean;
};

const isUuid = (value: string) => ZUuid.safeParse(value).success;

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function dayDate(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

export function manualImportAccountId(ownerId: string): string {
  return `owner:${ownerId}`;
}

/** The owner's manual_import integration, if the first import created it already. */
async function findManualIntegration(db: TDbOrTx, ownerId: string): Promise<{ id: string } | null> {
  return db.integration.findFirst({
    where: { ownerId, provider: MANUAL_IMPORT_PROVIDER, accountId: manualImportAccountId(ownerId) },
    select: { id: true },
  });
}

/** Created on the first confirmed import; one per owner (unique provider + account_id). */
async function ensureManualIntegration(tx: TTx, ownerId: string, businessId: string): Promise<{ id: string }> {
  return tx.integration.upsert({
    where: { provider_accountId: { provider: MANUAL_IMPORT_PROVIDER, accountId: manualImportAccountId(ownerId) } },
    create: {
      ownerId,
      provider: MANUAL_IMPORT_PROVIDER,
      name: "Bank statement imports",
      businessId,
      accountId: manualImportAccountId(ownerId),
    },
    update: {},
    select: { id: true },
  });
}

type TDirection = "in" | "out";

const OUT_TYPES = new Set(["expense", "recurring_expense", "ad_spend", "planned_expense"]);

function directionOfEvent(type: string, direction: string | null): TDirection | null {
  if (type === "revenue") return "in";
  if (OUT_TYPES.has(type)) return "out";
  if (type === "refund" && (direction === "in" || direction === "out")) return direction;
  return null;
}

type TOkRow = Extract<TParsedRow, { external_id: string }>;

/** external_id → the stored event of the owner's manual_import integration (one query). */
async function storedImportIds(db: TDbOrTx, integrationId: string | undefined, ids: string[]): Promise<Map<string, string>> {
  if (!integrationId || ids.length === 0) return new Map();
  const rows = await db.$queryRaw<Array<{ id: string; external_id: string }>>`
    SELECT id::text AS id, external_id FROM financial_events
    WHERE integration_id = ${integrationId}::uuid AND external_id = ANY(${ids}::text[])`;
  return new Map(rows.map((row) => [row.external_id, row.id]));
}

/**
 * Matches rows against actual, confirmed events of the owner's other integrations: same amount
 * (absolute), currency and direction, dated within 3 days. Each event matches one row at most
 * (the closest date wins, then file order); events that an earlier import already reconciles
 * are not matched again. Two queries for the whole file.
 */
async function reconcileRows(
  db: TDbOrTx,
  ownerId: string,
  manualId: string | undefined,
  rows: TOkRow[],
): Promise<Map<number, string>> {
  const matches = new Map<number, string>();
  if (rows.length === 0) return matches;
  let min = rows[0]!.occurred_on;
  let max = min;
  const currencies = new Set<string>();
  for (const row of rows) {
    if (row.occurred_on < min) min = row.occurred_on;
    if (row.occurred_on > max) max = row.occurred_on;
    currencies.add(row.currency);
  }
  const from = addDays(min, -RECONCILE_DAYS);
  const to = addDays(max, RECONCILE_DAYS);
  const [candidates, claimedRows] = await Promise.all([
    db.financialEvent.findMany({
      where: {
        ownerId,
        state: "actual",
        status: "confirmed",
        reconciled: false,
        sourceType: { not: "MANUAL" },
        AND: [{ integrationId: { not: null } }, ...(manualId ? [{ integrationId: { not: manualId } }] : [])],
        currency: { in: [...currencies] },
        occurredOn: { gte: dayDate(from), lte: dayDate(to) },
      },
      select: { id: true, type: true, direction: true, amountMinor: true, currency: true, occurredOn: true },
      orderBy: [{ occurredOn: "asc" }, { id: "asc" }],
    }),
    manualId
      ? db.financialEvent.findMany({
          where: {
            integrationId: manualId,
            reconciled: true,
            status: "confirmed",
            occurredOn: { gte: dayDate(addDays(from, -RECONCILE_DAYS)), lte: dayDate(addDays(to, RECONCILE_DAYS)) },
          },
          select: { payload: true },
        })
      : Promise.resolve([]),
  ]);
  const used = new Set<string>();
  for (const { payload } of claimedRows) {
    const named = (payload as { reconciles_event_id?: string | string[] } | null)?.reconciles_event_id;
    for (const id of Array.isArray(named) ? named : named ? [named] : []) used.add(id);
  }
  const byKey = new Map<string, Array<{ id: string; day: string }>>();
  for (const event of candidates) {
    const direction = directionOfEvent(event.type, event.direction);
    if (!direction || used.has(event.id)) continue;
    const amount = event.amountMinor < 0n ? -event.amountMinor : event.amountMinor;
    const key = `${event.currency}|${amount}|${direction}`;
    const list = byKey.get(key) ?? [];
    list.push({ id: event.id, day: event.occurredOn.toISOString().slice(0, 10) });
    byKey.set(key, list);
  }
  if (byKey.size === 0) return matches;
  // Every (row, event) pair inside the window, closest first (then file order, then the
  // event's date and id): each event goes to its closest row, each row to its closest event.
  const pairs: Array<{ row: number; id: string; distance: number; rank: number }> = [];
  for (const row of rows) {
    const list = byKey.get(`${row.currency}|${Math.abs(row.amount_minor)}|${row.amount_minor < 0 ? "out" : "in"}`);
    if (!list) continue;
    list.forEach((candidate, rank) => {
      const distance = Math.abs(daysBetween(row.occurred_on, candidate.day));
      if (distance <= RECONCILE_DAYS) pairs.push({ row: row.row, id: candidate.id, distance, rank });
    });
  }
  pairs.sort((a, b) => a.distance - b.distance || a.row - b.row || a.rank - b.rank);
  for (const pair of pairs) {
    if (used.has(pair.id) || matches.has(pair.row)) continue;
    used.add(pair.id);
    matches.set(pair.row, pair.id);
  }
  return matches;
}

/**
 * The earlier imported charges of the import's scope (expenses of the owner's manual_import
 * integration in the same business, and the same project when the import names one, over the
 * last 400 days, at most 20,000, one query), minus the rows of this file: statements uploaded
 * month by month still show their series. Never another business's charges: the manual_import
 * integration is the owner's, shared by all their businesses.
 */
async function pastImportCharges(
  db: TDbOrTx,
  manualId: string | undefined,
  scope: { businessId: string; projectId?: string },
  fileIds: Set<string>,
  today: string,
): Promise<TRecurringInput[]> {
  if (!manualId) return [];
  const events = await db.financialEvent.findMany({
    where: {
      integrationId: manualId,
      businessId: scope.businessId,
      ...(scope.projectId ? { projectId: scope.projectId } : {}),
      type: "expense",
      status: "confirmed",
      occurredOn: { gte: dayDate(addDays(today, -HISTORY_DAYS)) },
    },
    select: { externalId: true, occurredOn: true, amountMinor: true, currency: true, description: true, payload: true },
    orderBy: [{ occurredOn: "desc" }, { id: "asc" }],
    take: HISTORY_MAX_EVENTS,
  });
  return events
    .filter((event) => !event.externalId || !fileIds.has(event.externalId))
    .map((event) => {
      const counterparty = (event.payload as { counterparty?: unknown } | null)?.counterparty;
      return {
        occurred_on: event.occurredOn.toISOString().slice(0, 10),
        amount_minor: -Number(event.amountMinor < 0n ? -event.amountMinor : event.amountMinor),
        currency: event.currency,
        description: event.description ?? "",
        counterparty: typeof counterparty === "string" ? counterparty : "",
      };
    });
}

/**
 * Drops proposals the business already tracks: a subscription (not cancelled) of the same
 * name, currency and interval in the import's business (another business paying the same
 * merchant tracks its own).
 */
async function withoutTracked(db: TDbOrTx, ownerId: string, businessId: string, proposals: TProposal[]): Promise<TProposal[]> {
  if (proposals.length === 0) return proposals;
  const existing = await db.subscription.findMany({
    where: {
      ownerId,
      businessId,
      status: { not: "cancelled" },
      currency: { in: [...new Set(proposals.map((p) => p.currency))] },
    },
    select: { name: true, currency: true, billingInterval: true },
  });
  const tracked = new Set(existing.map((s) => `${nameKey(s.name)}|${s.currency}|${s.billingInterval}`));
  return proposals.filter((p) => !tracked.has(`${nameKey(p.name)}|${p.currency}|${p.billing_interval}`));
}

function rejectionsOf(rows: TRowData[]): { listed: TImportRejection[]; count: number } {
  const listed: TImportRejection[] = [];
  let count = 0;
  for (const row of rows) {
    if (row.status !== "rejected") continue;
    count++;
    if (listed.length < IMPORT_MAX_LISTED_REJECTIONS)
      listed.push({ row: row.row, external_id: row.external_id ?? null, reject_reason: row.reject_reason ?? "rejected" });
  }
  return { listed, count };
}

/** POST /v1/imports: parse, look up, store the preview. Nothing is written to the ledger. */
export async function createImport(
  db: TDbOrTx,
  caller: TCaller,
  input: TCreateImportInput,
  now: Date = new Date(),
): Promise<TCreateImportResult> {
  const { ownerId } = caller;
  await requireBusiness(db, ownerId, input.businessId);
  if (input.projectId) {
    const project = await db.project.findFirst({
      where: { id: input.projectId, ownerId, businessId: input.businessId },
      select: { id: true },
    });
    if (!project) throw AppError.notFound("project");
  }
  const preset = findPreset(input.presetId);
  if (!preset) {
    throw AppError.invalidField("preset", `unknown preset; one of ${IMPORT_PRESETS.map((p) => p.id).join(", ")}`);
  }
  if (
    input.currencyDefault !== undefined &&
    (!/^[A-Z]{3}$/.test(input.currencyDefault) || !isKnownCurrency(input.currencyDefault))
  ) {
    throw AppError.invalidField("currency_default", "must be an ISO 4217 code in upper case, e.g. EUR");
  }

  const today = todayUtc(now);
  const parsed = parseStatement(input.bytes, {
    preset,
    mapping: input.mapping,
    currencyDefault: input.currencyDefault,
    ownAccounts: input.ownAccounts,
    latestDay: addDays(today, 1),
  });

  const okRows = parsed.rows.filter((row): row is TOkRow => "external_id" in row);
  const manual = await findManualIntegration(db, ownerId);
  const stored = await storedImportIds(
    db,
    manual?.id,
    okRows.map((row) => row.external_id),
  );
  const fresh = okRows.filter((row) => !stored.has(row.external_id));
  const reconciled = input.reconcile ? await reconcileRows(db, ownerId, manual?.id, fresh) : new Map<number, string>();

  let wouldInsert = 0;
  let wouldDedupe = 0;
  const rows: TRowData[] = parsed.rows.map((row) => {
    if ("rejected" in row) return { row: row.row, status: "rejected", reject_reason: row.rejected };
    const already = stored.get(row.external_id);
    const matched = already ?? reconciled.get(row.row);
    if (already) wouldDedupe++;
    else wouldInsert++;
    return {
      row: row.row,
      status: already ? "already" : matched ? "reconciled" : "new",
      external_id: row.external_id,
      amount_minor: row.amount_minor,
      currency: row.currency,
      occurred_on: row.occurred_on,
      description: row.description,
      counterparty: row.counterparty,
      counterparty_account: row.counterparty_account,
      category: row.category,
      reference: row.reference,
      matched_event_id: matched,
    };
  });

  const scope = { businessId: input.businessId, projectId: input.projectId };
  const history = await pastImportCharges(db, manual?.id, scope, new Set(okRows.map((row) => row.external_id)), today);
  const proposals = await withoutTracked(db, ownerId, input.businessId, detectRecurring(okRows, { today, history }));
  const rejections = rejectionsOf(rows);
  const summary: TSummary = {
    total_rows: parsed.total_rows,
    would_insert: wouldInsert,
    would_dedupe: wouldDedupe,
    rejected: rejections.listed,
    rejected_count: rejections.count,
    unmapped_columns: parsed.unmapped_columns,
    skipped_transfers: parsed.skipped_transfers,
  };
  const settings: TImportSettingsStored = {
    currency_default: input.currencyDefault ?? null,
    reconcile: input.reconcile,
    own_accounts: input.ownAccounts ?? [],
  };

  const id = randomUUID();
  const expiresAt = new Date(now.getTime() + IMPORT_LIFETIME_MS);
  const pages: Prisma.ImportRowPageCreateManyInput[] = [];
  for (let start = 0; start < rows.length; start += IMPORT_PAGE_ROWS) {
    pages.push({
      importId: id,
      pageNo: start / IMPORT_PAGE_ROWS,
      rows: rows.slice(start, start + IMPORT_PAGE_ROWS).map(packRow) as unknown as Prisma.InputJsonValue,
    });
  }
  await inImportTransaction(db, async (tx) => {
    await tx.import.create({
      data: {
        id,
        ownerId,
        businessId: input.businessId,
        projectId: input.projectId ?? null,
        preset: preset.id,
        mapping: (input.mapping ?? {}) as Prisma.InputJsonValue,
        settings: settings as unknown as Prisma.InputJsonValue,
        fileName: input.fileName,
        fileBytes: input.bytes.byteLength,
        totalRows: parsed.total_rows,
        listedRows: rows.length,
        summary: summary as unknown as Prisma.InputJsonValue,
        proposals: proposals as unknown as Prisma.InputJsonValue,
        expiresAt,
        createdAt: now,
      },
    });
    for (let start = 0; start < pages.length; start += PAGES_PER_INSERT) {
      await tx.importRowPage.createMany({ data: pages.slice(start, start + PAGES_PER_INSERT) });
    }
  });

  return {
    import_id: id,
    expires_at: expiresAt.toISOString(),
    preview: {
      ...summary,
      rows: rows.slice(0, IMPORT_PAGE_ROWS).map(toPreviewRow),
      proposals,
    },
  };
}

type TImportRecord = NonNullable<Awaited<ReturnType<typeof loadImport>>>;

async function loadImport(db: TDbOrTx, ownerId: string, id: string) {
  if (!isUuid(id)) return null;
  return db.import.findFirst({ where: { id, ownerId } });
}

async function requireImport(db: TDbOrTx, ownerId: string, id: string): Promise<TImportRecord> {
  const row = await loadImport(db, ownerId, id);
  if (!row) throw AppError.notFound("import");
  return row;
}

function statusOf(row: { status: string; expiresAt: Date }, now: Date): TImport["status"] {
  if (row.status === "confirmed") return "confirmed";
  return row.expiresAt.getTime() <= now.getTime() ? "expired" : "previewed";
}

/** 409 state_conflict unless the preview can still be confirmed. */
function assertConfirmable(row: { status: string; expiresAt: Date; confirmedAt: Date | null }, now: Date): void {
  const status = statusOf(row, now);
  if (status === "confirmed") {
    throw new AppError("state_conflict", "This import is already confirmed.", {
      details: { status, confirmed_at: row.confirmedAt?.toISOString() ?? null },
    });
  }
  if (status === "expired") {
    throw new AppError("state_conflict", "This preview expired (one hour after the upload); upload the statement again.", {
      details: { status, expires_at: row.expiresAt.toISOString() },
    });
  }
}

/** Rows [offset, offset + limit) from the stored pages (at most two pages read). */
async function readRows(db: TDbOrTx, importId: string, offset: number, limit: number): Promise<TRowData[]> {
  const first = Math.floor(offset / IMPORT_PAGE_ROWS);
  const last = Math.floor((offset + limit - 1) / IMPORT_PAGE_ROWS);
  const pages = await db.importRowPage.findMany({
    where: { importId, pageNo: { gte: first, lte: last } },
    orderBy: { pageNo: "asc" },
  });
  const rows = pages.flatMap((page) => page.rows as unknown as TStoredRow[]);
  const skip = offset - first * IMPORT_PAGE_ROWS;
  return rows.slice(skip, skip + limit).map(unpackRow);
}

/** GET /v1/imports/{id}?offset=N */
export async function getImport(db: TDbOrTx, ownerId: string, id: string, offset = 0, now: Date = new Date()): Promise<TImport> {
  const row = await requireImport(db, ownerId, id);
  const rows = offset < row.listedRows ? await readRows(db, row.id, offset, IMPORT_PAGE_ROWS) : [];
  const next = offset + IMPORT_PAGE_ROWS;
  return {
    import_id: row.id,
    status: statusOf(row, now),
    business_id: row.businessId,
    project_id: row.projectId,
    preset: row.preset,
    file_name: row.fileName,
    file_bytes: row.fileBytes,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    confirmed_at: row.confirmedAt?.toISOString() ?? null,
    summary: { ...(row.summary as unknown as TSummary), proposals: row.proposals as unknown as TProposal[] },
    result: (row.result as unknown as TImportResult | null) ?? null,
    rows: rows.map(toPreviewRow),
    page: { offset, next_offset: next < row.listedRows ? next : null },
  };
}

/** GET /v1/imports/presets */
export function listPresets(): TImportPresetDto[] {
  return IMPORT_PRESETS.map((preset) => ({
    id: preset.id,
    name: preset.name,
    description: preset.description,
    delimiter: preset.delimiter ?? null,
    date_format: preset.date_format,
    decimal_separator: preset.decimal_separator,
    thousands_separator: preset.thousands_separator ?? null,
    sign_convention: preset.sign_convention,
    columns: Object.fromEntries(Object.entries(preset.columns).map(([field, names]) => [field, [...names]])),
  }));
}

/** JSON equality that ignores key order and undefined members. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, inner]) => inner !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/**
 * POST /v1/imports/{id}/confirm: all or nothing in one transaction — the import claimed
 * (previewed → confirmed), the manual_import integration (first import), the events through
 * the ingest path in chunks, the accepted proposals' subscriptions, one audit entry.
 */
export async function confirmImport(
  db: TDbOrTx,
  caller: TCaller,
  id: string,
  input: TConfirmImportInput,
  now: Date = new Date(),
): Promise<TImportResult> {
  const { ownerId } = caller;
  const record = await requireImport(db, ownerId, id);
  assertConfirmable(record, now);
  if (input.mapping !== undefined && canonical(input.mapping) !== canonical(record.mapping)) {
    throw AppError.invalidField(
      "mapping",
      "differs from the upload's mapping; the raw cells are not kept, so upload the statement again with the new mapping",
    );
  }
  const proposals = record.proposals as unknown as TProposal[];
  const accepted = [...new Set(input.accept_proposals ?? [])];
  for (const index of accepted) {
    if (index >= proposals.length) {
      throw AppError.invalidField(
        "accept_proposals",
        `${index} is not an index of preview.proposals (${proposals.length} proposal${proposals.length === 1 ? "" : "s"})`,
      );
    }
  }
  const excluded = new Set(input.exclude_external_ids ?? []);

  return inImportTransaction(db, async (tx) => {
    // Claim the preview: a concurrent or later confirm finds nothing to claim.
    const claimed = await tx.import.updateMany({
      where: { id: record.id, ownerId, status: "previewed", expiresAt: { gt: now } },
      data: { status: "confirmed", confirmedAt: now },
    });
    if (claimed.count === 0) {
      assertConfirmable((await tx.import.findFirst({ where: { id: record.id, ownerId } })) ?? record, now);
      throw new AppError("state_conflict", "This import cannot be confirmed now.");
    }

    const integration = await ensureManualIntegration(tx, ownerId, record.businessId);
    const reconcile = (record.settings as Partial<TImportSettingsStored>).reconcile !== false;
    const rejected: TImportRejection[] = [];
    let inserted = 0;
    let deduped = 0;
    // Pages are read and ingested a few at a time, so a 100,000-row statement is never held
    // in memory as events all at once.
    const pagesPerChunk = Math.max(1, Math.floor(INGEST_CHUNK / IMPORT_PAGE_ROWS));
    for (let firstPage = 0; ; firstPage += pagesPerChunk) {
      const pages = await tx.importRowPage.findMany({
        where: { importId: record.id, pageNo: { gte: firstPage, lt: firstPage + pagesPerChunk } },
        orderBy: { pageNo: "asc" },
      });
      if (pages.length === 0) break;
      const rowOf = new Map<string, number>();
      const events: Array<Record<string, unknown>> = [];
      for (const page of pages) {
        for (const packed of page.rows as unknown as TStoredRow[]) {
          const row = unpackRow(packed);
          if (row.status === "rejected") {
            rejected.push({ row: row.row, external_id: null, reject_reason: row.reject_reason ?? "rejected" });
            continue;
          }
          if (!row.external_id || excluded.has(row.external_id)) continue;
          rowOf.set(row.external_id, row.row);
          events.push(statementEvent(row, record, integration.id, reconcile));
        }
      }
      const result = await ingestEventsInTx(tx, ownerId, events, { requestId: caller.requestId, auditInserts: "none" });
      inserted += result.inserted;
      deduped += result.deduped;
      for (const refusal of result.rejected) {
        rejected.push({
          row: (refusal.external_id && rowOf.get(refusal.external_id)) || 0,
          external_id: refusal.external_id,
          reject_reason: `${refusal.code}: ${refusal.message ?? ""}`.trim(),
        });
      }
    }

    const subscriptionsCreated: string[] = [];
    for (const index of accepted) {
      const proposal = proposals[index]!;
      const subscription = await createSubscription(
        tx,
        caller,
        {
          ...(record.projectId ? { project_id: record.projectId } : { business_id: record.businessId }),
          name: (proposal.name || proposal.counterparty || "Recurring charge").slice(0, 200),
          amount_minor: proposal.amount_minor,
          currency: proposal.currency,
          billing_interval: proposal.billing_interval,
          next_charge_on: proposal.next_charge_on,
        },
        {
          source_type: "IMPORT",
          confidence: proposal.confidence,
          provenance: {
            source: { type: "IMPORT", integration_id: integration.id, external_id: null },
            import_id: record.id,
            proposal_index: index,
            occurrences: proposal.occurrences,
          },
        },
      );
      subscriptionsCreated.push(subscription.id);
    }

    rejected.sort((a, b) => a.row - b.row);
    const result: TImportResult = {
      inserted,
      deduped,
      rejected,
      proposals: proposals as TImportResult["proposals"],
      subscriptions_created: subscriptionsCreated,
    };
    await auditCaller(
      tx,
      caller,
      "import.confirmed",
      { type: "import", id: record.id },
      {
        integration_id: integration.id,
        inserted,
        deduped,
        rejected: rejected.length,
        excluded: excluded.size,
        subscriptions_created: subscriptionsCreated.length,
      },
    );
    await tx.import.update({
      where: { id: record.id },
      data: { result: result as unknown as Prisma.InputJsonValue },
    });
    return result;
  });
}

/** A statement row as the ingest path takes it: money out is an expense, money in a revenue. */
function statementEvent(
  row: ReturnType<typeof unpackRow>,
  record: { id: string; businessId: string; projectId: string | null },
  integrationId: string,
  reconcile: boolean,
): Record<string, unknown> {
  const amount = row.amount_minor!;
  return {
    integration_id: integrationId,
    external_id: row.external_id,
    type: amount < 0 ? "expense" : "revenue",
    state: "actual",
    amount_minor: Math.abs(amount),
    currency: row.currency,
    occurred_on: row.occurred_on,
    business_id: record.businessId,
    ...(record.projectId ? { project_id: record.projectId } : {}),
    ...(row.category ? { category: row.category } : {}),
    description: row.description,
    source_type: "IMPORT",
    payload: {
      batch_id: record.id,
      row: row.row,
      ...(row.counterparty ? { counterparty: row.counterparty } : {}),
      ...(row.counterparty_account ? { counterparty_account: row.counterparty_account } : {}),
      ...(row.reference ? { reference: row.reference } : {}),
      ...(row.status === "reconciled" && row.matched_event_id ? { reconciles_event_id: row.matched_event_id } : {}),
      // reconcile=false: the owner keeps these lines out of the daily reconciliation too.
      ...(reconcile ? {} : { reconcile: false }),
    },
  };
}
