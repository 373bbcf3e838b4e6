// The one access check (contract, Authentication 4 and Errors; DESIGN.md "Agent access"). Two
// steps, both here so every denial is named and audited the same way:
//   checkAccess   the operation's declared rule, before anything else runs: the REST layer
//                 calls it for every route (procedure or plain) and the tRPC middleware for
//                 the panel's endpoint, which skips the REST layer.
//   requireGrant  the resource the operation addresses, once it is known to be the owner's
//                 (unknown or another owner's is 404 not_found, decided before this).
// A denial is 403 scope_denied with details naming what is missing, and an `access.denied`
// audit entry of the agent.
import type { TActor, TAgentActor } from "../auth/actor";
import { findGrant, hasScope, resourceLabel, type TGrant, type TResource } from "../auth/grants";
import type { TScope } from "../auth/scopes";
import { recordAudit } from "../audit/audit-service";
import type { TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";
import type { TAccessRule } from "../trpc/meta";

export type TAccessCall = {
  /** The operation, for the audit entry: a procedure's path, a plain route's operationId or an agent write's action. */
  operation: string;
  /** Opened only to audit a denial. */
  db: () => TDbOrTx | Promise<TDbOrTx>;
  requestId: string;
};

/** Passes, or throws what the declared rule misses: 401 without a caller, 403 scope_denied (audited). */
export async function checkAccess(rule: TAccessRule | undefined, actor: TActor, call: TAccessCall): Promise<void> {
  if (!rule) throw new AppError("internal_error", `Operation ${call.operation} declares no access rule.`);
  if (rule.kind === "public" || rule.kind === "signature") return;
  if (actor.type === "public" || actor.type === "integration") throw new AppError("unauthenticated");
  if (actor.type === "owner") return;
  if (rule.kind === "owner") {
    throw await denied(actor, call, "This operation is for the owner only.", { required: "owner" });
  }
  if (rule.scope && !hasScope(actor.grants, rule.scope)) {
    throw await denied(actor, call, `This operation needs a grant of ${rule.scope}.`, { required_scope: rule.scope });
  }
}

/**
 * The agent's most specific grant of `scope` covering `resource`, an owner's resource the
 * caller has already looked up; without one, 403 scope_denied naming the scope and the
 * resource (audited).
 */
export async function requireGrant(agent: TAgentActor, scope: TScope, resource: TResource, call: TAccessCall): Promise<TGrant> {
  const grant = findGrant(agent.grants, scope, resource);
  if (grant) return grant;
  const label = resourceLabel(resource);
  throw await denied(agent, call, `No grant of ${scope} covers ${label}.`, { required_scope: scope, resource: label });
}

async function denied(
  agent: TAgentActor,
  call: TAccessCall,
  message: string,
  details: { required: "owner" } | { required_scope: TScope; resource?: string },
): Promise<AppError> {
  await recordAudit(await call.db(), {
    ownerId: agent.ownerId,
    actor: agent,
    action: "access.denied",
    requestId: call.requestId,
    details: { operation: call.operation, code: "scope_denied", ...details },
  });
  return new AppError("scope_denied", message, { details });
}
