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
  if (rule.anyScope && !rule.anyScope.some((scope) => hasScope(actor.grants, scope))) {
    throw await denied(actor, call, `This operation needs a grant of ${rule.anyScope.join(" or ")}.`, {
      required_scope: rule.anyScope[0]!,
      any_of_scopes: [...rule.anyScope],
    });
  }
  const required = scopesOf(rule.scope);
  const missing = required.filter((scope) => !hasScope(actor.grants, scope));
  if (missing.length > 0) {
    throw await denied(actor, call, `This operation needs a grant of ${missing.join(" and ")}.`, scopeDetails(missing, required));
  }
}

/** The scopes an access rule names, as a list. */
export function scopesOf(scope: TScope | readonly TScope[] | undefined): readonly TScope[] {
  return scope === undefined ? [] : typeof scope === "string" ? [scope] : scope;
}

/**
 * What a denial names: `required_scope` (the first scope missing), and for an operation needing
 * several scopes `required_scopes`, every one missing.
 */
function scopeDetails(missing: readonly TScope[], required: readonly TScope[], resource?: string) {
  return {
    required_scope: missing[0]!,
    ...(required.length > 1 ? { required_scopes: [...missing] } : {}),
    ...(resource === undefined ? {} : { resource }),
  };
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

/**
 * Grants of EVERY scope in `scopes` covering `resource` (operations needing several, e.g.
 * simulations: finances:observe and forecast:observe); without them, one 403 scope_denied naming
 * every scope missing and the resource (audited).
 */
export async function requireGrants(
  agent: TAgentActor,
  scopes: readonly TScope[],
  resource: TResource,
  call: TAccessCall,
): Promise<TGrant[]> {
  const grants = scopes.map((scope) => findGrant(agent.grants, scope, resource));
  const missing = scopes.filter((_, i) => grants[i] === null);
  if (missing.length === 0) return grants as TGrant[];
  const label = resourceLabel(resource);
  throw await denied(agent, call, `No grant of ${missing.join(" and ")} covers ${label}.`, scopeDetails(missing, scopes, label));
}

/**
 * A grant of one of `scopes` covering `resource` (reads open to several scopes, pinned-wave3 §2.1:
 * a business's ads with `ads` or `finances:observe`), the first in `scopes` order; without one,
 * 403 scope_denied naming the first scope, every one accepted and the resource (audited).
 */
export async function requireOneOfGrants(
  agent: TAgentActor,
  scopes: readonly TScope[],
  resource: TResource,
  call: TAccessCall,
): Promise<TGrant> {
  for (const scope of scopes) {
    const grant = findGrant(agent.grants, scope, resource);
    if (grant) return grant;
  }
  const label = resourceLabel(resource);
  throw await denied(agent, call, `No grant of ${scopes.join(" or ")} covers ${label}.`, {
    required_scope: scopes[0]!,
    any_of_scopes: [...scopes],
    resource: label,
  });
}

/**
 * A grant of ANY scope of the agent's covering `resource` (operations open to every
 * covering grant, e.g. recording a decision, pinned-wave2 §3.2); without one, 403 scope_denied
 * with `details: { required_scope: "any", resource }` (audited).
 */
export async function requireAnyGrant(agent: TAgentActor, resource: TResource, call: TAccessCall): Promise<TGrant> {
  for (const grant of agent.grants) {
    // findGrant over this one grant: the grant itself when it covers the resource.
    if (findGrant([grant], grant.scope as TScope, resource)) return grant;
  }
  const label = resourceLabel(resource);
  throw await denied(agent, call, `No grant of any scope covers ${label}.`, { required_scope: "any", resource: label });
}

/**
 * "Own records" operations (pinned-wave2 §1.2.4): a record of the agent's owner that another
 * agent authored is 403 scope_denied, `details: { required: "own_record", resource }` (audited).
 * The caller has already answered 404 for an unknown or another owner's record.
 */
export async function requireOwnRecord(
  agent: TAgentActor,
  authorAgentId: string | null,
  resource: string,
  call: TAccessCall,
): Promise<void> {
  if (authorAgentId === agent.agentId) return;
  throw await denied(agent, call, `Only the agent that recorded ${resource} may read it.`, { required: "own_record", resource });
}

async function denied(
  agent: TAgentActor,
  call: TAccessCall,
  message: string,
  details:
    | { required: "owner" }
    | { required: "own_record"; resource: string }
    | { required_scope: TScope | "any"; required_scopes?: TScope[]; any_of_scopes?: TScope[]; resource?: string },
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
