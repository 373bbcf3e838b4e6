import { z } from "zod";
import { SCOPES } from "../auth/scopes";
import { ZCurrency, ZName, ZTimestamp, ZUuid } from "../shared/schemas";
import { isValidCidr } from "../auth/ip-allow-list";

const ZLimitMinor = z
  .number()
  .int({ message: "must be an integer number of minor units" })
  .min(0)
  .refine(Number.isSafeInteger, { message: "is beyond the exact integer range" });

export const ZGrantResource = z
  .string()
  .regex(/^(\*|personal|business:[0-9a-f-]{36}|project:[0-9a-f-]{36})$/i, {
    message: "must be business:<id>, project:<id>, personal or *",
  })
  .transform((value) => value.toLowerCase());

/** A grant's level, its over-limit answer and an agent's status: the zod enums and the CHECK constraints (server/state-columns.ts) read these. */
export const GRANT_LEVELS = ["recommend", "execute"] as const;
export const OVER_LIMIT_ACTIONS = ["approval", "deny"] as const;
export const AGENT_STATUSES = ["active", "suspended", "revoked"] as const;
/** How an agent came to be: created with a token (panel, POST /v1/agents) or approved for an assistant over OAuth (server/oauth/). */
export const AGENT_CREATED_VIA = ["token", "oauth"] as const;

export const ZGrant = z
  .object({
    scope: z.enum(SCOPES),
    resource: ZGrantResource,
    level: z.enum(GRANT_LEVELS),
    daily_limit_minor: ZLimitMinor.nullish(),
    monthly_limit_minor: ZLimitMinor.nullish(),
    currency: ZCurrency.nullish().describe("Currency of the limits; required when a limit is set."),
    over_limit: z
      .enum(OVER_LIMIT_ACTIONS)
      .default("approval")
      .describe("approval: 202, the owner decides; deny: 403 limit_exceeded."),
  })
  .refine((grant) => (grant.daily_limit_minor == null && grant.monthly_limit_minor == null) || grant.currency, {
    message: "a grant with a limit needs the limit's currency",
    path: ["currency"],
  })
  .meta({ id: "Grant" });
export type TGrantInput = z.input<typeof ZGrant>;
export type TGrantParsed = z.output<typeof ZGrant>;

export const ZGrantOut = z
  .object({
    scope: z.string(),
    resource: z.string(),
    level: z.enum(GRANT_LEVELS),
    daily_limit_minor: z.number().int().nullable(),
    monthly_limit_minor: z.number().int().nullable(),
    currency: z.string().nullable(),
    over_limit: z.enum(OVER_LIMIT_ACTIONS),
  })
  .meta({ id: "GrantRecord" });

export const ZIpRanges = z
  .array(z.string().refine(isValidCidr, { message: "must be an IP address or CIDR range" }))
  .max(50)
  .describe("Addresses or CIDR ranges the agent may call from; empty means anywhere.");

export const ZAgent = z
  .object({
    id: ZUuid,
    name: z.string(),
    status: z.enum(AGENT_STATUSES),
    grants: z.array(ZGrantOut),
    allowed_ip_ranges: z.array(z.string()),
    token_hint: z.string().nullable().describe("The first characters of the current token."),
    token_expires_at: ZTimestamp.nullable(),
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
    revoked_at: ZTimestamp.nullable(),
    created_via: z
      .enum(AGENT_CREATED_VIA)
      .describe("token: created with a token (panel or POST /v1/agents); oauth: connected by an assistant through OAuth."),
  })
  .meta({ id: "Agent" });
export type TAgent = z.infer<typeof ZAgent>;

export const ZAgentWithToken = ZAgent.extend({
  token: z.string().describe("The agent's bearer token (agt_…). Shown only in this answer."),
}).meta({ id: "AgentWithToken" });

export const ZCreateAgentInput = z
  .object({
    name: ZName,
    grants: z.array(ZGrant).max(100).default([]),
    allowed_ip_ranges: ZIpRanges.default([]),
    token_expires_at: ZTimestamp.optional().describe("When the token stops working: at most one year ahead; default 90 days."),
  })
  .meta({ id: "CreateAgentInput" });

export const ZUpdateAgentInput = z
  .object({
    name: ZName.optional(),
    status: z.enum(["active", "suspended"]).optional().describe("Suspend (403 agent_suspended) or reactivate."),
    grants: z.array(ZGrant).max(100).optional().describe("Replaces all grants."),
    allowed_ip_ranges: ZIpRanges.optional(),
  })
  .meta({ id: "UpdateAgentInput" });

export const ZRotateTokenInput = z.object({
  token_expires_at: ZTimestamp.optional().describe("When the new token stops working: at most one year ahead; default 90 days."),
});
