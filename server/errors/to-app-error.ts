// Normalises anything thrown during a call (an AppError, a tRPC error from a procedure call, a
// zod error, a bug) into the contract's error.
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { AppError, ERROR_CODES, isAppError } from "./app-error";

/** Turns anything thrown inside a call into the contract's error. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (error instanceof TRPCError) {
    if (isAppError(error.cause)) return error.cause;
    if (error.code === "BAD_REQUEST" && error.cause instanceof ZodError) return fromZodError(error.cause);
    if (error.code === "PARSE_ERROR" || error.code === "BAD_REQUEST") {
      // Every validation_error names what failed in details.issues (the OpenAPI document says so).
      return new AppError("validation_error", error.message, {
        details: {
          issues: [{ path: "(body)", code: error.code === "PARSE_ERROR" ? "invalid_json" : "invalid", message: error.message }],
        },
      });
    }
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

export function fromZodError(error: ZodError): AppError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    code: issue.code,
    message: issue.message,
  }));
  const first = issues[0];
  const message = first ? `${first.path}: ${first.message}` : "The request failed validation.";
  return new AppError("validation_error", message, { details: { issues } });
}
