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

type TFound = { keys: Array<string | number>; code: TJsonProblem["code"]; message: string };

/**
 * The first problem in a parsed JSON value: nesting past `maxDepth`, or (with `text`) a key
 * or string holding a NUL or a lone surrogate. Walks at most `maxDepth` levels. Every request
 * body and webhook item is walked, so a clean value allocates nothing: a problem's path is
 * collected on the way back up (innermost key first).
 */
export function findJsonProblem(
  value: unknown,
  options: { text?: boolean; maxDepth?: number; root?: string; path?: Array<string | number> } = {},
): TJsonProblem | null {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const checkText = options.text ?? true;
  const walk = (node: unknown, depth: number): TFound | null => {
    if (typeof node === "string") {
      const reason = checkText ? unsafeTextReason(node) : null;
      return reason ? { keys: [], code: "unsafe_text", message: reason } : null;
    }
    if (node === null || typeof node !== "object") return null;
    if (depth >= maxDepth) return { keys: [], code: "too_deep", message: `nests deeper than ${maxDepth} levels` };
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const found = walk(node[i], depth + 1);
        if (found) {
          found.keys.push(i);
          return found;
        }
      }
      return null;
    }
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      const reason = checkText ? unsafeTextReason(key) : null;
      if (reason) return { keys: [key], code: "unsafe_text", message: `the key ${reason}` };
      const found = walk((node as Record<string, unknown>)[key], depth + 1);
      if (found) {
        found.keys.push(key);
        return found;
      }
    }
    return null;
  };
  const found = walk(value, 0);
  if (!found) return null;
  const path = [...(options.path ?? []), ...found.keys.reverse()];
  return { path: joinPath(path, options.root ?? "(body)"), code: found.code, message: found.message };
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
