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

/** The most sources GET /v1/waitlist/sources names; the rest are summed (anyone may send any source). */
export const WAITLIST_SOURCES_MAX = 100;

export const ZWaitlistSources = z.object({
  total: z.int().nonnegative().describe("Every entry of the waitlist."),
  sources: z
    .array(z.object({ source: z.string().nullable().describe("null: joined without a source."), count: z.int().positive() }))
    .describe("Most entries first, then by source (none last)."),
  other_count: z.int().nonnegative().describe(`Entries of the sources beyond the first ${WAITLIST_SOURCES_MAX}.`),
  truncated: z.boolean().describe(`true when there are more than ${WAITLIST_SOURCES_MAX} sources.`),
});
export type TWaitlistSources = z.infer<typeof ZWaitlistSources>;
