// The one policy an operation's caller passes before the operation runs, for both kinds of
// operation: procedures (the tRPC builders' middleware, trpc/init.ts, whichever door calls them)
// and the REST layer's plain routes (statement upload, webhooks, file exports). Nothing else
// checks these again.
//   1. the declared access rule (check-access.ts: 401, 403 scope_denied audited);
//   2. a write by an owner or agent whose plan expired is refused (pinned-wave2 §5.2: 403
//      plan_expired), unless the operation is one of the §5.2 exceptions.
import type { TActor } from "../auth/actor";
import { AppError } from "../errors/app-error";
import { assertPlanWritable } from "../plans/plan-service";
import type { TAccessRule } from "../trpc/meta";
import { checkAccess, type TAccessCall } from "./check-access";

export type TOperationPolicy = {
  access: TAccessRule | undefined;
  /** A write (a mutation, or a plain route's POST/PUT/PATCH/DELETE). */
  write: boolean;
  planExpiry?: "exempt";
};

export async function admitOperation(policy: TOperationPolicy, actor: TActor, call: TAccessCall & { now: Date }): Promise<void> {
  if (!policy.access) throw new AppError("internal_error", `Operation ${call.operation} declares no access rule.`);
  await checkAccess(policy.access, actor, call);
  if (policy.write && policy.planExpiry !== "exempt" && (actor.type === "owner" || actor.type === "agent")) {
    await assertPlanWritable(await call.db(), actor.ownerId, call.now);
  }
}
