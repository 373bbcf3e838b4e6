import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeEventRead, eventFilterResource, EVENTS_READ_SCOPE } from "./event-read-access";
import { findEventsMeta, ZFindEventsRequest, ZFindEventsResponse } from "./find-events.types";
import { findEvents } from "./ledger-service";

export const findEventsRoute = ownerOrAgentProcedure(EVENTS_READ_SCOPE)
  .meta(findEventsMeta)
  .input(ZFindEventsRequest)
  .output(ZFindEventsResponse)
  .query(async ({ ctx, input, path }) => {
    await authorizeEventRead(ctx.actor, () => eventFilterResource(ctx.db, ctx.actor.ownerId, input), {
      operation: path,
      db: () => ctx.db,
      requestId: ctx.requestId,
    });
    return findEvents(ctx.db, ctx.actor.ownerId, input);
  });
