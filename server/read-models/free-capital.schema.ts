// Free capital's contract (pinned-wave2 §2.6).
import { z } from "zod";
import { ZQueryBoolean, ZStoredDate, ZUuid, zQueryNumber } from "../shared/schemas";
import { MAX_FREE_CAPITAL_HORIZON_DAYS } from "./forecast-window";
import {
  ZAggregateCurrencies,
  ZCash,
  ZCommitmentItem,
  ZDisplayCurrencyQuery,
  ZFxUsedList,
  ZMinor,
  zAggregateEnvelope,
} from "./read-model.schema";

export const FREE_CAPITAL_COVERAGE = ["cash", "expenses"] as const;

export const ZFreeCapitalQuery = ZDisplayCurrencyQuery.extend({
  business_id: ZUuid.optional().describe(
    "A business: its own cash and commitments. At most one of business_id, project_id, personal.",
  ),
  project_id: ZUuid.optional().describe("A project answers its business's pool, and its own share in `project`."),
  personal: ZQueryBoolean.optional().describe("true: the owner's personal finances."),
  horizon_days: zQueryNumber()
    .int({ message: "must be an integer" })
    .min(1)
    .max(MAX_FREE_CAPITAL_HORIZON_DAYS)
    .optional()
    .describe(`Days from today, 1 to ${MAX_FREE_CAPITAL_HORIZON_DAYS} (default 30).`),
}).superRefine((value, ctx) => {
  const given = [value.business_id !== undefined, value.project_id !== undefined, value.personal === true].filter(Boolean).length;
  if (given > 1) {
    ctx.addIssue({
      code: "custom",
      path: ["business_id"],
      message: "give at most one of business_id, project_id or personal=true (none: the whole owner)",
    });
  }
});
export type TFreeCapitalQuery = z.infer<typeof ZFreeCapitalQuery>;

const ZCommitted = z.object({
  planned_minor: ZMinor.describe("Planned out events due in the window, overdue ones included."),
  subscriptions_minor: ZMinor.describe("Subscription charges in the window."),
  ad_budgets_minor: ZMinor.describe(
    "Campaigns' known daily budgets over the window's days, from their planned or applied ad budget changes.",
  ),
  total_minor: ZMinor.describe("planned_minor + subscriptions_minor + ad_budgets_minor."),
});

export const ZFreeCapital = ZAggregateCurrencies.extend({
  scope: z
    .union([
      z.object({ business_id: ZUuid }).strict(),
      z.object({ project_id: ZUuid, business_id: ZUuid }).strict(),
      z.object({ personal: z.literal(true) }).strict(),
      z.object({ owner: z.literal(true) }).strict(),
    ])
    .describe("{ business_id } | { project_id, business_id } | { personal: true } | { owner: true }."),
  horizon_days: z.number().int(),
  from: ZStoredDate.describe("Today in the owner's timezone."),
  to: ZStoredDate.describe("today + horizon_days − 1."),
  cash: ZCash,
  cash_scope: z.enum(["business", "personal", "owner"]).describe("Whose cash: a project counts its business's."),
  reserved_minor: ZMinor,
  committed: ZCommitted,
  free_capital_minor: ZMinor.nullable().describe("cash − reserved − committed.total_minor (may be negative); null without cash."),
  project: z
    .object({ project_id: ZUuid, reserved_minor: ZMinor, committed: ZCommitted })
    .nullable()
    .describe("A project's own reservations and commitments (its share of allocated subscriptions included); null otherwise."),
  items: z.array(ZCommitmentItem).describe("The out commitments counted in committed, date ascending."),
  fx_used: ZFxUsedList,
}).meta({ id: "FreeCapital" });
export type TFreeCapital = z.infer<typeof ZFreeCapital>;

export const ZFreeCapitalResponse = zAggregateEnvelope(ZFreeCapital, FREE_CAPITAL_COVERAGE);
