// Passports and passport templates (pinned-wave2 §3.4): what an agent declares it is for. A
// passport describes; grants alone enforce, so nothing here changes what an agent may do.
import { z } from "zod";
import { PASSPORT_LIMITS } from "./passport-limits";
import { SCOPES } from "../auth/scopes";
import { ZAmountMinor, ZCurrency, ZText, ZTimestamp, ZUuid, zStoredMinor } from "../shared/schemas";

export { PASSPORT_LIMITS };

const line = (max: number) =>
  ZText.trim()
    .min(1, { message: "must not be empty" })
    .max(max, { message: `must be at most ${max} characters` });

const ZSpendMinor = ZAmountMinor.min(0, { message: "must not be negative" });

/** Editable constraints; every field may be omitted (defaults: no spend cap, no businesses, no notes). */
const ZConstraintsInput = z
  .object({
    max_daily_spend_minor: ZSpendMinor.nullish().describe(
      "The most the agent means to spend a day, in `currency` (minor units). Descriptive: a grant's daily limit enforces.",
    ),
    currency: ZCurrency.nullish().describe("Currency of max_daily_spend_minor; required with it."),
    businesses: z
      .array(ZUuid)
      .max(PASSPORT_LIMITS.businesses, { message: `at most ${PASSPORT_LIMITS.businesses} businesses` })
      .optional()
      .describe("The owner's businesses the agent works on (another owner's or unknown: 404). Duplicates are kept once."),
    notes: ZText.trim()
      .max(PASSPORT_LIMITS.notes, { message: `must be at most ${PASSPORT_LIMITS.notes} characters` })
      .nullish(),
  })
  // Runs even when a field failed, so the form shows every problem at once.
  .superRefine(
    (value, ctx) => {
      if (typeof value !== "object" || value === null) return;
      if (value.max_daily_spend_minor != null && value.currency == null) {
        ctx.addIssue({ code: "custom", path: ["currency"], message: "a spend limit needs its currency" });
      }
    },
    { when: () => true },
  );

/** The fields PUT takes and a template's overrides replace; each omitted one takes its default. */
export const ZPassportFields = z
  .object({
    purpose: ZText.trim()
      .max(PASSPORT_LIMITS.purpose, { message: `must be at most ${PASSPORT_LIMITS.purpose} characters` })
      .optional()
      .describe("What the agent is for, in a sentence or two (≤ 500 characters)."),
    responsibilities: z
      .array(line(PASSPORT_LIMITS.responsibility))
      .max(PASSPORT_LIMITS.responsibilities, { message: `at most ${PASSPORT_LIMITS.responsibilities} responsibilities` })
      .optional()
      .describe("What it looks after (≤ 20, each ≤ 200 characters)."),
    allowed_actions: z
      .array(line(PASSPORT_LIMITS.allowedAction))
      .max(PASSPORT_LIMITS.allowedActions, { message: `at most ${PASSPORT_LIMITS.allowedActions} actions` })
      .optional()
      .describe("What it may do, in the owner's words (≤ 50, each ≤ 100 characters)."),
    constraints: ZConstraintsInput.optional(),
    escalation: ZText.trim()
      .max(PASSPORT_LIMITS.escalation, { message: `must be at most ${PASSPORT_LIMITS.escalation} characters` })
      .optional()
      .describe("When and how the agent hands over to the owner, and whom to contact (≤ 1000 characters)."),
  })
  .meta({ id: "PassportInput" });
export type TPassportFields = z.infer<typeof ZPassportFields>;

const ZConstraints = z.object({
  max_daily_spend_minor: zStoredMinor("The most the agent means to spend a day, in currency; null: none declared."),
  currency: z.string().nullable(),
  businesses: z.array(ZUuid),
  notes: z.string().nullable(),
});

/** A passport's content: what a template fills in and an agent's passport holds. */
export const ZPassportContent = z
  .object({
    purpose: z.string(),
    responsibilities: z.array(z.string()),
    allowed_actions: z.array(z.string()),
    constraints: ZConstraints,
    escalation: z.string(),
  })
  .meta({ id: "PassportContent" });
export type TPassportContent = z.infer<typeof ZPassportContent>;

export const ZPassport = ZPassportContent.extend({
  agent_id: ZUuid,
  version: z.number().int().describe("0 = never set (every field its default); each PUT or from-template adds 1."),
  template_id: z.string().nullable().describe("The template last applied; null once the passport is set by PUT."),
  updated_at: ZTimestamp.nullable().describe("null while version is 0."),
}).meta({ id: "Passport" });
export type TPassport = z.infer<typeof ZPassport>;

/** A grant a template suggests: a Grant without its resource (the owner picks where it applies). */
export const ZSuggestedGrant = z
  .object({
    scope: z.enum(SCOPES),
    level: z.enum(["recommend", "execute"]),
    daily_limit_minor: z.number().int().nullable(),
    monthly_limit_minor: z.number().int().nullable(),
    currency: z.string().nullable(),
    over_limit: z.enum(["approval", "deny"]),
  })
  .meta({ id: "SuggestedGrant" });
export type TSuggestedGrant = z.infer<typeof ZSuggestedGrant>;

export const ZPassportTemplate = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    passport: ZPassportContent,
    suggested_grants: z.array(ZSuggestedGrant),
  })
  .meta({ id: "PassportTemplate" });
export type TPassportTemplate = z.infer<typeof ZPassportTemplate>;
