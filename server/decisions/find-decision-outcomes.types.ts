import { ZListOf } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZDecisionOutcome, ZFindDecisionOutcomesQuery } from "./decision.schema";
import { OUTCOME_RULES } from "./get-decision-review.types";

export const findDecisionOutcomesMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/decision-outcomes",
    tags: ["Agent decisions"],
    summary: "List decisions' outcomes",
    description:
      "The outcome of each decision whose occurred_on is in [from, to], newest decision first (created_at, then id, " +
      "descending). from and to are inclusive days; default [today − 29, today] in the owner's timezone; only from → " +
      "to = today; only to → from = to − 29; from after to, or more than 366 days, answers 400 naming from. Filters: " +
      "business_id (its projects' decisions included), project_id, personal, agent_id. " +
      OUTCOME_RULES,
  },
};
export const ZFindDecisionOutcomesRequest = ZFindDecisionOutcomesQuery;
export const ZFindDecisionOutcomesResponse = ZListOf(ZDecisionOutcome);
