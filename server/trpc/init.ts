// tRPC, once. Every procedure is built from one of the builders below, which declare its
// access rule in the meta; the builder's one middleware enforces that rule
// (server/access/check-access.ts) before input is parsed.
import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { checkAccess, requireGrant } from "../access/check-access";
import type { TActor, TAgentActor, TOwnerActor } from "../auth/actor";
import type { TResource } from "../auth/grants";
import type { TScope } from "../auth/scopes";
import { AppError } from "../errors/app-error";
import { toAppError } from "../errors/to-app-error";
import { assertPlanWritable, withinPlanLimit } from "../plans/plan-service";
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
 * The meta's access rule, before the input is even parsed (Conventions 4: scope first). The REST
 * layer has checked it already (here it only passes again); the panel's endpoint and the server
 * components' caller have no other check.
 */
async function checkMetaAccess(ctx: TContext, meta: TProcedureMeta | undefined, path: string): Promise<void> {
  try {
    await checkAccess(meta?.access, ctx.actor, { operation: path, db: () => ctx.db, requestId: ctx.requestId });
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
 * The plan's two checks of the write path (pinned-wave2 §5.2), in this one place for every
 * procedure: a write (mutation) of an owner or agent whose plan expired is refused before its
 * input is parsed (403 plan_expired, unless the meta marks it exempt); a create that declares
 * `planLimit` runs in one transaction under the owner-row lock and is refused past the limit
 * (403 plan_limit_exceeded), rolled back (plans/plan-service.ts withinPlanLimit). Inside that
 * transaction the procedure's `ctx.db` is it (on the REST path a savepoint of the request's own).
 */
async function withPlanChecks<TResult extends { ok: boolean }>(
  ctx: TContext,
  meta: TProcedureMeta | undefined,
  type: string,
  run: () => Promise<TResult>,
): Promise<TResult> {
  const { actor } = ctx;
  if (type !== "mutation" || (actor.type !== "owner" && actor.type !== "agent")) return run();
  const now = ctx.clock.now();
  const limit = meta?.planLimit;
  try {
    if (meta?.planExpiry !== "exempt") await assertPlanWritable(ctx.db, actor.ownerId, now);
    if (!limit) return await run();
    const outer = ctx.db;
    return await withinPlanLimit(
      outer,
      { ownerId: actor.ownerId, limit, now, limits: meta?.transaction },
      async (db) => {
        // A failed call keeps what it wrote before failing (a denial's audit entry), as it would
        // without this transaction; only the limit's refusal rolls the write back.
        ctx.db = db;
        try {
          return await run();
        } finally {
          ctx.db = outer;
        }
      },
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
 * The context as it is, typed with the actor the access rule has just admitted. A context
 * passed to tRPC's `next` is merged into a copy of the whole context on every call; `undefined`
 * keeps the one context (and this type tells the procedure what the rule proved).
 */
function admitted<TActorOut extends TActor>(): { ctx: { actor: TActorOut } } {
  return { ctx: undefined as unknown as { actor: TActorOut } };
}

// Public operations (sign-in, logout, the waitlist) are never refused by a plan.
export const publicProcedure = t.procedure.meta({ access: { kind: "public" } }).use(async ({ ctx, meta, path, next }) => {
  await checkMetaAccess(ctx, meta, path);
  return withContractError(await next());
});

export const ownerProcedure = t.procedure.meta({ access: { kind: "owner" } }).use(async ({ ctx, meta, path, type, next }) => {
  await checkMetaAccess(ctx, meta, path);
  return withContractError(await withPlanChecks(ctx, meta, type, () => next(admitted<TOwnerActor>())));
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
    await checkMetaAccess(ctx, meta, path);
    return withContractError(await withPlanChecks(ctx, meta, type, () => next(admitted<TOwnerActor | TAgentActor>())));
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
