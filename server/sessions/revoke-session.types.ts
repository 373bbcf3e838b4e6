import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZOwnerSession } from "./session.schema";

export const revokeSessionMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/me/sessions/{id}/revoke",
    tags: ["Sessions"],
    summary: "Revoke one session",
    description: `Signs one of the owner's sessions out at once: its token answers 401 session_revoked from then on. Answers the revoked session.

- Another owner's session, or an unknown id: 404 not_found. An already revoked session: 409 state_conflict. An expired one can still be revoked.
- Revoking the current session is allowed (it is then like POST /v1/auth/logout).
- Needs Idempotency-Key.`,
  },
  access: { kind: "owner" },
  planExpiry: "exempt",
};
export const ZRevokeSessionRequest = ZIdParam;
export const ZRevokeSessionResponse = z.object({ data: ZOwnerSession });
