// GET /v1/agents/me (pinned-wave2 §3.4): who the caller is here, what it may do and with what
// limits left, its passport, and the contract version; or the same as prompt-ready markdown.
import { z } from "zod";
import { ZActorRef } from "../me/me.schema";
import { ZPassport } from "../passports/passport.schema";
import { ZCurrency, ZStoredDate, ZTimestamp, ZUuid } from "../shared/schemas";
import { ZAgent, ZGrantOut } from "./agent.schema";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `?resource`: `business:<id>`, `project:<id>`, `personal` or `*` (ids are UUIDs; case-insensitive). */
export const ZResourceQuery = z
  .string()
  .transform((value) => value.trim().toLowerCase())
  .refine(
    (value) => {
      if (value === "*" || value === "personal") return true;
      const match = /^(business|project):(.+)$/.exec(value);
      return match !== null && UUID.test(match[2]!);
    },
    { message: "must be business:<id>, project:<id>, personal or *" },
  );

export const ZAgentMeRequest = z.object({
  resource: ZResourceQuery.optional().describe(
    "Keep, per scope, only the most specific grant covering this resource (project ⊂ its business ⊂ *; personal ⊂ *; " +
      "the owner as a whole: * only). Unknown or another owner's business or project: 404.",
  ),
  format: z
    .enum(["json", "markdown"], { message: "must be json or markdown" })
    .default("json")
    .describe("markdown: data is { format, markdown }, a prompt-ready text; json (default): the structured answer."),
});

export const ZGrantUsage = z
  .object({
    period_start: ZStoredDate.describe("The UTC day (today) or the first day of the UTC month (this_month) counted."),
    resets_at: ZTimestamp.describe("When the counter starts again at zero."),
    limit_minor: z.number().int(),
    used_minor: z.number().int().describe("Spent against the limit in the period, in the grant's currency."),
    left_minor: z.number().int().describe("limit_minor − used_minor, never below 0."),
  })
  .meta({ id: "GrantUsage" });
export type TGrantUsage = z.infer<typeof ZGrantUsage>;

export const ZGrantWithUsage = ZGrantOut.extend({
  today: ZGrantUsage.nullable().describe("The daily limit's use; null when the grant has no daily limit (nothing is counted)."),
  this_month: ZGrantUsage.nullable().describe("The monthly limit's use; null when the grant has no monthly limit."),
}).meta({ id: "GrantWithUsage" });
export type TGrantWithUsage = z.infer<typeof ZGrantWithUsage>;

const ZContractVersion = z.string().describe("The contract version this server speaks (as X-Service-Contract).");
const ZResourceEcho = z.string().nullable().describe("The ?resource asked for (lower case); null without one.");

export const ZAgentSelf = z
  .object({
    actor: ZActorRef,
    access: z.literal("grants").describe("An agent may do what its grants cover, nothing more."),
    agent: ZAgent,
    passport: ZPassport,
    grants: z.array(ZGrantWithUsage),
    resource: ZResourceEcho,
    owner: z.object({ id: ZUuid, base_currency: ZCurrency, timezone: z.string(), plan: z.string() }),
    contract_version: ZContractVersion,
  })
  .meta({ id: "AgentsMeAgent" });
export type TAgentSelf = z.infer<typeof ZAgentSelf>;

export const ZOwnerSelf = z
  .object({
    actor: ZActorRef,
    access: z.literal("all").describe("The owner may call every operation."),
    agent: z.null(),
    passport: z.null(),
    grants: z.null(),
    resource: ZResourceEcho,
    contract_version: ZContractVersion,
  })
  .meta({ id: "AgentsMeOwner" });
export type TOwnerSelf = z.infer<typeof ZOwnerSelf>;

export const ZSelfMarkdown = z
  .object({
    format: z.literal("markdown"),
    markdown: z.string().describe("`# <name>`, `## Passport`, `## Grants`: the same facts as the JSON answer, for a prompt."),
  })
  .meta({ id: "AgentsMeMarkdown" });
export type TSelfMarkdown = z.infer<typeof ZSelfMarkdown>;

export const ZAgentMeResponse = z.object({ data: z.union([ZAgentSelf, ZOwnerSelf, ZSelfMarkdown]) });
