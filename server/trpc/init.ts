// tRPC, once. Every procedure is built from one of the builders below, which declare its
// access rule in the meta; one middleware enforces that rule (server/access/check-access.ts)
// before input is parsed.
import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { checkAccess } from "../access/check-access";
import type { TAgentActor, TOwnerActor } from "../auth/actor";
import type { TScope } from "../auth/scopes";
import { AppError } from "../errors/app-error";
import { toAppError } from "../errors/to-app-error";
import type { TContext } from "./context";
import type { TProcedureMeta } from "./meta";

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

const withContractErrors = t.procedure.use(async ({ next }) => {
  const result = await next();
  if (result.ok || !(result.error.cause instanceof AppError)) return result;
  const appError = result.error.cause;
  const code = TRPC_CODE_BY_STATUS[appError.status] ?? "INTERNAL_SERVER_ERROR";
  return { ...result, error: new TRPCError({ code, message: appError.message, cause: appError }) };
});

// The meta's access rule, before the input is even parsed (Conventions 4: scope first). The REST
// layer has checked it already (here it only passes again); the panel's endpoint and the server
// components' caller have no other check.
const accessChecked = withContractErrors.use(async ({ ctx, meta, path, next }) => {
  await checkAccess(meta?.access, ctx.actor, { operation: path, db: () => ctx.db, requestId: ctx.requestId });
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
