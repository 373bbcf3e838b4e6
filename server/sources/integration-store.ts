// Reading integrations for the other domains: the owner's own (404 for anyone else's), the ones
// a webhook delivery may be for (by its id, or by the provider account its payload names), and
// the signing secret, decrypted only when a signature is checked.
import type { TDbOrTx, TTx } from "../db/client";
import { Prisma, type Integration } from "../db/generated/client";
import { decryptSecret } from "../crypto/secret-box";
import { AppError } from "../errors/app-error";
import { ZUuid } from "../shared/schemas";
import type { TProvider, TWebhookProvider } from "./providers";
import { unsafeTextReason } from "../shared/safe-text";

export type TIntegrationRef = Pick<Integration, "id" | "ownerId" | "provider" | "businessId" | "status" | "accountId">;

const REF_FIELDS = { id: true, ownerId: true, provider: true, businessId: true, status: true, accountId: true } as const;

const isUuid = (value: string) => ZUuid.safeParse(value).success;

/** The owner's integration, or 404 not_found (another owner's looks exactly like a missing one). */
export async function requireIntegration(db: TDbOrTx, ownerId: string, id: string): Promise<Integration> {
  const row = isUuid(id) ? await db.integration.findFirst({ where: { id, ownerId } }) : null;
  if (!row) throw new AppError("not_found", "No such integration.");
  return row;
}

/** The generic integration a delivery's path names, with its secret; null when there is none. */
export async function findGenericIntegration(db: TDbOrTx, id: string): Promise<(TIntegrationRef & { secret: string }) | null> {
  if (!isUuid(id)) return null;
  const row = await db.integration.findFirst({
    where: { id, provider: "generic", status: "active" },
    select: { ...REF_FIELDS, secretEncrypted: true },
  });
  if (!row?.secretEncrypted) return null;
  const { secretEncrypted, ...ref } = row;
  return { ...ref, secret: await decryptSecret(secretEncrypted) };
}

/** A connection a provider delivery may be for, with its signing secret as stored (null: none of its own). */
export type TDeliveryCandidate = TIntegrationRef & { accountId: string; secretEncrypted: Uint8Array | null };

/**
 * The active integrations of a provider for these provider accounts (a webhook's payload names
 * them), every owner's: several owners may name one account, and the delivery's signature
 * decides which of them it is for (webhooks/delivery-secret.ts). One statement, on the
 * (provider, account_id, owner_id) index.
 */
export async function findDeliveryCandidates(
  db: TDbOrTx,
  provider: TWebhookProvider | TProvider,
  accountIds: string[],
): Promise<TDeliveryCandidate[]> {
  // An id with a NUL or a lone surrogate cannot be stored, so it names no integration (and
  // PostgreSQL would refuse it as a parameter).
  const unique = [...new Set(accountIds)].filter((id) => unsafeTextReason(id) === null);
  if (unique.length === 0) return [];
  const rows = await db.integration.findMany({
    where: { provider, accountId: { in: unique }, status: "active" },
    select: { ...REF_FIELDS, secretEncrypted: true },
    orderBy: { id: "asc" },
  });
  return rows.map((row) => ({ ...row, accountId: row.accountId! }));
}

/** Marks integrations as synced now (a delivery or a sync reached them). */
export type TLockedIntegration = { id: string; businessId: string | null; provider: string };

/**
 * The owner's integrations named by id, or all of one provider, each row locked for the rest of
 * `tx` (FOR NO KEY UPDATE, in id order so two lockers never deadlock). Writers of an
 * integration's events (deliveries, syncs, statement imports, reconciliation runs) take this
 * lock first, so they take turns: a key seen by two of them is a repeat, never a duplicate.
 * NO KEY UPDATE leaves foreign-key checks from other tables free.
 */
export async function lockOwnerIntegrations(
  tx: TTx,
  ownerId: string,
  which: { ids: string[] } | { provider: string },
): Promise<TLockedIntegration[]> {
  if ("ids" in which && which.ids.length === 0) return [];
  const rows =
    "ids" in which
      ? await tx.$queryRaw<Array<{ id: string; business_id: string | null; provider: string }>>(
          lockIntegrationsById(ownerId, which.ids),
        )
      : await tx.$queryRaw<Array<{ id: string; business_id: string | null; provider: string }>>`
          SELECT id, business_id, provider FROM integrations
          WHERE owner_id = ${ownerId}::uuid AND provider = ${which.provider}
          ORDER BY id FOR NO KEY UPDATE`;
  return rows.map((r) => ({ id: r.id, businessId: r.business_id, provider: r.provider }));
}

/** lockOwnerIntegrations' query by ids (id, business_id, provider), for a statement that reads more along with the lock. */
export function lockIntegrationsById(ownerId: string, ids: string[]): Prisma.Sql {
  return Prisma.sql`
    SELECT id, business_id, provider FROM integrations
    WHERE owner_id = ${ownerId}::uuid AND id = ANY(${ids}::uuid[])
    ORDER BY id FOR NO KEY UPDATE`;
}

export async function touchLastSync(db: TDbOrTx, integrationIds: string[], at: Date = new Date()): Promise<void> {
  if (integrationIds.length === 0) return;
  await db.integration.updateMany({ where: { id: { in: [...new Set(integrationIds)] } }, data: { lastSyncAt: at } });
}
