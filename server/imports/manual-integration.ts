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

/**
 * Created on the first confirmed import; one per owner (unique provider + account_id). An insert
 * that skips a duplicate, not Prisma's upsert (a read, then an insert): two first confirms at once
 * on PostgreSQL both read nothing and the second insert failed (500); here the second waits for
 * the first's row and reads it.
 */
export async function ensureManualIntegration(tx: TTx, ownerId: string, businessId: string): Promise<{ id: string }> {
  await tx.integration.createMany({
    data: [
      {
        ownerId,
        provider: MANUAL_IMPORT_PROVIDER,
        name: "Bank statement imports",
        businessId,
        accountId: manualImportAccountId(ownerId),
      },
    ],
    skipDuplicates: true,
  });
  return tx.integration.findFirstOrThrow({
    where: { ownerId, provider: MANUAL_IMPORT_PROVIDER, accountId: manualImportAccountId(ownerId) },
    select: { id: true },
  });
}
