import { ZListOf } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZGoal, ZGoalListQuery } from "./goal.schema";

export const findGoalsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/goals",
    tags: ["Goals"],
    summary: "List goals (always empty in this version)",
    description:
      "The contract pins this list as always empty in the current version: it answers exactly { data: [], page: " +
      "{ next_cursor: null, has_more: false } } whatever goals exist. Read a goal with GET /v1/goals/{id} (its id comes " +
      "from POST /v1/goals). The query is still validated: at most one of business_id, project_id, personal=true (more " +
      "answers 400); an unknown or another owner's business or project answers 404; limit 1 to 200; a cursor this API " +
      "did not issue answers 400.",
  },
};
export const ZFindGoalsRequest = ZGoalListQuery;
export const ZFindGoalsResponse = ZListOf(ZGoal);
