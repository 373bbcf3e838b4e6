import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZApproveAuthorization, ZApproveAuthorizationInput } from "./oauth.schema";

export const approveAuthorizationMeta: TProcedureMeta = {
  secretInResponse: true,
  openapi: {
    method: "POST",
    path: "/v1/oauth/authorizations",
    tags: ["Agents"],
    summary: "Approve an assistant's OAuth authorization request",
    description:
      "The consent page's approval (pinned-wave3 §2.2): checks the authorization request again (a registered client_id, " +
      "one of its redirect_uris, PKCE S256, resource the MCP URL), then creates an agent named after the client (or name) " +
      "with the grants given, created_via oauth, audited (agent.created), and a single-use code valid 10 minutes. Answers " +
      "201 { agent_id, redirect_to }: the client's redirect_uri with code, state and iss, where the browser goes next; " +
      "the client exchanges the code at POST /oauth/token. A request that fails its checks answers 400; past the plan's " +
      "agent limit 403 plan_limit_exceeded. Owner only.",
  },
  successStatus: 201,
  planLimit: "agents",
  experimental: true,
};
export const ZApproveAuthorizationRequest = ZApproveAuthorizationInput;
export const ZApproveAuthorizationResponse = z.object({ data: ZApproveAuthorization });
