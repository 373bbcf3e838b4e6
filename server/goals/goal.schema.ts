// Goals and goal proposals (pinned-wave2 §3.6): the records, their inputs and the proposal shape.
import { z } from "zod";
import { ZPageQuery } from "../shared/pagination";
import { EXACTLY_ONE_SCOPE_JSON, exactlyOneScope, ZScopeFields, ZScopeOut } from "../shared/scope";
import {
  ZAmountMinor,
  ZCurrency,
  ZDate,
  ZName,
  ZQueryBoolean,
  ZStoredDate,
  ZTimestamp,
  ZUuid,
  zStoredMinor,
} from "../shared/schemas";
import { ZMinor, ZRatio } from "../read-models/read-model.schema";

export const GOAL_KINDS = ["save", "revenue", "spend_cap", "runway"] as const;
export const ZGoalKind = z.enum(GOAL_KINDS);
export type TGoalKind = z.infer<typeof ZGoalKind>;

/** The kinds whose target is an amount of money (target_amount_minor in `currency`). */
export const MONEY_GOAL_KINDS: readonly TGoalKind[] = ["save", "revenue", "spend_cap"];
export const isMoneyGoalKind = (kind: TGoalKind): boolean => MONEY_GOAL_KINDS.includes(kind);

export const GOAL_STATUSES = ["active", "achieved", "abandoned"] as const;
export const ZGoalStatus = z.enum(GOAL_STATUSES);
export type TGoalStatus = z.infer<typeof ZGoalStatus>;

export const MIN_TARGET_DAYS = 1;
export const MAX_TARGET_DAYS = 3650;

const ZTargetAmount = ZAmountMinor.min(1, { message: "must be a positive number of minor units" });
const ZTargetDays = z
  .number()
  .int({ message: "must be an integer number of days" })
  .min(MIN_TARGET_DAYS, { message: `must be at least ${MIN_TARGET_DAYS}` })
  .max(MAX_TARGET_DAYS, { message: `must be at most ${MAX_TARGET_DAYS}` });

export const ZGoalProgress = z
  .object({
    current_minor: ZMinor.nullable().describe(
      "Money kinds, in the goal's currency: save = free capital over the next 30 days; revenue = net revenue since the goal " +
        "was created; spend_cap = this month's outflow. null for runway, and without cash (save).",
    ),
    current_days: z
      .number()
      .int()
      .nullable()
      .describe("runway: the runway's days when it is finite; null when not burning or unknown, and for money kinds."),
    ratio: ZRatio.describe(
      "current / target, at most 4 decimals (may exceed 1, or be negative for save). runway not burning → 1; unknown → null.",
    ),
    as_of: ZTimestamp.describe("When the progress was computed."),
  })
  .meta({ id: "GoalProgress" });
export type TGoalProgress = z.infer<typeof ZGoalProgress>;

export const ZGoal = z
  .object({
    id: ZUuid,
    ...ZScopeOut.shape,
    kind: ZGoalKind,
    name: z.string(),
    target_amount_minor: zStoredMinor("Money kinds: the target, in currency; null for runway."),
    currency: ZCurrency.nullable().describe("Money kinds: the target's currency; null for runway."),
    target_days: z.number().int().nullable().describe("runway: the days of runway to reach; null for money kinds."),
    target_date: ZStoredDate.nullable().describe("When the goal should be reached; null when none was set."),
    status: ZGoalStatus.describe("Moves only when the owner moves it: active ↔ achieved, active ↔ abandoned."),
    progress: ZGoalProgress.nullable().describe(
      "Computed on read from the read models; null when a rate the conversion needs is missing (fx_unavailable, " +
        "currency_unsupported) or the figure is beyond the exact integer range (amount_out_of_range).",
    ),
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
  })
  .meta({ id: "Goal" });
export type TGoal = z.infer<typeof ZGoal>;

type TIssueCtx = z.RefinementCtx;

/** The target fields a kind needs, and those it must not have. */
function kindTargets(
  value: { kind: TGoalKind; target_amount_minor?: number | null; currency?: string | null; target_days?: number | null },
  ctx: TIssueCtx,
): void {
  // An unknown kind has its own issue already; what it would need is unknown.
  if (!GOAL_KINDS.includes(value.kind)) return;
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (isMoneyGoalKind(value.kind)) {
    if (value.target_amount_minor == null) issue("target_amount_minor", `is required for a ${value.kind} goal`);
    if (value.currency == null) issue("currency", `is required for a ${value.kind} goal`);
    if (value.target_days != null) issue("target_days", "is only for runway goals");
  } else {
    if (value.target_days == null) issue("target_days", "is required for a runway goal");
    if (value.target_amount_minor != null) issue("target_amount_minor", "is only for save, revenue and spend_cap goals");
    if (value.currency != null) issue("currency", "is only for save, revenue and spend_cap goals");
  }
}

