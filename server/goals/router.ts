import { router } from "../trpc/init";
import { createGoalRoute } from "./create-goal";
import { deleteGoalRoute } from "./delete-goal";
import { findGoalsRoute } from "./find-goals";
import { findOwnerGoalsRoute } from "./find-owner-goals";
import { getGoalRoute } from "./get-goal";
import { proposeGoalsRoute } from "./propose-goals";
import { updateGoalRoute } from "./update-goal";

export const goalsRouter = router({
  find: findGoalsRoute,
  create: createGoalRoute,
  get: getGoalRoute,
  update: updateGoalRoute,
  delete: deleteGoalRoute,
  propose: proposeGoalsRoute,
  /** Panel only (not on /v1): every goal of the owner, since GET /v1/goals is empty by contract. */
  all: findOwnerGoalsRoute,
});
