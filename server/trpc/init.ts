// tRPC, once. Every procedure is built from one of the builders below, which declare its
// access rule in the meta; one middleware enforces that rule before input is parsed.
import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import type { TAgentActor, TOwnerActor } from "../auth/actor";
import { hasScope } from "../auth/grants";
import type { TScope } from "../auth/scopes";
import { recordAudit } from "../audit/audit-service";
import { AppError } from "../errors/app-error";
import { toAppError } from "../errors/to-app-error";
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

/** The access rule of the meta, before the input is even parsed (Conventions 4: scope first). */
async function enforce(rule: TAccessRule | undefined, ctx: TContext, path: string): Promise<void> {
  if (!rule) throw new AppError("internal_error", "Procedure declares no access rule.");
  if (rule.kind === "public" || rule.kind === "signature") return;
  const { actor } = ctx;
  if (actor.type === "public" || actor.type === "integration") throw new AppError("unauthenticated");
  if (actor.type === "owner") return;
  if (rule.kind === "owner_or_agent" && (!rule.scope || hasScope(actor.grants, rule.scope))) return;
  const denial =
    rule.kind === "owner"
      ? new AppError("scope_denied", "This operation is for the owner only.", { details: { required: "owner" } })
      : new AppError("scope_denied", `This operation needs a grant of ${rule.scope}.`, {
          details: { required_scope: rule.scope },
        });
  await recordAudit(ctx.db, {
    ownerId: actor.ownerId,
    actor,
    action: "access.denied",
    requestId: ctx.requestId,
    details: { procedure: path, code: "scope_denied", ...(rule.kind === "owner_or_agent" ? { scope: rule.scope } : {}) },
  });
  throw denial;
}

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

const withContractErrors = t.procedure.use(async ({ next }) => {
  const result = await next();
  if (result.ok || !(result.error.cause instanceof AppError)) return result;
  const appError = result.error.cause;
  const code = TRPC_CODE_BY_STATUS[appError.status] ?? "INTERNAL_SERVER_ERROR";
  return { ...result, error: new TRPCError({ code, message: appError.message, cause: appError }) };
});

const accessChecked = withContractErrors.use(async ({ ctx, meta, path, next }) => {
  await enforce(meta?.access, ctx, path);
  return next();
});

export const publicProcedure = accessChecked.meta({ access: { kind: "public" } });

export const ownerProcedure = accessChecked
  .meta({ access: { kind: "owner" } })
  .use(({ ctx, next }) => next({ ctx: { ...ctx, actor: ctx.actor as TOwnerActor } }));

/** An owner, or an agent holding `scope` (any live agent when no scope is named). */
export function ownerOrAgentProcedure(scope?: TScope) {
  return accessChecked
    .meta({ access: { kind: "owner_or_agent", scope } })
    .use(({ ctx, next }) => next({ ctx: { ...ctx, actor: ctx.actor as TOwnerActor | TAgentActor } }));
}
