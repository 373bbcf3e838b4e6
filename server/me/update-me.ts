import { ownerProcedure } from "../trpc/init";
import { updateMe } from "./me-service";
import { updateMeMeta, ZUpdateMeRequest, ZUpdateMeResponse } from "./update-me.types";

export const updateMeRoute = ownerProcedure
  .meta(updateMeMeta)
  .input(ZUpdateMeRequest)
  .output(ZUpdateMeResponse)
  .mutation(async ({ ctx, input }) => ({ data: await updateMe(ctx.db, ctx.actor, ctx.requestId, input) }));
