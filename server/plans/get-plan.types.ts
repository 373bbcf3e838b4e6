import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { PLAN_LIMITS_DESCRIPTION, ZPlan } from "./plan.schema";

export const getPlanMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/plan",
    tags: ["Plan"],
    summary: "The owner's plan, its limits and usage",
    description:
      "The plan (free, pro, business), its status (active, trialing, expired), the trial's end, the limits and what is " +
      "used of each, the plans available (each with a 14-day trial, no price) and billing (checkout not available: no " +
      "payment provider in this version). New owners start on free, active. A trial past its end is stored as expired " +
      `at this read (and by the hourly plan-expiry job). ${PLAN_LIMITS_DESCRIPTION} Creates past a limit answer 403 ` +
      "plan_limit_exceeded with details { limit, used, allowed, plan }; writes of an expired plan answer 403 plan_expired.",
  },
};
export const ZGetPlanRequest = z.object({});
export const ZGetPlanResponse = z.object({ data: ZPlan });
