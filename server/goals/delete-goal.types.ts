import { z } from "zod";
import { ZIdParam, ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";

export const deleteGoalMeta: TProcedureMeta = {
  openapi: {
    method: "DELETE",
    path: "/v1/goals/{id}",
    tags: ["Goals"],
    summary: "Delete a goal",
    description:
      "Removes the goal for good: 200 { data: { id, deleted: true } }. The same Idempotency-Key replays that answer; a new " +
      "key answers 404 not_found, as does another owner's goal. Audited (goal.deleted, with what the goal aimed at).",
  },
};
export const ZDeleteGoalRequest = ZIdParam;
export const ZDeleteGoalResponse = z.object({ data: z.object({ id: ZUuid, deleted: z.literal(true) }) });
