import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { noImmutableFields, ZGoal, ZUpdateGoalFields } from "./goal.schema";

export const updateGoalMeta: TProcedureMeta = {
  openapi: {
    method: "PATCH",
    path: "/v1/goals/{id}",
    tags: ["Goals"],
    summary: "Update a goal",
    description:
      "Changes the fields sent: name, target_amount_minor and currency (money kinds), target_days (runway), target_date " +
      "(not before today; null removes it), status. kind and the scope (business_id, project_id, personal) are immutable: " +
      "sending any of them answers 400, with the other fields' issues. A target field of the other family (target_days " +
      "on a money goal, an amount or currency on a runway goal) answers 400. Status: active ↔ achieved and active ↔ " +
      "abandoned; achieved ↔ abandoned answers 409 state_conflict (details.status: the current one); the same status is " +
      "no change. The service never moves the status itself. Another owner's goal: 404. Audited (goal.updated).",
  },
};
export const ZUpdateGoalRequest = ZIdParam.extend(ZUpdateGoalFields.shape).superRefine(noImmutableFields);
export const ZUpdateGoalResponse = z.object({ data: ZGoal });
