// Steps 2 and 3 of the events path in one statement: the owner's integrations a batch names,
// each row-locked (lockOwnerIntegrations' lock: deliveries of one integration take turns) and
// marked synced (last_sync_at, as touchLastSync), and the owner's businesses, projects and
// subscriptions the batch can name. Every id is looked up among the owner's rows only, so
// another owner's id is "no such".
import type { TTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { lockIntegrationsById, type TLockedIntegration } from "../sources/integration-store";

export type TBatchScope = {
  integrations: Map<string, TLockedIntegration>;
  /** The owner's businesses among those named (by events or their integrations). */
  businesses: Set<string>;
  /** project id → its business, subscription id → its business (null: any of the owner's). */
  projects: Map<string, string>;
  subscriptions: Map<string, string | null>;
};

type TScopeRow = {
  kind: "integration" | "business" | "project" | "subscription";
  id: string;
  business_id: string | null;
  provider: string | null;
};

/**
 * Locks the integrations, sets their last_sync_at to `syncedAt`, and reads the scope the batch
 * names. The businesses read are those named by `businessIds` and those of the locked
 * integrations (an event's default business). Every integration found is marked synced, as the
 * batch's end did before (whatever becomes of its events; a failed batch rolls back).
 */
export async function lockBatchScope(
  tx: TTx,
  ownerId: string,
  named: { integrationIds: string[]; businessIds: string[]; projectIds: string[]; subscriptionIds: string[] },
  syncedAt: Date,
): Promise<TBatchScope> {
  const scope: TBatchScope = { integrations: new Map(), businesses: new Set(), projects: new Map(), subscriptions: new Map() };
  if (named.integrationIds.length === 0) return scope;
  const rows = await tx.$queryRaw<TScopeRow[]>(Prisma.sql`
    WITH locked AS (
      UPDATE integrations SET last_sync_at = ${syncedAt}, updated_at = ${new Date()}
      WHERE id IN (SELECT id FROM (${lockIntegrationsById(ownerId, named.integrationIds)}) AS in_id_order)
      RETURNING id, business_id, provider)
    SELECT 'integration' AS kind, id, business_id, provider FROM locked
    UNION ALL
    SELECT 'business', id, NULL, NULL FROM businesses
    WHERE owner_id = ${ownerId}::uuid AND (id = ANY(${named.businessIds}::uuid[]) OR id IN (SELECT business_id FROM locked))
    UNION ALL
    SELECT 'project', id, business_id, NULL FROM projects
    WHERE owner_id = ${ownerId}::uuid AND id = ANY(${named.projectIds}::uuid[])
    UNION ALL
    SELECT 'subscription', id, business_id, NULL FROM subscriptions
    WHERE owner_id = ${ownerId}::uuid AND id = ANY(${named.subscriptionIds}::uuid[])`);
  for (const row of rows) {
    if (row.kind === "integration")
      scope.integrations.set(row.id, { id: row.id, businessId: row.business_id, provider: row.provider! });
    else if (row.kind === "business") scope.businesses.add(row.id);
    else if (row.kind === "project") scope.projects.set(row.id, row.business_id!);
    else scope.subscriptions.set(row.id, row.business_id);
  }
  return scope;
}
