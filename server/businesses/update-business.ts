import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { updateBusiness } from "./business-service";
import { updateBusinessMeta, ZUpdateBusinessRequest, ZUpdateBusinessResponse } from "./update-business.types";

export const updateBusinessRoute = ownerProcedure
  .meta(updateBusinessMeta)
  .input(ZUpdateBusinessRequest)
  .output(ZUpdateBusinessResponse)
  .mutation(async ({ ctx, input: { id, ...patch } }) => ({
    data: await updateBusiness(ctx.db, callerOf(ctx), id, patch),
  }));
