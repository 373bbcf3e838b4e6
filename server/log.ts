// Structured one-line JSON logs. Secrets never go in here: tokens appear only as token keys.
type TLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<TLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function threshold(): number {
  const level = process.env.LOG_LEVEL ?? "info";
  if (level === "silent") return Infinity;
  return ORDER[level as TLevel] ?? ORDER.info;
}

function write(level: TLevel, message: string, fields: Record<string, unknown> = {}): void {
  if (ORDER[level] < threshold()) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(`${line}\n`);
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};

export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { error: error.message, stack: error.stack, cause: error.cause instanceof Error ? error.cause.message : undefined };
  }
  return { error: String(error) };
}
