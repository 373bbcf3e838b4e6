import { z } from "zod";
import { ZListOf, ZPageQuery } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZOwnerSession } from "./session.schema";
import { SESSION_LIFETIME } from "./session-tokens";

export const findSessionsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/me/sessions",
    tags: ["Sessions"],
    summary: "List the owner's sessions",
    description: `The owner's sessions from every channel (\`api\`: POST /v1/auth/verify; \`panel\`: the web panel), newest first (created_at, then id, descending).

- By default (\`status=all\`) the list holds active, expired and revoked sessions: it is the sign-in history. \`status=active\` keeps the sessions that still work; \`expired\` and \`revoked\` the others.
- \`current\` is true for the session this request was made with.
- A session lasts ${SESSION_LIFETIME} from sign-in; use does not extend it (\`last_seen_at\` is refreshed at most once a minute).`,
  },
  access: { kind: "owner" },
};
export const ZFindSessionsRequest = ZPageQuery.extend({
  status: z
    .enum(["all", "active", "expired", "revoked"])
    .default("all")
    .describe("Which sessions: all (default), active, expired or revoked."),
});
export const ZFindSessionsResponse = ZListOf(ZOwnerSession);
