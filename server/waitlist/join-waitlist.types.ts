import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { WAITLIST_EMAIL_MAX, WAITLIST_SOURCE_MAX, WAITLIST_USER_AGENT_MAX, ZJoinWaitlistBody } from "./waitlist.schema";

export const joinWaitlistMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/waitlist",
    tags: ["Waitlist"],
    summary: "Join the waitlist",
    description: `Public: no bearer and no Idempotency-Key.

- Always 202 \`{ data: { status: "accepted" } }\`: for a new email, for one already on the list (the first entry is kept) and when the honeypot \`website\` is filled (then nothing is stored). Whether an email is on the list is never revealed.
- Checked first, 400 validation_error: \`email\` trimmed and lower-cased, a valid address of at most ${WAITLIST_EMAIL_MAX} characters; \`source\` at most ${WAITLIST_SOURCE_MAX} characters (never truncated; empty = none). No NUL characters.
- Stored: email, source, created_at and the User-Agent cut to ${WAITLIST_USER_AGENT_MAX} characters. No IP address is stored and no audit entry is written.
- Per client IP: 5 calls a minute and 20 a day (fixed UTC windows); beyond, 429 rate_limited with Retry-After (seconds to that window's end). Refused calls do not count.
- CORS: a browser page on LANDING_ORIGIN may call this route (OPTIONS preflight answered 204 with Access-Control-Allow-Origin, -Allow-Methods: POST, OPTIONS, -Allow-Headers: Content-Type, -Max-Age: 600); any other origin gets no CORS header, and a call carrying an Origin that is neither LANDING_ORIGIN nor this service's own is refused with 403 csrf_rejected and stores nothing (calls without an Origin, from servers and scripts, are unaffected).`,
  },
  access: { kind: "public", ipLimit: "waitlist" },
  idempotency: "exempt",
  successStatus: 202,
  cors: "landing",
};
export const ZJoinWaitlistRequest = ZJoinWaitlistBody;
export const ZJoinWaitlistResponse = z.object({ data: z.object({ status: z.literal("accepted") }) });
