// One item of a batch (a webhook delivery, a statement import) never fails the whole batch:
// whatever its checks or its mapping throw becomes that item's rejection, and what the
// database would refuse for one row (a NUL byte, a lone surrogate, a bigint out of range) is
// found before the batch's multi-row INSERT, where it would fail every row.
import { ZodError } from "zod";
import { isAppError } from "../errors/app-error";
import { log } from "../log";
import { REJECTION_CODES, type TRejectedItem } from "./ingest.schema";

export type TItemRejection = { code: TRejectedItem["code"]; message: string };

const REJECTION_CODE_SET = new Set<string>(REJECTION_CODES);

/** What one item's check or mapping threw → its rejection. An unexpected error is logged, never re-thrown. */
export function rejectionOf(error: unknown, context: Record<string, unknown> = {}): TItemRejection {
  if (isAppError(error))
    return {
      code: REJECTION_CODE_SET.has(error.code) ? (error.code as TItemRejection["code"]) : "validation_error",
      message: error.message,
    };
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    const path = issue?.path.map(String).join(".");
    return { code: "validation_error", message: issue ? (path ? `${path}: ${issue.message}` : issue.message) : "invalid item" };
  }
  log.error("an item of a batch could not be processed", {
    ...context,
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  });
  return { code: "validation_error", message: "This item could not be read; it was not stored." };
}

/** Runs one item's step; a throw becomes the item's rejection. */
export function perItem<T>(step: () => T, context: Record<string, unknown> = {}): T | { rejection: TItemRejection } {
  try {
    return step();
  } catch (error) {
    return { rejection: rejectionOf(error, context) };
  }
}

export function isRejection<T>(value: T | { rejection: TItemRejection }): value is { rejection: TItemRejection } {
  return typeof value === "object" && value !== null && "rejection" in value;
}

const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;
const MAX_DEPTH = 64;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type TUnstorable = { keys: Array<string | number>; ofKey: boolean; message: string };

function findUnstorable(value: unknown, depth: number): TUnstorable | null {
  if (typeof value === "string") {
    if (value.includes("\u0000")) return { keys: [], ofKey: false, message: "must not contain a NUL character" };
    if (LONE_SURROGATE.test(value))
      return { keys: [], ofKey: false, message: "must not contain a lone surrogate (invalid Unicode)" };
    return null;
  }
  if (typeof value === "bigint")
    return value < BIGINT_MIN || value > BIGINT_MAX ? { keys: [], ofKey: false, message: "is out of range" } : null;
  if (value === null || typeof value !== "object") return null;
  if (depth >= MAX_DEPTH) return { keys: [], ofKey: false, message: "is nested too deeply" };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = findUnstorable(value[i], depth + 1);
      if (problem) {
        problem.keys.push(i);
        return problem;
      }
    }
    return null;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const keyProblem = findUnstorable(key, depth + 1);
    if (keyProblem) return { ...keyProblem, ofKey: true };
    const problem = findUnstorable((value as Record<string, unknown>)[key], depth + 1);
    if (problem) {
      problem.keys.push(key);
      return problem;
    }
  }
  return null;
}

/**
 * Why PostgreSQL would refuse to store this value (text, jsonb, bigint), or null. Walks
 * strings (object keys included) for NUL bytes and lone UTF-16 surrogates, and bigints (or
 * integer numbers) for the bigint range. `path` names the field in the message (built only
 * for a problem: clean values allocate nothing).
 */
export function unstorable(value: unknown, path: string, depth = 0): string | null {
  const problem = findUnstorable(value, depth);
  if (!problem) return null;
  const where = [path, ...problem.keys.reverse()].join(".");
  return `${where}${problem.ofKey ? " key" : ""}: ${problem.message}`;
}
