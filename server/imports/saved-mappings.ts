// The mapping an owner confirmed, kept per business for two keys (issue 14: "a mapping is saved
// per bank account for next time"): the statement layout (its header signature) and, when the
// upload named one, the bank account the statement came from. Written by the confirm, suggested
// by the next upload that names no mapping of its own: the account's first (the account tells
// which bank's export it is even when its header changed a little), then the layout's.
import type { TDbOrTx } from "../db/client";
import { IMPORT_ACCOUNTS_MAX, type TFindImportAccountsResponse } from "./find-import-accounts.types";
import { SAVED_MAPPING_KINDS } from "./import.schema";
import { normalizeAccount } from "./normalize-row";
import { ZImportMapping, type TImportMapping } from "./presets";

export type TSavedMappingKind = (typeof SAVED_MAPPING_KINDS)[number];

/** A saved mapping's key: the header signature of a layout, or the account in its comparison form. */
export type TSavedMappingKey = { kind: "layout"; signature: string } | { kind: "account"; account: string };

export type TSavedMapping = { kind: TSavedMappingKind; mapping: TImportMapping; currencyDefault: string | null };

function keyOf(key: TSavedMappingKey): { kind: TSavedMappingKind; key: string } {
  return key.kind === "layout" ? { kind: "layout", key: key.signature } : { kind: "account", key: normalizeAccount(key.account) };
}

/** The saved mapping of this business and key, or null (a stored value that no longer parses counts as none). */
export async function findSavedMapping(
  db: TDbOrTx,
  where: { ownerId: string; businessId: string } & TSavedMappingKey,
): Promise<TSavedMapping | null> {
  const { ownerId, businessId } = where;
  const row = await db.importMapping.findUnique({
    where: { ownerId_businessId_kind_key: { ownerId, businessId, ...keyOf(where) } },
    select: { mapping: true, currencyDefault: true },
  });
  if (!row) return null;
  const parsed = ZImportMapping.safeParse(row.mapping);
  return parsed.success ? { kind: where.kind, mapping: parsed.data, currencyDefault: row.currencyDefault } : null;
}

/** Keeps (or replaces) the mapping of a business and key. */
export async function saveMapping(
  db: TDbOrTx,
  saved: {
    ownerId: string;
    businessId: string;
    header: string[];
    mapping: TImportMapping;
    currencyDefault: string | null;
  } & TSavedMappingKey,
): Promise<void> {
  const { ownerId, businessId } = saved;
  const key = keyOf(saved);
  const data = {
    mapping: saved.mapping,
    currencyDefault: saved.currencyDefault,
    header: saved.header,
    // The account as the owner wrote it last time: what the panel offers next time.
    account: saved.kind === "account" ? saved.account : null,
  };
  await db.importMapping.upsert({
    where: { ownerId_businessId_kind_key: { ownerId, businessId, ...key } },
    create: { ownerId, businessId, ...key, ...data },
    update: data,
  });
}

/** The accounts the owner's saved mappings are kept for (GET /v1/imports/accounts), most recently confirmed first. */
export async function findSavedAccounts(
  db: TDbOrTx,
  ownerId: string,
  filter: { businessId?: string },
): Promise<TFindImportAccountsResponse> {
  const rows = await db.importMapping.findMany({
    where: { ownerId, kind: "account", account: { not: null }, ...(filter.businessId ? { businessId: filter.businessId } : {}) },
    select: { account: true, businessId: true, updatedAt: true },
    orderBy: [{ updatedAt: "desc" }, { businessId: "asc" }, { key: "asc" }],
    take: IMPORT_ACCOUNTS_MAX + 1,
  });
  return {
    data: rows.slice(0, IMPORT_ACCOUNTS_MAX).map((row) => ({
      account: row.account ?? "",
      business_id: row.businessId,
      updated_at: row.updatedAt.toISOString(),
    })),
    truncated: rows.length > IMPORT_ACCOUNTS_MAX,
  };
}
