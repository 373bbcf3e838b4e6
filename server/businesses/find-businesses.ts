import { ownerProcedure } from "../trpc/init";
import { findBusinesses } from "./business-service";
import { findBusinessesMeta, ZFindBusinessesRequest, ZFindBusinessesResponse } from "./find-businesses.types";

export const findBusinessesRoute = ownerProcedure
  .meta(findBusinessesMeta)
  .input(ZFindBusinessesRequest)
  .output(ZFindBusinessesResponse)
  .query(({ ctx, input }) => findBusinesses(ctx.db, ctx.actor.ownerId, input));
