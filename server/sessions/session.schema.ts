// Shapes of the owner-session domain: the login email, the session record as the owner sees
// it, and the user summary the verify answer carries.
import { z } from "zod";
import { ZMe } from "../me/me.schema";
import { ZTimestamp, ZUuid } from "../shared/schemas";

export const LOGIN_EMAIL_MAX = 254;

/** An email as the login flow keys it: trimmed, lower-cased, at most 254 characters. */
export const ZLoginEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(LOGIN_EMAIL_MAX, { message: `must be at most ${LOGIN_EMAIL_MAX} characters` })
  .pipe(z.email({ message: "must be an email address" }))
  .meta({ example: "founder@example.com" });

export const SESSION_CHANNELS = ["api", "panel"] as const;
export type TSessionChannel = (typeof SESSION_CHANNELS)[number];

export const SESSION_STATUSES = ["active", "expired", "revoked"] as const;
export type TSessionStatus = (typeof SESSION_STATUSES)[number];

export const ZOwnerSession = z
  .object({
    id: ZUuid,
    channel: z
      .enum(SESSION_CHANNELS)
      .describe("Where the session was started: `api` (POST /v1/auth/verify) or `panel` (the web panel)."),
    user_agent: z.string().nullable().describe("The User-Agent of the sign-in request (cut to 512 characters), if known."),
    ip: z.string().nullable().describe("The client address of the sign-in request (first X-Forwarded-For entry), if known."),
    created_at: ZTimestamp,
    last_seen_at: ZTimestamp.describe("Last authenticated request (refreshed at most once a minute)."),
    expires_at: ZTimestamp,
    revoked_at: ZTimestamp.nullable(),
    status: z.enum(SESSION_STATUSES).describe("`revoked` wins over `expired`."),
    current: z.boolean().describe("True for the session the request was made with."),
  })
  .meta({ id: "OwnerSession" });
export type TOwnerSession = z.infer<typeof ZOwnerSession>;

/** The owner a new session belongs to: the identity part of Me. */
export const ZSessionUser = ZMe.pick({
  id: true,
  email: true,
  name: true,
  base_currency: true,
  timezone: true,
  locale: true,
}).meta({
  id: "SessionUser",
});
export type TSessionUser = z.infer<typeof ZSessionUser>;

export const ZNewSession = z
  .object({
    session_token: z
      .string()
      .startsWith("ses_")
      .describe("The owner's bearer token. Shown only here; only its SHA-256 is stored."),
    expires_at: ZTimestamp,
    user: ZSessionUser,
  })
  .meta({ id: "NewSession" });
export type TNewSession = z.infer<typeof ZNewSession>;
