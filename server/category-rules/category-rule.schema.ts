// Category rules (issue 14, additive): shapes of the rule, its inputs and the dry run.
import { z } from "zod";
import { ZStoredDate, ZText, ZTimestamp, ZUuid } from "../shared/schemas";
import { PATTERN_MAX_LENGTH, patternProblem, RULE_FIELDS, RULE_OPERATORS } from "./categorize";

/** Rules an owner may keep: each is tried on every incoming row, so the number is bounded. */
export const MAX_RULES_PER_OWNER = 100;
/** Events the dry run reads (the owner's newest); `scanned` and `truncated` say how many it saw. */
export const DRY_RUN_MAX_EVENTS = 20_000;
export const DRY_RUN_EXAMPLES = 5;

const ZField = z
  .enum(RULE_FIELDS)
  .describe("The row's text the rule looks at: description, or counterparty (payload.counterparty).");
const ZOperator = z
  .enum(RULE_OPERATORS)
  .describe(
    "contains, equals (after trimming) or regex, all case-insensitive. regex is RE2 syntax (no backreferences or lookaround), " +
      "matched in linear time on the first 1,000 characters.",
  );
const ZPattern = ZText.max(PATTERN_MAX_LENGTH).describe(`At most ${PATTERN_MAX_LENGTH} characters.`);
const ZCategory = ZText.trim().min(1, { message: "must not be empty" }).max(100);
const ZPriority = z
  .number()
  .int({ message: "must be an integer" })
  .min(0)
  .max(1_000_000)
  .describe("Lower runs first; the first matching rule wins. Default on create: after the owner's last rule.");

export const ZCategoryRule = z
  .object({
    id: ZUuid,
    field: ZField,
    operator: ZOperator,
    pattern: z.string(),
    category: z.string(),
    project_id: ZUuid.nullable().describe("Also set this project on rows of its business that have none."),
    priority: z.number().int(),
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
  })
  .meta({ id: "CategoryRule" });
export type TCategoryRule = z.infer<typeof ZCategoryRule>;

/** A refine that names `pattern` when the operator cannot use it. */
function checkPattern(value: { operator?: (typeof RULE_OPERATORS)[number]; pattern?: string }, ctx: z.RefinementCtx) {
  if (value.pattern === undefined) return;
  const problem = patternProblem(value.operator ?? "contains", value.pattern);
  if (problem) ctx.addIssue({ code: "custom", path: ["pattern"], message: problem });
}

const ZRuleFields = z.object({
  field: ZField,
  operator: ZOperator,
  pattern: ZPattern,
  category: ZCategory,
  project_id: ZUuid.nullable().optional().describe("One of the owner's projects (another owner's: 404 not_found)."),
});

export const ZCreateCategoryRuleInput = ZRuleFields.extend({ priority: ZPriority.optional() })
  .superRefine(checkPattern)
  .meta({ id: "CreateCategoryRuleInput" });
export type TCreateCategoryRuleInput = z.infer<typeof ZCreateCategoryRuleInput>;

export const ZUpdateCategoryRuleFields = ZRuleFields.partial().extend({ priority: ZPriority.optional() });
export type TUpdateCategoryRuleInput = z.infer<typeof ZUpdateCategoryRuleFields>;

export const ZDryRunCategoryRuleInput = ZRuleFields.superRefine(checkPattern).meta({
  id: "DryRunCategoryRuleInput",
  description: "A rule as it would be saved (nothing is written).",
});
export type TDryRunCategoryRuleInput = z.infer<typeof ZDryRunCategoryRuleInput>;

export const ZCategoryRuleDryRun = z
  .object({
    matched: z.number().int().describe("Existing events (confirmed, of the events read) whose field the rule matches."),
    would_change: z
      .number()
      .int()
      .describe("Of those, events whose category (or, with project_id, project) the rule would change."),
    scanned: z.number().int().describe(`Events read: the owner's newest confirmed events, at most ${DRY_RUN_MAX_EVENTS}.`),
    truncated: z.boolean().describe("true when the owner has more events than were read."),
    examples: z
      .array(
        z.object({
          event_id: ZUuid,
          occurred_on: ZStoredDate,
          description: z.string().nullable(),
          counterparty: z.string().nullable(),
          category_before: z.string().nullable(),
          category_after: z.string(),
        }),
      )
      .describe(`Up to ${DRY_RUN_EXAMPLES} of the events that would change, newest first.`),
  })
  .meta({ id: "CategoryRuleDryRun" });
export type TCategoryRuleDryRun = z.infer<typeof ZCategoryRuleDryRun>;
