import { router } from "../trpc/init";
import { createProjectRoute } from "./create-project";
import { findProjectsRoute } from "./find-projects";
import { getProjectRoute } from "./get-project";
import { updateProjectRoute } from "./update-project";

export const projectsRouter = router({
  find: findProjectsRoute,
  create: createProjectRoute,
  get: getProjectRoute,
  update: updateProjectRoute,
});
