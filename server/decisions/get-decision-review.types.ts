import { z } from "zod";
import { AMOUNT_RANGE_RULE } from "../fx/base-amounts";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZDecisionOutcome } from "./decision.schema";

export const OUTCOME_RULES =
  "metric = expected.metric, else net (the financial summary's values over the decision's scope; revenue = net revenue); " +
  "w = expected.window_days, else 30; window [occurred_on + 1, occurred_on + w], baseline [occurred_on − w + 1, " +
  "occurred_on]; delta = actual − baseline; expected_delta = expected.delta_minor in the base currency at the current " +
  "rate; variance = delta − expected_delta. pending while window.to ≥ today; then inconclusive when the metric's coverage " +
  "(revenue; expenses for outflow; ads for ad_spend; net: the worse of revenue and expenses) is missing, else measured. " +
  "The first read that finds an outcome measured or inconclusive stores it (measured_at) and every later read answers " +
  "the stored outcome. verdict (measured, with an expectation): as_expected when |variance| × 10 ≤ |expected_delta| " +
  "(expected 0: variance 0); else better when variance > 0 for revenue and net or < 0 for outflow and ad_spend, " +
  "otherwise worse. Amounts are in base_currency. " +
  AMOUNT_RANGE_RULE;

export const getDecisionReviewMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/decisions/{id}/review",
    tags: ["Agent decisions"],
    summary: "A decision's outcome",
    description:
      "The DecisionOutcome of one decision, for the owner or the agent that recorded it: another agent of the owner " +
      "answers 403 scope_denied (details.required own_record, audited); an unknown decision or another owner's 404. " +
      OUTCOME_RULES,
  },
  experimental: true,
};
export const ZGetDecisionReviewRequest = ZIdParam;
export const ZGetDecisionReviewResponse = z.object({ data: ZDecisionOutcome });
