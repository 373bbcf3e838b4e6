// Configuration from environment variables, validated once. DESIGN.md pins the names and
// defaults; the README's configuration table mirrors this file. The lowest layer: it imports
// nothing from server/ (the modules that read a setting import this file, never the reverse).
import path from "node:path";
import { z } from "zod";

/** FX_ECB_URL's default: the ECB's daily reference rates (server/fx/providers/ecb.ts reads it). */
export const ECB_DEFAULT_URL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml";
export const ECB_TIMEOUT_MS = 10_000;

/** ENCRYPTION_KEY's text as 32 bytes, or an error that says what is wrong with it (checked at start and when the key is loaded). */
export function parseEncryptionKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64url");
  if (key.length !== 32) {
    throw new Error("ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or 43/44 base64 characters");
  }
  return key;
}

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
  /** The one origin allowed by CORS on POST /v1/waitlist (server/rest/cors.ts): scheme, host and port only. */
  LANDING_ORIGIN: z
    .string()
    .trim()
    .refine((value) => value === "" || (URL.canParse(value) && new URL(value).origin === value), {
      message: "LANDING_ORIGIN must be an origin such as https://example.com (no path, no trailing slash)",
    })
    .transform((value) => (value === "" ? undefined : value))
    .optional(),
  /** Owner emails that may read GET /v1/waitlist (server/waitlist/waitlist-readers.ts); unset: see there. */
  WAITLIST_READERS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    )
    .optional(),
  FX_SOURCE: z.enum(["ecb", "mock"]).default("mock"),
  FX_ECB_URL: z.string().url().default(ECB_DEFAULT_URL),
  FX_ECB_TIMEOUT_MS: z.coerce.number().int().min(100).default(ECB_TIMEOUT_MS),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  /**
   * Reverse-proxy hops in front of the app whose X-Forwarded-For entries are trusted for the
   * client IP (server/auth/client-ip.ts); unset or 0 = the socket address, the header ignored.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^\d{0,2}$/, "TRUST_PROXY must be the number of proxy hops to trust (0 to 99), e.g. 1")
    .transform((value) => (value === "" || Number(value) === 0 ? undefined : Number(value)))
    .optional(),
  /** The server's V8 old-space limit (MB), so memory stays near the live set (scripts/start.ts). */
  SERVER_HEAP_MB: z.coerce.number().int().min(128).default(320),
  /** Search Ads OAuth (connect search_ads): the app's client at the platform and its two endpoints. */
  SEARCH_ADS_CLIENT_ID: z.string().min(1).default("finance-back-office-dev"),
  SEARCH_ADS_CLIENT_SECRET: z.string().min(1).optional(),
  SEARCH_ADS_AUTHORIZE_URL: z.string().url().default("https://accounts.search-ads.invalid/oauth/authorize"),
  SEARCH_ADS_TOKEN_URL: z.string().url().default("https://accounts.search-ads.invalid/oauth/token"),
  /** Webhook signing secrets and the social_ads verify token; unset or empty = that receiver answers 401. */
  WEBHOOK_SECRET_PAYMENTS_A: z.string().optional(),
  WEBHOOK_SECRET_SOCIAL_ADS: z.string().optional(),
  WEBHOOK_SECRET_SEARCH_ADS: z.string().optional(),
  WEBHOOK_SECRET_BILLING_A: z.string().optional(),
  WEBHOOK_SECRET_BILLING_B: z.string().optional(),
  SOCIAL_ADS_VERIFY_TOKEN: z.string().optional(),
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
  if (env.DATABASE_URL && !env.ENCRYPTION_KEY) {
    throw new Error(
      "Invalid configuration:\n  ENCRYPTION_KEY: required with DATABASE_URL (every instance must decrypt the same secrets)",
    );
  }
  if (env.ENCRYPTION_KEY) {
    try {
      parseEncryptionKey(env.ENCRYPTION_KEY);
    } catch (error) {
      throw new Error(`Invalid configuration:\n  ENCRYPTION_KEY: ${(error as Error).message}`);
    }
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
