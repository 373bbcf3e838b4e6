// Configuration from environment variables, validated once. DESIGN.md pins the names and
// defaults; the README's configuration table mirrors this file.
import path from "node:path";
import { z } from "zod";
import { ECB_DEFAULT_URL, ECB_TIMEOUT_MS } from "./fx/providers/ecb";

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgresql:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  DATA_DIR: z.string().default(".data"),
  PUBLIC_BASE_URL: z.string().url().optional(),
  AUTH_MODE: z.enum(["session", "static"]).default("session"),
  STATIC_OWNER_TOKEN: z.string().min(16, "STATIC_OWNER_TOKEN needs at least 16 characters").optional(),
  STATIC_OWNER_EMAIL: z.string().email().default("owner@localhost"),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Finance back office <no-reply@localhost>"),
  ENCRYPTION_KEY: z.string().optional(),
  /** Signs the panel's Auth.js cookies and hashes its login tokens; generated into DATA_DIR when unset. */
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET needs at least 32 characters").optional(),
  LANDING_ORIGIN: z.string().optional(),
  FX_SOURCE: z.enum(["ecb", "mock"]).default("mock"),
  FX_ECB_URL: z.string().url().default(ECB_DEFAULT_URL),
  FX_ECB_TIMEOUT_MS: z.coerce.number().int().min(100).default(ECB_TIMEOUT_MS),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
});

export type TEnv = z.infer<typeof ZEnv> & { publicBaseUrl: string; dataDir: string };

let cached: TEnv | undefined;

export function getEnv(): TEnv {
  if (cached) return cached;
  const parsed = ZEnv.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  if (env.AUTH_MODE === "static" && !env.STATIC_OWNER_TOKEN) {
    throw new Error("Invalid configuration:\n  STATIC_OWNER_TOKEN: required when AUTH_MODE=static");
  }
  cached = {
    ...env,
    dataDir: path.resolve(env.DATA_DIR),
    publicBaseUrl: env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`,
  };
  return cached;
}

/** Tests change process.env between cases; this forgets the parsed copy. */
export function resetEnvForTests(): void {
  cached = undefined;
}
