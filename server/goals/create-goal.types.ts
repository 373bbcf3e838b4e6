import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCreateGoalInput, ZGoal } from "./goal.schema";

export const createGoalMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/goals",
    tags: ["Goals"],
    summary: "Set a goal",
    description:
      "Exactly one of business_id, project_id, personal: true (another owner's business or project: 404). name 1 to 200 " +
      "characters. Money kinds (save, revenue, spend_cap) need target_amount_minor > 0 (an exact integer) and currency, " +
      "and take no target_days; runway needs target_days 1 to 3650 and takes no amount or currency. target_date " +
      "(optional) not before today in the owner's timezone. Every wrong field is named in one 400. Created active; the " +
      "service never moves the status itself. Progress is computed on every read (see Goal.progress): save = free " +
      "capital over the next 30 days; revenue = net revenue since the goal was created (every day since, not capped at " +
      "366); spend_cap = this month's outflow (expenses + ad spend); runway = the runway's days (not burning: ratio 1; " +
      "unknown: null). Money kinds are measured in the goal's currency (the read models' display_currency); a missing " +
      "rate makes progress null. A project has no cash: its save goal counts its business's pool, its runway goal its " +
      "business's runway; revenue and spend_cap count the project's own events. Audited (goal.created).",
  },
  successStatus: 201,
};
export const ZCreateGoalRequest = ZCreateGoalInput;
export const ZCreateGoalResponse = z.object({ data: ZGoal });
