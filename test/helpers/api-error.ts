// The contract's error answer (contract "Errors"): `{ error: { code, message, details?,
// request_id } }` with the code's own status and X-Request-Id equal to request_id. One check,
// used by every suite, so an error body that drifts from the contract fails everywhere at once.
//
//   expectApiError(response, 404, "not_found");
//   expectApiError(response, 400, "validation_error", { issue: "amount_minor", message: /exact/ });
import { expect } from "vitest";
import type { TErrorCode } from "../../server/errors/app-error";
import type { TApiResponse } from "./api";
import { errorBodyProblem } from "./error-body";

export type TApiError = { code: TErrorCode; message: string; details?: any; request_id: string };

type TErrorAnswer = Pick<TApiResponse, "status" | "headers" | "body" | "text">;

/**
 * Asserts the answer is the contract's error `code` with `status`, and optionally what its
 * message says, what its details hold, or that one of its issues names the field `issue`.
 * Answers the error object for further checks.
 */
export function expectApiError(
  response: TErrorAnswer,
  status: number,
  code: TErrorCode,
  expected: {
    message?: string | RegExp;
    details?: Record<string, unknown>;
    issue?: string;
    /** Names the request in a failure (in a loop over requests). */
    what?: string;
  } = {},
): TApiError {
  const what = expected.what ? `${expected.what}: ${response.text}` : response.text;
  expect(response.status, what).toBe(status);
  expect(response.body?.error?.code, what).toBe(code);
  expect(errorBodyProblem(response), what).toBeNull();
  const error = response.body.error as TApiError;
  if (expected.message !== undefined) expect(error.message, what).toMatch(expected.message);
  if (expected.details !== undefined) expect(error.details, what).toMatchObject(expected.details);
  if (expected.issue !== undefined) {
    expect(
      error.details.issues.map((i: { path: string }) => i.path),
      what,
    ).toContain(expected.issue);
  }
  return error;
}
