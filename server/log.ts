// Structured one-line JSON logs. Secrets never go out: write() redacts every line (redact()).
type TLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<TLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function threshold(): number {
  const level = process.env.LOG_LEVEL ?? "info";
  if (level === "silent") return Infinity;
  return ORDER[level as TLevel] ?? ORDER.info;
}

const REDACTED = "[redacted]";

/** Fields whose value is a secret whatever it looks like (sessionToken, client_secret, Cookie, …). */
const SECRET_FIELD = /token|secret|password|passwd|authorization|cookie|api_?key|credential/i;

/** Secrets by their look, anywhere in a string: our tokens and signing secrets, bearer headers. */
const SECRET_IN_TEXT: [RegExp, string][] = [
  [/\b(ses|agt|whsec)_[A-Za-z0-9_-]+/g, `$1_${REDACTED}`],
  [/\b(Bearer)\s+[A-Za-z0-9._~+/=-]{16,}/gi, `$1 ${REDACTED}`],
];

function redactText(text: string): string {
  return SECRET_IN_TEXT.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/**
 * The one place secrets leave log lines, at every level and whoever logs (our code, Auth.js's
 * logger): a secret-named field loses its value (numbers and booleans stay: counts and flags),
 * and token-shaped text is masked in every string, keys included.
 */
function redact(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === "string") return redactText(value);
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return value;
  if (value instanceof URL) return redactText(value.toString());
  if (seen.has(value)) return "[circular]";
  seen.add(value); // the objects on the path from the root: a shared one is not a cycle
  try {
    if (value instanceof Error) return redact({ name: value.name, message: value.message, stack: value.stack }, seen);
    if (Array.isArray(value)) return value.map((item) => redact(item, seen));
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
    const out: Record<string, unknown> = {};
    for (const [key, item] of entries) {
      const name = String(key);
      const secret = SECRET_FIELD.test(name) && item != null && typeof item !== "number" && typeof item !== "boolean";
      out[redactText(name)] = secret ? REDACTED : redact(item, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function write(level: TLevel, message: string, fields: Record<string, unknown> = {}): void {
  if (ORDER[level] < threshold()) return;
  const safe = redact(fields) as Record<string, unknown>;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message: redactText(message), ...safe });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(`${line}\n`);
}

export type TLogger = Record<TLevel, (message: string, fields?: Record<string, unknown>) => void>;

/** A logger whose every line carries `bound` (a request's logger carries its request_id). */
export function boundLog(bound: Record<string, unknown>): TLogger {
  const at = (level: TLevel) => (message: string, fields?: Record<string, unknown>) =>
    write(level, message, fields ? { ...bound, ...fields } : bound);
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

export const log: TLogger = boundLog({});

export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { error: error.message, stack: error.stack, cause: error.cause instanceof Error ? error.cause.message : undefined };
  }
  return { error: String(error) };
}
