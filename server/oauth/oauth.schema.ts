// OAuth 2.1 for assistants (pinned-wave3 §2.2): the shapes of client registration (RFC 7591), the
// authorization request (the consent page's query) and the owner's consent (POST /v1/oauth/authorizations).
import { z } from "zod";
import { ZGrant, ZIpRanges } from "../agents/agent.schema";
import { ZName } from "../shared/schemas";

/** The parameters of GET /oauth/authorize, as the client sent them (checked by checkAuthorizeRequest). */
export const ZAuthorizeParams = z.object({
  response_type: z.string().optional(),
  client_id: z.string().max(200).optional(),
  redirect_uri: z.string().max(2000).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
  state: z.string().max(1000).optional(),
  resource: z.string().max(2000).optional(),
  scope: z.string().max(1000).optional(),
});
export type TAuthorizeParams = z.infer<typeof ZAuthorizeParams>;

/** RFC 7591 client metadata we read; anything else is ignored (and not echoed). */
export const ZClientRegistration = z.object({
  redirect_uris: z.array(z.string().max(2000)).min(1).max(10),
  client_name: z.string().trim().min(1).max(100).optional(),
  client_uri: z.string().url().max(2000).optional(),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  scope: z.string().max(1000).optional(),
});

export const ZApproveAuthorizationInput = z
  .object({
    client_id: z.string().min(1).max(200).describe("The client_id the assistant registered (POST /oauth/register)."),
    redirect_uri: z.string().min(1).max(2000).describe("The redirect_uri of the authorization request."),
    code_challenge: z.string().min(43).max(128).describe("The PKCE code_challenge of the authorization request."),
    code_challenge_method: z.literal("S256").describe("PKCE method: S256 only."),
    state: z.string().max(1000).optional().describe("The client's state, handed back on the redirect."),
    resource: z.string().max(2000).optional().describe("The resource the token is for (the MCP URL)."),
    scope: z.string().max(1000).optional().describe("The scope the client asked for (informative)."),
    name: ZName.optional().describe("The agent's name; default the client's name."),
    grants: z.array(ZGrant).max(100).default([]).describe("The grants the owner gives the new agent."),
    allowed_ip_ranges: ZIpRanges.default([]),
  })
  .meta({ id: "ApproveOAuthAuthorizationInput" });

export const ZApproveAuthorization = z
  .object({
    agent_id: z.string().describe("The agent created for the assistant (created_via oauth)."),
    redirect_to: z.string().describe("The client's redirect_uri with code, state and iss: where the owner's browser goes next."),
  })
  .meta({ id: "OAuthAuthorization" });
