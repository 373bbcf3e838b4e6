// The waitlist's shapes (contract Resources › Waitlist entry; pinned-wave2.md §5.1).
import { z } from "zod";
import { ZPageQuery } from "../shared/pagination";
import { ZText, ZTimestamp } from "../shared/schemas";

export const WAITLIST_EMAIL_MAX = 254;
export const WAITLIST_SOURCE_MAX = 64;
export const WAITLIST_USER_AGENT_MAX = 256;

export const ZWaitlistEmail = ZText.trim()
  .toLowerCase()
  .max(WAITLIST_EMAIL_MAX, { message: `must be at most ${WAITLIST_EMAIL_MAX} characters` })
  .pipe(z.email({ message: "must be an email address" }))
  .meta({ example: "founder@example.com" });

export const ZJoinWaitlistBody = z.object({
  email: ZWaitlistEmail,
  // Never truncated: over 64 is 400. Empty is no source.
  source: ZText.max(WAITLIST_SOURCE_MAX, { message: `must be at most ${WAITLIST_SOURCE_MAX} characters` })
    .nullish()
    .transform((value) => (value ? value : null))
    .meta({ example: "newsletter" }),
  website: ZText.nullish().describe("Honeypot: leave empty. A non-empty value is answered 202 and nothing is stored."),
});
export type TJoinWaitlistBody = z.infer<typeof ZJoinWaitlistBody>;

export const ZWaitlistEntry = z.object({
  email: z.string(),
  source: z.string().nullable(),
  created_at: ZTimestamp,
  user_agent: z.string().nullable(),
});
export type TWaitlistEntry = z.infer<typeof ZWaitlistEntry>;

export const ZFindWaitlistQuery = ZPageQuery.extend({
  format: z.enum(["json", "csv"]).default("json").describe("json: one page, newest first; csv: every entry, oldest first."),
});
