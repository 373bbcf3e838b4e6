// One of the owner's integrations changed from the state it was read in, and audited in the same
// transaction: disconnecting it, replacing its signing secret.
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import type { TTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { INTEGRATION_DTO_FIELDS, toIntegrationDto } from "./integration-dto";
import type { TIntegration } from "./integration.schema";

/**
 * Writes `data` to the integration `row` (as read in `tx`, status included) and audits `action`
 * with `details`. A concurrent change of its status since it was read answers 409.
 */
export async function updateReadIntegration(
  tx: TTx,
  caller: TCaller,
  row: { id: string; status: string },
  data: Prisma.IntegrationUpdateManyMutationInput,
  audit: { action: string; details: Prisma.InputJsonObject },
): Promise<TIntegration> {
  const [updated] = await tx.integration.updateManyAndReturn({
    where: { id: row.id, ownerId: caller.ownerId, status: row.status },
    data,
    select: INTEGRATION_DTO_FIELDS,
  });
  if (!updated) throw new AppError("state_conflict", "This integration changed meanwhile; try again.");
  await auditCaller(tx, caller, audit.action, { type: "integration", id: row.id }, audit.details);
  return toIntegrationDto(updated);
}
