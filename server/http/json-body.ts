// The JSON rules every /v1 body follows: the REST layer applies them to JSON routes, and the
// webhook receivers to a delivery once its signature is checked.
import { AppError } from "../errors/app-error";
import { findJsonProblem } from "../shared/safe-text";

/**
 * application/json or a +json type, by the media type itself: "text/plain; x=json" is not JSON
 * (and is what a foreign page may send without a CORS preflight).
 */
export function isJsonMediaType(contentType: string): boolean {
  const essence = contentType.split(";")[0]!.trim().toLowerCase();
  return /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/.test(essence);
}

/**
 * A JSON object body. An empty body is `{}`; anything else that is not an object is 400, and
 * so is nesting deeper than 64 levels. With `text: "reject"` (the default) a NUL or a lone
 * surrogate in any key or string is 400 naming the field; webhook receivers pass "per_item"
 * and refuse such items one by one (their item schemas check text).
 */
export function parseJsonObject(
  raw: Buffer,
  contentType: string | null,
  options: { text?: "reject" | "per_item" } = {},
): Record<string, unknown> {
  if (contentType && !isJsonMediaType(contentType) && raw.length > 0) {
    throw new AppError("unsupported_media_type", `Bodies are JSON; Content-Type ${contentType} is not accepted.`);
  }
  const text = raw.toString("utf8").trim();
  if (text === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError("validation_error", "The body is not valid JSON.", {
      details: { issues: [{ path: "(body)", code: "invalid_json", message: (error as Error).message }] },
    });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError("validation_error", "The body must be a JSON object.", {
      details: { issues: [{ path: "(body)", code: "invalid_type", message: "expected a JSON object" }] },
    });
  }
  const problem = findJsonProblem(value, { text: (options.text ?? "reject") === "reject" });
  if (problem) {
    throw new AppError("validation_error", `${problem.path}: ${problem.message}`, {
      details: { issues: [problem] },
    });
  }
  return value as Record<string, unknown>;
}
