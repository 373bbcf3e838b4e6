// Agent decisions and their outcomes (pinned-wave2 §3.2): the body of POST /v1/agent-decisions,
// the recorded decision it answers, and the DecisionOutcome that reviews and the outcomes list show.
import { z } from "zod";
import { isCurrencyCode } from "../../lib/currencies";
import { ZPageQuery } from "../shared/pagination";
import { EXACTLY_ONE_SCOPE_JSON, exactlyOneScope, ZScopeFields, ZScopeOut } from "../shared/scope";
import { ZAmountMinor, ZCurrency, ZDate, ZQueryBoolean, ZStoredDate, ZText, ZTimestamp, ZUuid } from "../shared/schemas";
import { ZCoverageStatus } from "../read-models/read-model.schema";

/** What a decision expects to move: §2.4's values over its scope (revenue = net revenue). */
export const DECISION_METRICS = ["revenue", "outflow", "net", "ad_spend"] as const;
export type TDecisionMetric = (typeof DECISION_METRICS)[number];
export const DECISION_WINDOWS = [7, 30, 90] as const;
export const OUTCOME_STATUSES = ["pending", "inconclusive", "measured"] as const;
export type TOutcomeStatus = (typeof OUTCOME_STATUSES)[number];
export const VERDICTS = ["as_expected", "better", "worse"] as const;
export type TVerdict = (typeof VERDICTS)[number];

const ZKnownCurrency = ZCurrency.refine(isCurrencyCode, { message: "is not an ISO 4217 currency code" });

export const ZDecisionExpectation = z
  .object({
    metric: z
      .enum(DECISION_METRICS)
      .describe("revenue (net revenue), outflow, net or ad_spend, as the financial summary sums them."),
    delta_minor: ZAmountMinor.describe(
      "The change expected over the window against the baseline, signed, in minor units of currency.",
    ),
    currency: ZKnownCurrency,
    window_days: z
      .union([z.literal(7), z.literal(30), z.literal(90)], { error: "must be 7, 30 or 90" })
      .describe("The days after occurred_on the effect is measured over: 7, 30 or 90."),
  })
  .meta({ id: "DecisionExpectation" });
export type TDecisionExpectation = z.infer<typeof ZDecisionExpectation>;

export const ZDecisionRef = z
  .object({
    type: ZText.trim().min(1, { message: "must not be empty" }).max(64).describe("What it links to, e.g. ad_budget_change."),
    id: ZText.trim().min(1, { message: "must not be empty" }).max(128),
  })
  .meta({ id: "DecisionRef" });

export const ZCreateAgentDecisionInput = ZScopeFields.extend({
  agent_id: ZUuid.optional().describe(
    "The deciding agent. The owner must name one of their agents; an agent may omit it or name itself.",
  ),
  title: ZText.trim().min(1, { message: "must not be empty" }).max(200).describe("What was decided, in one line."),
  rationale: ZText.trim().max(4000).optional().describe("Why: the figures and reasoning behind it."),
  amount_minor: ZAmountMinor.min(0, { message: "must not be negative" })
    .optional()
    .describe("Money the decision moves, for the record only (nothing is committed, no limit counts it). Default 0."),
  currency: ZKnownCurrency.optional().describe("Required when amount_minor > 0; default the owner's base currency."),
  occurred_on: ZDate.optional().describe("The day it was decided: not after today in the owner's timezone (the default)."),
  expected: ZDecisionExpectation.optional().describe(
    "What the decision should change (a metric over a window), so its outcome can be reviewed (get_decision_review).",
  ),
  approval_id: ZUuid.optional().describe("An approval of the owner's the decision follows from."),
  ref: ZDecisionRef.optional().describe("What the decision is about elsewhere ({ type, id }: e.g. a campaign)."),
  reason: ZText.trim().max(2000).optional().describe("Agents: required, at least 3 characters (400 missing_reason)."),
})
  .superRefine(exactlyOneScope)
  .superRefine((value, ctx) => {
    if ((value.amount_minor ?? 0) > 0 && value.currency === undefined) {
      ctx.addIssue({ code: "custom", path: ["currency"], message: "is required when amount_minor is above 0" });
    }
  })
  .meta({ id: "CreateAgentDecisionInput", ...EXACTLY_ONE_SCOPE_JSON });
