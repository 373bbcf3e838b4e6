import { ownerProcedure } from "../trpc/init";
import { getEventMeta, ZGetEventRequest, ZGetEventResponse } from "./get-event.types";
import { getEvent } from "./ledger-service";

export const getEventRoute = ownerProcedure
  .meta(getEventMeta)
  .input(ZGetEventRequest)
  .output(ZGetEventResponse)
  .query(async ({ ctx, input }) => ({ data: await getEvent(ctx.db, ctx.actor.ownerId, input.id) }));
