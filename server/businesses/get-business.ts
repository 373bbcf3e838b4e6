import { ownerProcedure } from "../trpc/init";
import { getBusiness } from "./business-service";
import { getBusinessMeta, ZGetBusinessRequest, ZGetBusinessResponse } from "./get-business.types";

export const getBusinessRoute = ownerProcedure
  .meta(getBusinessMeta)
  .input(ZGetBusinessRequest)
  .output(ZGetBusinessResponse)
  .query(async ({ ctx, input }) => ({ data: await getBusiness(ctx.db, ctx.actor.ownerId, input.id) }));
