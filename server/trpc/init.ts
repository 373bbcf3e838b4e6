// tRPC, once. Every procedure is built from one of the builders below, which declare its
// access rule in the meta; the builder's one middleware enforces the operation's policy
// (server/access/admit-operation.ts) before input is parsed. Every door (REST, the panel's
// endpoint, server components) calls procedures through tRPC's caller and checks none of it.
import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { admitOperation } from "../access/admit-operation";
import { requireGrant } from "../access/check-access";
import type { TActor, TAgentActor, TOwnerActor } from "../auth/actor";
import type { TResource } from "../auth/grants";
import type { TScope } from "../auth/scopes";
import { AppError } from "../errors/app-error";
import { toAppError } from "../errors/to-app-error";
import { withinPlanLimit } from "../plans/plan-service";
import type { TDbOrTx } from "../db/client";
import type { TContext } from "./context";
import type { TAccessRule, TProcedureMeta } from "./meta";

const t = initTRPC
  .context<TContext>()
  .meta<TProcedureMeta>()
  .create({
    // The panel's client sees the contract's code and details, as REST clients do.
    errorFormatter({ shape, error }) {
      const appError = toAppError(error);
      return {
        ...shape,
        message: appError.message,
        data: { ...shape.data, appCode: appError.code, details: appError.details, stack: undefined },
      };
    },
  });

export const router = t.router;
export const mergeRouters = t.mergeRouters;
export const createCallerFactory = t.createCallerFactory;

/** The tRPC error code of each HTTP status, so the panel's transport answers the contract's status. */
const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_SUPPORTED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_CONTENT",
  426: "PRECONDITION_FAILED",
  429: "TOO_MANY_REQUESTS",
};

/** A contract error as the tRPC error of its status, the AppError kept as its cause. */
function trpcErrorOf(appError: AppError): TRPCError {
  const code = TRPC_CODE_BY_STATUS[appError.status] ?? "INTERNAL_SERVER_ERROR";
  return new TRPCError({ code, message: appError.message, cause: appError });
}

/**
 * The operation's policy (server/access/admit-operation.ts: the access rule, then an expired
 * plan's refusal of writes), before the input is even parsed (Conventions 4: scope first). Every
 * door reaches procedures through here and checks nothing of it itself.
 */
async function admit(ctx: TContext, meta: TProcedureMeta | undefined, path: string, type: string): Promise<void> {
  try {
    await admitOperation({ access: meta?.access, write: type === "mutation", planExpiry: meta?.planExpiry }, ctx.actor, {
      operation: path,
      db: () => ctx.db,
      requestId: ctx.requestId,
      now: ctx.clock.now(),
    });
  } catch (thrown) {
    throw thrown instanceof AppError ? trpcErrorOf(thrown) : thrown;
  }
}

/** A failed call answers the tRPC code of its contract status, so the panel's transport answers that status. */
function withContractError<TResult extends { ok: boolean; error?: TRPCError }>(result: TResult): TResult {
  if (result.ok || !(result.error?.cause instanceof AppError)) return result;
  return { ...result, error: trpcErrorOf(result.error.cause) };
}

/**
 * A create that declares `planLimit` (pinned-wave2 §5.2) runs in one transaction under the
 * owner-row lock and is refused past the limit (403 plan_limit_exceeded), rolled back
 * (plans/plan-service.ts withinPlanLimit). The procedure runs on that transaction: the context
 * tRPC hands on (on the REST path a savepoint of the request's own).
 */
async function withinPlanLimitOf<TResult extends { ok: boolean }>(
  ctx: TContext,
  meta: TProcedureMeta | undefined,
  type: string,
  run: (db?: TDbOrTx) => Promise<TResult>,
): Promise<TResult> {
  const { actor } = ctx;
  const limit = meta?.planLimit;
  if (!limit || type !== "mutation" || (actor.type !== "owner" && actor.type !== "agent")) return run();
  try {
    return await withinPlanLimit(
      ctx.db,
      { ownerId: actor.ownerId, limit, now: ctx.clock.now(), limits: meta?.transaction },
      // A failed call keeps what it wrote before failing (a denial's audit entry), as it would
      // without this transaction; only the limit's refusal rolls the write back.
      (db) => run(db),
      (result) => result.ok,
    );
  } catch (thrown) {
    throw thrown instanceof AppError ? trpcErrorOf(thrown) : thrown;
  }
}

// Every procedure has ONE middleware, its builder's (each tRPC middleware copies the call's
// options once more): the access rule, the contract's error codes and, for the typed builders,
// the actor the rule admits.

/**
 * The context as it is, typed with the actor the policy has just admitted. A context passed to
 * tRPC's `next` is merged into a copy of the whole context on every call; `undefined` keeps the
 * one context (and this type tells the procedure what the rule proved). A plan-limited create
 * hands on a copy whose database is its transaction.
 */
function admitted<TActorOut extends TActor>(db?: TDbOrTx): { ctx: { actor: TActorOut } } {
  return { ctx: (db ? { db } : undefined) as unknown as { actor: TActorOut } };
}

// Public operations (sign-in, logout, the waitlist) are never refused by a plan.
export const publicProcedure = t.procedure.meta({ access: { kind: "public" } }).use(async ({ ctx, meta, path, type, next }) => {
  await admit(ctx, meta, path, type);
  return withContractError(await next());
});

export const ownerProcedure = t.procedure.meta({ access: { kind: "owner" } }).use(async ({ ctx, meta, path, type, next }) => {
  await admit(ctx, meta, path, type);
  return withContractError(await withinPlanLimitOf(ctx, meta, type, (db) => next(admitted<TOwnerActor>(db))));
});

/**
 * An owner, or an agent holding `scope` (every one of them when several; any live agent when none
 * is named), or with `{ anyOf }` at least one of those scopes.
 */
export function ownerOrAgentProcedure(scope?: TScope | readonly TScope[] | { anyOf: readonly TScope[] }) {
  const access: TAccessRule =
    scope !== undefined && typeof scope === "object" && "anyOf" in scope
      ? { kind: "owner_or_agent", anyScope: scope.anyOf }
      : { kind: "owner_or_agent", scope };
  return t.procedure.meta({ access }).use(async ({ ctx, meta, path, type, next }) => {
    await admit(ctx, meta, path, type);
    return withContractError(await withinPlanLimitOf(ctx, meta, type, (db) => next(admitted<TOwnerActor | TAgentActor>(db))));
  });
}

/**
 * The grant-coverage step of the access check (access/check-access.ts, requireGrant) for a
 * procedure's handler: passes for the owner; an agent needs a grant of `scope` covering
 * `resource`, else 403 scope_denied naming both (audited under the procedure's path). Here so a
 * domain's procedures reach it through the kit they are built from.
 */
export async function requireCallerGrant(
  ctx: Pick<TContext, "db" | "requestId"> & { actor: TOwnerActor | TAgentActor },
  path: string,
  scope: TScope,
  resource: TResource,
): Promise<void> {
  if (ctx.actor.type !== "agent") return;
  await requireGrant(ctx.actor, scope, resource, { operation: path, db: () => ctx.db, requestId: ctx.requestId });
}