export const ZCreateGoalInput = ZScopeFields.extend({
  kind: ZGoalKind.describe(
    "save: free capital (30 days) to reach; revenue: net revenue since creation to reach; spend_cap: this month's outflow " +
      "to stay under; runway: days of runway to reach.",
  ),
  name: ZName,
  target_amount_minor: ZTargetAmount.nullish().describe("Money kinds: required, > 0, in currency."),
  currency: ZCurrency.nullish().describe("Money kinds: required."),
  target_days: ZTargetDays.nullish().describe(`runway: required, ${MIN_TARGET_DAYS} to ${MAX_TARGET_DAYS}.`),
  target_date: ZDate.nullish().describe("Optional; not before today in the owner's timezone."),
})
  .superRefine(exactlyOneScope)
  .superRefine(kindTargets)
  .meta({ id: "CreateGoalInput", ...EXACTLY_ONE_SCOPE_JSON });
export type TCreateGoalInput = z.infer<typeof ZCreateGoalInput>;

const IMMUTABLE = "cannot be changed; create a new goal instead";

export const ZUpdateGoalFields = z.object({
  name: ZName.optional(),
  target_amount_minor: ZTargetAmount.optional().describe("Money kinds only."),
  currency: ZCurrency.optional().describe("Money kinds only."),
  target_days: ZTargetDays.optional().describe("runway only."),
  target_date: ZDate.nullable().optional().describe("Not before today; null removes it."),
  status: ZGoalStatus.optional().describe(
    "active ↔ achieved, active ↔ abandoned; achieved ↔ abandoned answers 409 state_conflict. The same status is no change.",
  ),
  kind: z.unknown().optional().describe(`Immutable: sending it answers 400 (it ${IMMUTABLE}).`),
  business_id: z.unknown().optional().describe("Immutable (the scope): sending it answers 400."),
  project_id: z.unknown().optional().describe("Immutable (the scope): sending it answers 400."),
  personal: z.unknown().optional().describe("Immutable (the scope): sending it answers 400."),
});

/** kind and the scope are fixed at creation: naming them in a PATCH is a 400, with the other fields' issues. */
export function noImmutableFields(value: z.infer<typeof ZUpdateGoalFields>, ctx: TIssueCtx): void {
  for (const field of ["kind", "business_id", "project_id", "personal"] as const) {
    if (value[field] !== undefined) ctx.addIssue({ code: "custom", path: [field], message: IMMUTABLE });
  }
}

export type TUpdateGoalInput = Omit<z.infer<typeof ZUpdateGoalFields>, "kind" | "business_id" | "project_id" | "personal">;

/** GET /v1/goals: at most one scope (more → 400); the list itself is always empty in this version. */
export const ZGoalListQuery = ZPageQuery.extend({
  business_id: ZUuid.optional().describe("Another owner's (or an unknown) business answers 404."),
  project_id: ZUuid.optional().describe("Another owner's (or an unknown) project answers 404."),
  personal: ZQueryBoolean.optional(),
}).superRefine((value, ctx) => {
  const given = [value.business_id !== undefined, value.project_id !== undefined, value.personal === true].filter(Boolean).length;
  if (given > 1) {
    ctx.addIssue({
      code: "custom",
      path: ["business_id"],
      message: "give at most one of business_id, project_id or personal=true",
    });
  }
});
export type TGoalListQuery = z.infer<typeof ZGoalListQuery>;

export const ZGoalProposalsInput = ZScopeFields.superRefine(exactlyOneScope).meta({
  id: "GoalProposalsInput",
  ...EXACTLY_ONE_SCOPE_JSON,
});
export type TGoalProposalsInput = z.infer<typeof ZGoalProposalsInput>;

export const ZGoalProposal = z
  .object({
    kind: ZGoalKind,
    name: z.string(),
    target_amount_minor: ZMinor.nullable().describe("Money kinds, in currency; null for runway."),
    target_days: z.number().int().nullable().describe("runway: 180; null for money kinds."),
    currency: ZCurrency.nullable().describe("Money kinds: the owner's base currency; null for runway."),
    target_date: ZStoredDate,
    rationale: z.string().describe("Why this goal, with the figures it comes from."),
  })
  .meta({ id: "GoalProposal" });
export type TGoalProposal = z.infer<typeof ZGoalProposal>;
