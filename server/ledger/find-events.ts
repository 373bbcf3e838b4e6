import { ownerProcedure } from "../trpc/init";
import { findEventsMeta, ZFindEventsRequest, ZFindEventsResponse } from "./find-events.types";
import { findEvents } from "./ledger-service";

export const findEventsRoute = ownerProcedure
  .meta(findEventsMeta)
  .input(ZFindEventsRequest)
  .output(ZFindEventsResponse)
  .query(({ ctx, input }) => findEvents(ctx.db, ctx.actor.ownerId, input));
