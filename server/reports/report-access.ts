// Who reads a report (pinned-wave3 §4): the owner, or an agent whose finances:observe grant
// covers the scope. 404 before 403 (pinned-wave2 §1.2): the scope's ids are resolved for the
// owner first, then the agent's grant is checked against the scope (the whole owner: only `*`).
import { requireGrant, type TAccessCall } from "../access/check-access";
import type { TAgentActor, TOwnerActor } from "../auth/actor";
import type { TDbOrTx } from "../db/client";
import { resolveReadScope, type TReadScope } from "../read-models/scope";

export async function reportScope(
  db: TDbOrTx,
  actor: TOwnerActor | TAgentActor,
  input: { business_id?: string; project_id?: string; personal?: boolean },
  call: TAccessCall,
): Promise<TReadScope> {
  const scope = await resolveReadScope(db, actor.ownerId, input);
  if (actor.type === "agent") await requireGrant(actor, "finances:observe", scope, call);
  return scope;
}
