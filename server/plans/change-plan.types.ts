import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZPlan, ZPlanName } from "./plan.schema";

export const changePlanMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/plan",
    tags: ["Plan"],
    summary: "Change the owner's plan",
    description:
      "200 with the Plan. The same plan (not expired): unchanged. To free: free, active; 409 state_conflict with " +
      "details.exceeded [{ limit, used, allowed }] when the usage is over free's limits. To pro or business with the " +
      "trial never used: trialing, trial_ends_at = now + 14 days. While trialing, to the other paid plan: switched, the " +
      "same trial_ends_at (409 with details.exceeded when over its limits). The trial used and not trialing (expired " +
      "included) to a paid plan: 409 state_conflict, details { reason: checkout_unavailable } (no payment provider). " +
      "An unknown plan: 400. Audited as plan.changed { from, to, plan_status } when it changes. Allowed when the plan " +
      "has expired (the way out).",
  },
  planExpiry: "exempt",
};
export const ZChangePlanRequest = z.object({ plan: ZPlanName });
export const ZChangePlanResponse = z.object({ data: ZPlan });
