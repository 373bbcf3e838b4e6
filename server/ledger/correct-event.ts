import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { correctEventMeta, ZCorrectEventRequest, ZCorrectEventResponse } from "./correct-event.types";
import { correctEvent } from "./event-fixes";

export const correctEventRoute = ownerProcedure
  .meta(correctEventMeta)
  .input(ZCorrectEventRequest)
  .output(ZCorrectEventResponse)
  .mutation(async ({ ctx, input: { id, ...body } }) => ({ data: await correctEvent(ctx.db, callerOf(ctx), id, body) }));
