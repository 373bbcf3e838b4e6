import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { updateProject } from "./project-service";
import { updateProjectMeta, ZUpdateProjectRequest, ZUpdateProjectResponse } from "./update-project.types";

export const updateProjectRoute = ownerProcedure
  .meta(updateProjectMeta)
  .input(ZUpdateProjectRequest)
  .output(ZUpdateProjectResponse)
  .mutation(async ({ ctx, input: { id, ...patch } }) => ({ data: await updateProject(ctx.db, callerOf(ctx), id, patch) }));
