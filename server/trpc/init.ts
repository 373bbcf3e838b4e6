// tRPC, once. Every procedure is built from one of the builders below, which declare its
// access rule in the meta; one middleware enforces that rule before input is parsed.
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { TAgentActor, TOwnerActor } from "../auth/actor";
import type { TScope } from "../auth/scopes";
import { AppError, ERROR_CODES, isAppError } from "../errors/app-error";
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

/** Turns anything thrown inside a call into the contract's error. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (error instanceof TRPCError) {
    if (isAppError(error.cause)) return error.cause;
    if (error.code === "BAD_REQUEST" && error.cause instanceof ZodError) return fromZodError(error.cause);
    if (error.code === "PARSE_ERROR" || error.code === "BAD_REQUEST") return new AppError("validation_error", error.message);
    if (error.code === "NOT_FOUND") return new AppError("not_found");
    if (error.code === "UNSUPPORTED_MEDIA_TYPE") return new AppError("unsupported_media_type", error.message);
    if (error.code === "PAYLOAD_TOO_LARGE") return new AppError("payload_too_large");
    if (error.code === "METHOD_NOT_SUPPORTED") return new AppError("method_not_allowed");
    if (error.code === "UNAUTHORIZED") return new AppError("unauthenticated");
    return new AppError("internal_error", ERROR_CODES.internal_error.message, { cause: error.cause ?? error });
  }
  if (error instanceof ZodError) return fromZodError(error);
  return new AppError("internal_error", ERROR_CODES.internal_error.message, { cause: error });
}

function fromZodError(error: ZodError): AppError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    code: issue.code,
    message: issue.message,
  }));
  const first = issues[0];
  const message = first ? `${first.path}: ${first.message}` : "The request failed validation.";
  return new AppError("validation_error", message, { details: { issues } });
}

function enforce(rule: TAccessRule | undefined, ctx: TContext): void {
  if (!rule) throw new AppError("internal_error", "Procedure declares no access rule.");
  if (rule.kind === "public" || rule.kind === "signature") return;
  const { actor } = ctx;
  if (actor.type === "public" || actor.type === "integration") throw new AppError("unauthenticated");
  if (actor.type === "owner") return;
  if (rule.kind === "owner") {
    throw new AppError("scope_denied", "This operation is for the owner only.");
  }
  // Agents: grants are checked by the identity module (issue 3); until then no agent holds any.
  throw new AppError("scope_denied", `This operation needs the scope ${rule.scope}.`);
}

const accessChecked = t.procedure.use(({ ctx, meta, next }) => {
  enforce(meta?.access, ctx);
  return next();
});

export const publicProcedure = accessChecked.meta({ access: { kind: "public" } });

export const ownerProcedure = accessChecked
  .meta({ access: { kind: "owner" } })
  .use(({ ctx, next }) => next({ ctx: { ...ctx, actor: ctx.actor as TOwnerActor } }));

export function ownerOrAgentProcedure(scope: TScope) {
  return accessChecked
    .meta({ access: { kind: "owner_or_agent", scope } })
    .use(({ ctx, next }) => next({ ctx: { ...ctx, actor: ctx.actor as TOwnerActor | TAgentActor } }));
}
