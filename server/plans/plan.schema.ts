// The Plan resource and the upgrade preview (pinned-wave2 §5.2), built from the one limits table.
import { z } from "zod";
import { ZTimestamp } from "../shared/schemas";
import {
  PLAN_LIMIT_KEYS,
  PLAN_LIMIT_MEANINGS,
  PLAN_LIMITS,
  PLAN_NAMES,
  PLAN_STATUSES,
  TRIAL_DAYS,
  type TPlanLimitKey,
} from "./plan-limits";

export const ZPlanName = z.enum(PLAN_NAMES).describe("free, pro or business.");
export const ZPlanStatus = z
  .enum(PLAN_STATUSES)
  .describe("active; trialing (a 14-day trial of a paid plan); expired (the trial ended: writes answer 403 plan_expired).");

function limitsTable(): string {
  return PLAN_LIMIT_KEYS.map(
    (key) =>
      `${key} (${PLAN_LIMIT_MEANINGS[key]}): ` +
      PLAN_NAMES.map((plan) => `${plan} ${PLAN_LIMITS[plan][key] ?? "unlimited"}`).join(", "),
  ).join("; ");
}

/** The limits table, as every plan answer's description says it. */
export const PLAN_LIMITS_DESCRIPTION = `Limits (null = unlimited): ${limitsTable()}.`;

const limitShape = (of: (key: TPlanLimitKey) => z.ZodType) =>
  Object.fromEntries(PLAN_LIMIT_KEYS.map((key) => [key, of(key)])) as Record<TPlanLimitKey, z.ZodType>;

export const ZPlanLimits = z
  .object(limitShape((key) => z.number().int().nullable().describe(`${PLAN_LIMIT_MEANINGS[key]}; null = unlimited`)))
  .meta({ id: "PlanLimits", description: PLAN_LIMITS_DESCRIPTION }) as z.ZodType<Record<TPlanLimitKey, number | null>>;

export const ZPlanUsage = z
  .object(limitShape((key) => z.number().int().describe(`${PLAN_LIMIT_MEANINGS[key]}, counted now`)))
  .meta({ id: "PlanUsage" }) as z.ZodType<Record<TPlanLimitKey, number>>;

export const ZExceededLimit = z
  .object({ limit: z.enum(PLAN_LIMIT_KEYS), used: z.number().int(), allowed: z.number().int() })
  .meta({ id: "ExceededPlanLimit" });

export const ZPlan = z
  .object({
    plan: ZPlanName,
    plan_status: ZPlanStatus,
    trial_ends_at: ZTimestamp.nullable().describe("The trial's end (trialing, or expired after one); null without a trial."),
    trial_used: z.boolean().describe("A trial was started once; the next paid plan would need a checkout (not available)."),
    limits: ZPlanLimits,
    usage: ZPlanUsage,
    available_plans: z.array(
      z.object({
        plan: ZPlanName,
        name: z.string(),
        limits: ZPlanLimits,
        trial_days: z.literal(TRIAL_DAYS),
        price: z.null().describe("No prices in this version."),
      }),
    ),
    billing: z.object({ checkout: z.literal("not_available") }),
  })
  .meta({ id: "Plan", description: PLAN_LIMITS_DESCRIPTION });
export type TPlan = z.infer<typeof ZPlan>;

export const ZUpgradePreview = z
  .object({
    from: ZPlanName,
    to: ZPlanName,
    limits_before: ZPlanLimits,
    limits_after: ZPlanLimits,
    usage: ZPlanUsage,
    would_exceed: z.array(ZExceededLimit).describe("The limits of `to` the current usage is over."),
    allowed: z.boolean().describe("Whether POST /v1/plan with this plan would succeed now."),
    resulting_status: ZPlanStatus.nullable().describe("The plan_status POST /v1/plan would leave; null when not allowed."),
    trial_ends_at: ZTimestamp.nullable().describe(
      "The trial end POST /v1/plan would leave; null without a trial or when not allowed.",
    ),
    price_change: z.null(),
  })
  .meta({ id: "PlanUpgradePreview" });
export type TUpgradePreview = z.infer<typeof ZUpgradePreview>;
