import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";

export const revokeOtherSessionsMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/me/sessions/revoke-others",
    tags: ["Sessions"],
    summary: "Revoke every other session",
    description: `Signs out every active session of the owner except the one this request was made with (from every channel, panel included). Answers how many were revoked; their tokens answer 401 session_revoked from then on.

- With the static owner token (AUTH_MODE=static) there is no current session, so every active session is revoked.
- Needs Idempotency-Key.`,
  },
  access: { kind: "owner" },
  planExpiry: "exempt",
};
export const ZRevokeOtherSessionsRequest = z.object({});
export const ZRevokeOtherSessionsResponse = z.object({
  data: z.object({ revoked: z.number().int().min(0).describe("How many sessions were revoked.") }),
});
