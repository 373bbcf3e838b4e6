import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZGoalProposal, ZGoalProposalsInput } from "./goal.schema";

export const proposeGoalsMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/goal-proposals",
    tags: ["Goals"],
    summary: "Propose goals for a scope",
    description:
      "Exactly one of business_id, project_id, personal: true (another owner's: 404). Computed from the scope's financial " +
      "summary of the last 30 days, stored nowhere (200, not audited); accepting one is posting it to POST /v1/goals. " +
      "In this order, each only when its condition holds: save when the monthly net burn (90 days) > 0, target 3 × that, " +
      "date today + 90; spend_cap when the 30-day outflow > 0, target that outflow, date the end of next month; revenue " +
      "when the 30-day net revenue > 0, target divideHalfEven(net revenue × 110, 100), date today + 30; runway when the " +
      "runway is finite and under 180 days, target_days 180, date today + 90. Amounts in the owner's base currency. A " +
      "project's runway is its business's (a project has no cash).",
  },
  planExpiry: "exempt",
};
export const ZProposeGoalsRequest = ZGoalProposalsInput;
export const ZProposeGoalsResponse = z.object({ data: z.object({ proposals: z.array(ZGoalProposal) }) });
