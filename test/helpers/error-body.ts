// The contract's error body, checked without vitest (the fuzzer of `npm run fuzz` runs outside it).
import { ERROR_CODES, type TErrorCode } from "../../server/errors/app-error";
import type { TApiResponse } from "./api";

/** What is wrong with an error answer's body against the contract, or null when nothing is. */
export function errorBodyProblem(response: Pick<TApiResponse, "status" | "headers" | "body">): string | null {
  const error = response.body?.error;
  if (!error || typeof error !== "object") return "no error object";
  const known = ERROR_CODES[error.code as TErrorCode];
  if (!known) return `unknown code ${String(error.code)}`;
  if (known.status !== response.status) return `code ${error.code} with status ${response.status}`;
  if (typeof error.message !== "string" || error.message === "") return "no message";
  if (typeof error.request_id !== "string" || error.request_id !== response.headers.get("x-request-id"))
    return "request_id missing or unlike X-Request-Id";
  if (error.code === "validation_error") {
    const issues = error.details?.issues;
    if (!Array.isArray(issues) || issues.length === 0) return "validation_error without details.issues";
    if (issues.some((i: any) => typeof i?.path !== "string" || i.path === "")) return "an issue without a path";
  }
  return null;
}
