// Reading request bodies with a hard size cap, and the JSON rules every /v1 body follows.
import { AppError } from "../errors/app-error";
import { findJsonProblem, unsafeTextReason } from "../shared/safe-text";

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** The raw body, refused with 413 once it passes `maxBytes` (declared or streamed). */
export async function readBodyCapped(req: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length"));
  const tooLarge = () =>
    new AppError("payload_too_large", `The request body exceeds ${maxBytes} bytes.`, { details: { max_bytes: maxBytes } });
  if (declared > maxBytes) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
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
  if (contentType && !/json/i.test(contentType) && raw.length > 0) {
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

/** Query parameters are text too: a NUL in a name or value is 400 naming the parameter. */
export function assertSafeQuery(query: URLSearchParams): void {
  for (const [name, value] of query) {
    const reason = unsafeTextReason(name) ?? unsafeTextReason(value);
    if (reason) {
      const path = JSON.stringify(name).slice(1, -1) || "(query)";
      throw new AppError("validation_error", `${path}: ${reason}`, {
        details: { issues: [{ path, code: "unsafe_text", message: reason }] },
      });
    }
  }
}
