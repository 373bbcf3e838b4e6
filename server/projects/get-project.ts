import { ownerProcedure } from "../trpc/init";
import { getProjectMeta, ZGetProjectRequest, ZGetProjectResponse } from "./get-project.types";
import { getProject } from "./project-service";

export const getProjectRoute = ownerProcedure
  .meta(getProjectMeta)
  .input(ZGetProjectRequest)
  .output(ZGetProjectResponse)
  .query(async ({ ctx, input }) => ({ data: await getProject(ctx.db, ctx.actor.ownerId, input.id) }));
