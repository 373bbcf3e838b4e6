import { ownerProcedure } from "../trpc/init";
import { findProjectsMeta, ZFindProjectsRequest, ZFindProjectsResponse } from "./find-projects.types";
import { findProjects } from "./project-service";

export const findProjectsRoute = ownerProcedure
  .meta(findProjectsMeta)
  .input(ZFindProjectsRequest)
  .output(ZFindProjectsResponse)
  .query(({ ctx, input: { id, ...page } }) => findProjects(ctx.db, ctx.actor.ownerId, id, page));
