// The contract's error answer (contract "Errors"): `{ error: { code, message, details?,
// request_id } }` with the code's own status and X-Request-Id equal to request_id. One check,
// used by every suite, so an error body that drifts from the contract fails everywhere at once.
//
//   expectApiError(response, 404, "not_found");
//   expectApiError(response, 400, "validation_error", { issue: "amount_minor", message: /exact/ });
import { expect } from "vitest";
import { ERROR_CODES, type TErrorCode } from "../../server/errors/app-error";
import type { TApiResponse } from "./api";

export type TApiError = { code: TErrorCode; message: string; details?: any; request_id: string };

type TErrorAnswer = Pick<TApiResponse, "status" | "headers" | "body" | "text">;

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

/**
 * Asserts the answer is the contract's error `code` with `status`, and optionally what its
 * message says, what its details hold, or that one of its issues names the field `issue`.
 * Answers the error object for further checks.
 */
export function expectApiError(
  response: TErrorAnswer,
  status: number,
  code: TErrorCode,
  expected: { message?: string | RegExp; details?: Record<string, unknown>; issue?: string } = {},
): TApiError {
  expect(response.status, response.text).toBe(status);
  expect(response.body?.error?.code, response.text).toBe(code);
  expect(errorBodyProblem(response), response.text).toBeNull();
  const error = response.body.error as TApiError;
  if (expected.message !== undefined) expect(error.message).toMatch(expected.message);
  if (expected.details !== undefined) expect(error.details).toMatchObject(expected.details);
  if (expected.issue !== undefined) expect(error.details.issues.map((i: { path: string }) => i.path)).toContain(expected.issue);
  return error;
}
