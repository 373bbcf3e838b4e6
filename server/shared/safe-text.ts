// Text and JSON that PostgreSQL can store and every layer can walk. JSON.parse accepts
// "\u0000" and lone surrogates ("\ud800"), but PostgreSQL refuses a NUL in text and jsonb
// ("invalid byte sequence", "unsupported Unicode escape sequence") and a lone surrogate is
// not text at all; deep nesting overflows recursive code (the idempotency hash, zod). Such
// input is refused with 400 validation_error naming the field, never stripped: a silently
// changed external_id or description would be worse than a clear refusal.

/** Nesting allowed in a JSON body (objects and arrays); deeper answers 400. */
export const MAX_JSON_DEPTH = 64;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as text, or null when it can. */
export function unsafeTextReason(value: string): string | null {
  if (value.includes("\u0000")) return "must not contain a NUL character (\\u0000)";
  if (LONE_SURROGATE.test(value)) return "must not contain a lone UTF-16 surrogate (invalid Unicode)";
  return null;
}

export type TJsonProblem = { path: string; code: "unsafe_text" | "too_deep"; message: string };

/** A key as it appears in an issue path: escaped, so the path itself is safe text. */
function pathKey(key: string | number): string {
  return typeof key === "number" ? String(key) : JSON.stringify(key).slice(1, -1);
}

function joinPath(path: Array<string | number>, root: string): string {
  return path.length === 0 ? root : path.map(pathKey).join(".");
}

/**
 * The first problem in a parsed JSON value: nesting past `maxDepth`, or (with `text`) a key
 * or string holding a NUL or a lone surrogate. Walks at most `maxDepth` levels.
 */
export function findJsonProblem(
  value: unknown,
  options: { text?: boolean; maxDepth?: number; root?: string; path?: Array<string | number> } = {},
): TJsonProblem | null {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const checkText = options.text ?? true;
  const root = options.root ?? "(body)";
  const walk = (node: unknown, path: Array<string | number>, depth: number): TJsonProblem | null => {
    if (typeof node === "string") {
      const reason = checkText ? unsafeTextReason(node) : null;
      return reason ? { path: joinPath(path, root), code: "unsafe_text", message: reason } : null;
    }
    if (node === null || typeof node !== "object") return null;
    if (depth >= maxDepth)
      return { path: joinPath(path, root), code: "too_deep", message: `nests deeper than ${maxDepth} levels` };
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const found = walk(node[i], [...path, i], depth + 1);
        if (found) return found;
      }
      return null;
    }
    for (const [key, child] of Object.entries(node)) {
      const reason = checkText ? unsafeTextReason(key) : null;
      if (reason) return { path: joinPath([...path, key], root), code: "unsafe_text", message: `the key ${reason}` };
      const found = walk(child, [...path, key], depth + 1);
      if (found) return found;
    }
    return null;
  };
  return walk(value, options.path ?? [], 0);
}

/** The calendar days the service accepts: a date before 1900 or after 2999 is an input error, not a 500. */
export const MIN_DAY = "1900-01-01";
export const MAX_DAY = "2999-12-31";

/** Whether a YYYY-MM-DD day (or the day of an ISO timestamp, in UTC) is within 1900–2999. */
export function isDayInRange(day: string): boolean {
  return day >= MIN_DAY && day <= MAX_DAY;
}

/** Whether an instant is within 1900-01-01T00:00Z … 2999-12-31T23:59:59.999Z. */
export function isInstantInRange(date: Date): boolean {
  const time = date.getTime();
  return Number.isFinite(time) && time >= Date.UTC(1900, 0, 1) && time < Date.UTC(3000, 0, 1);
}
