// The mapping an owner confirmed for a statement layout, kept per business and header
// signature (issue 14: "a mapping is saved for next time"): written by the confirm, suggested
// by the next upload of the same layout that names no mapping of its own.
import type { TDbOrTx } from "../db/client";
import { ZImportMapping, type TImportMapping } from "./presets";

export type TSavedMapping = { mapping: TImportMapping; currencyDefault: string | null };

/** The saved mapping of this business and layout, or null (a stored value that no longer parses counts as none). */
export async function findSavedMapping(
  db: TDbOrTx,
  where: { ownerId: string; businessId: string; signature: string },
): Promise<TSavedMapping | null> {
  const row = await db.importMapping.findUnique({
    where: { ownerId_businessId_signature: where },
    select: { mapping: true, currencyDefault: true },
  });
  if (!row) return null;
  const parsed = ZImportMapping.safeParse(row.mapping);
  return parsed.success ? { mapping: parsed.data, currencyDefault: row.currencyDefault } : null;
}

/** Keeps (or replaces) the mapping of a business and layout. */
export async function saveMapping(
  db: TDbOrTx,
  saved: {
    ownerId: string;
    businessId: string;
    signature: string;
    header: string[];
    mapping: TImportMapping;
    currencyDefault: string | null;
  },
): Promise<void> {
  const { ownerId, businessId, signature } = saved;
  const data = { mapping: saved.mapping, currencyDefault: saved.currencyDefault, header: saved.header };
  await db.importMapping.upsert({
    where: { ownerId_businessId_signature: { ownerId, businessId, signature } },
    create: { ownerId, businessId, signature, ...data },
    update: data,
  });
}
