import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";

export const signOutMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/auth/logout",
    tags: ["Auth"],
    summary: "End the current session",
    description: `Revokes the owner session whose token is the bearer of this request; afterwards that token answers 401 session_revoked.

- Needs \`Authorization: Bearer ses_…\` (an owner session); anything else answers 401 unauthenticated. No Idempotency-Key needed.
- Other sessions of the owner stay signed in (see POST /v1/me/sessions/revoke-others).`,
  },
  access: { kind: "public" },
  idempotency: "exempt",
};
export const ZSignOutRequest = z.object({});
export const ZSignOutResponse = z.object({ data: z.object({ status: z.literal("signed_out") }) });
