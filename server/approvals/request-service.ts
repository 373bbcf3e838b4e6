// Requests that become approvals of kind `request`: a grant for an agent (grant_scope), or an
// agent's ask for an integration or for data (connect_integration, provide_data).
import { assertGrantResources } from "../agents/agent-service";
import type { TGrantParsed } from "../agents/agent.schema";
import type { TCaller } from "../auth/caller";
import type { TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";
import { createApproval } from "./approval-service";
import { requireReason } from "./reason";

export async function createPermissionRequest(
  db: TDbOrTx,
  caller: TCaller,
  input: { agent_id: string; grant: TGrantParsed; reason?: string },
) {
  const agent = await db.agent.findFirst({ where: { id: input.agent_id, ownerId: caller.ownerId } });
  if (!agent) throw AppError.notFound("agent");
  if (agent.status === "revoked") throw new AppError("state_conflict", "This agent is revoked.");
  await assertGrantResources(db, caller.ownerId, [input.grant]);
  return createApproval(db, caller, {
    kind: "request",
    action: "grant_scope",
    agentId: agent.id,
    reason: input.reason ?? null,
    trigger: "request",
    params: { grant: input.grant },
  });
}

export async function createDataRequest(
  db: TDbOrTx,
  caller: TCaller,
  input: { action: "connect_integration" | "provide_data"; provider?: string; description: string; reason?: string },
) {
  const reason = caller.actor.type === "agent" ? requireReason(input.reason) : (input.reason ?? null);
  return createApproval(db, caller, {
    kind: "request",
    action: input.action,
    agentId: caller.actor.type === "agent" ? caller.actor.agentId : null,
    reason,
    trigger: "request",
    params: { provider: input.provider ?? null, description: input.description },
  });
}
