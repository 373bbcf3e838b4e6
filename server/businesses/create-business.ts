import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { createBusiness } from "./business-service";
import { createBusinessMeta, ZCreateBusinessRequest, ZCreateBusinessResponse } from "./create-business.types";

export const createBusinessRoute = ownerProcedure
  .meta(createBusinessMeta)
  .input(ZCreateBusinessRequest)
  .output(ZCreateBusinessResponse)
  .mutation(async ({ ctx, input }) => ({ data: await createBusiness(ctx.db, callerOf(ctx), input) }));
