import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZGoal } from "./goal.schema";

export const getGoalMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/goals/{id}",
    tags: ["Goals"],
    summary: "Get a goal with its progress",
    description:
      "The goal and its progress, computed now from the read models (GET /v1/goals always answers an empty list in this " +
      "version, so goals are read one by one here). Another owner's goal: 404 not_found.",
  },
};
export const ZGetGoalRequest = ZIdParam;
export const ZGetGoalResponse = z.object({ data: ZGoal });
