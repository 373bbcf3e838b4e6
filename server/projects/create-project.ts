import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { createProjectMeta, ZCreateProjectRequest, ZCreateProjectResponse } from "./create-project.types";
import { createProject } from "./project-service";

export const createProjectRoute = ownerProcedure
  .meta(createProjectMeta)
  .input(ZCreateProjectRequest)
  .output(ZCreateProjectResponse)
  .mutation(async ({ ctx, input: { id, ...body } }) => ({ data: await createProject(ctx.db, callerOf(ctx), id, body) }));