export type TCreateAgentDecisionInput = z.infer<typeof ZCreateAgentDecisionInput>;

export const ZAgentDecision = z
  .object({
    id: ZUuid,
    agent_id: ZUuid,
    ...ZScopeOut.shape,
    title: z.string(),
    rationale: z.string().nullable(),
    amount_minor: z.number().int(),
    currency: ZCurrency,
    occurred_on: ZStoredDate,
    expected: ZDecisionExpectation.nullable(),
    approval_id: ZUuid.nullable(),
    ref: z.object({ type: z.string(), id: z.string() }).nullable(),
    reason: z.string().nullable(),
    event_id: ZUuid.describe("The agent_action event recorded with the decision."),
    created_at: ZTimestamp,
  })
  .meta({ id: "AgentDecision" });
export type TAgentDecision = z.infer<typeof ZAgentDecision>;

export const ZDecisionOutcome = z
  .object({
    decision_id: ZUuid,
    agent_id: ZUuid,
    ...ZScopeOut.shape,
    title: z.string(),
    occurred_on: ZStoredDate,
    status: z
      .enum(OUTCOME_STATUSES)
      .describe(
        "pending while window.to is today or later; then inconclusive when the metric's coverage is missing, else measured. " +
          "measured and inconclusive are stored by the first read that finds them and served unchanged from then on.",
      ),
    metric: z.enum(DECISION_METRICS).describe("expected.metric, else net."),
    window: z
      .object({ from: ZStoredDate, to: ZStoredDate })
      .describe("[occurred_on + 1, occurred_on + window_days] (expected.window_days, else 30)."),
    baseline_minor: z.number().int().describe("The metric over the same number of days ending on occurred_on."),
    actual_minor: z.number().int().describe("The metric over the window (so far, while pending)."),
    delta_minor: z.number().int().describe("actual − baseline."),
    expected_delta_minor: z
      .number()
      .int()
      .nullable()
      .describe("expected.delta_minor in the base currency at the current rate (frozen once stored); null without expectation."),
    variance_minor: z.number().int().nullable().describe("delta − expected_delta; null without expectation."),
    verdict: z
      .enum(VERDICTS)
      .nullable()
      .describe(
        "measured with an expectation only: as_expected when |variance| × 10 ≤ |expected_delta| (expected 0: variance 0); else " +
          "better when variance > 0 for revenue and net, or < 0 for outflow and ad_spend; otherwise worse.",
      ),
    coverage: ZCoverageStatus.describe(
      "The metric's coverage (K9): revenue; expenses for outflow; ads; net: the worse of revenue and expenses.",
    ),
    measured_at: ZTimestamp.nullable().describe("When the outcome was stored; null while pending."),
    base_currency: ZCurrency.describe("The currency of every amount here: the owner's base currency (when stored)."),
  })
  .meta({ id: "DecisionOutcome" });
export type TDecisionOutcome = z.infer<typeof ZDecisionOutcome>;

export const ZDecisionOutcomeFilters = z.object({
  business_id: ZUuid.optional().describe("Decisions of this business, its projects' included."),
  project_id: ZUuid.optional(),
  personal: ZQueryBoolean.optional(),
  agent_id: ZUuid.optional(),
  from: ZDate.optional().describe("First occurred_on (inclusive). Default: to − 29."),
  to: ZDate.optional().describe("Last occurred_on (inclusive). Default: today in the owner's timezone."),
});
export const ZFindDecisionOutcomesQuery = ZPageQuery.extend(ZDecisionOutcomeFilters.shape);
export type TFindDecisionOutcomesQuery = z.infer<typeof ZFindDecisionOutcomesQuery>;
