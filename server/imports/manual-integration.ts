// The owner's manual_import integration: the integration every imported bank line belongs to
// (contract: Import rules 5). One per owner (unique provider + account_id + owner), created by the
// first confirmed import.
import type { TDbOrTx, TTx } from "../db/client";
import { MANUAL_IMPORT_PROVIDER } from "../sources/providers";

export function manualImportAccountId(ownerId: string): string {
  return `owner:${ownerId}`;
}

/** The owner's manual_import integration, if the first import created it already. */
export async function findManualIntegration(db: TDbOrTx, ownerId: string): Promise<{ id: string } | null> {
  return db.integration.findFirst({
    where: { ownerId, provider: MANUAL_IMPORT_PROVIDER, accountId: manualImportAccountId(ownerId) },
    select: { id: true },
  });
}

/** Created on the first confirmed import; one per owner (its account id names the owner). */
export async function ensureManualIntegration(tx: TTx, ownerId: string, businessId: string): Promise<{ id: string }> {
  return tx.integration.upsert({
    where: {
      provider_accountId_ownerId: { provider: MANUAL_IMPORT_PROVIDER, accountId: manualImportAccountId(ownerId), ownerId },
    },
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
