import { ownerOrAgentProcedure, requireCallerGrant } from "../trpc/init";
import { eventFilterResource, EVENTS_READ_SCOPE } from "./event-read-access";
import { findEventsMeta, ZFindEventsRequest, ZFindEventsResponse } from "./find-events.types";
import { findEvents } from "./ledger-service";

export const findEventsRoute = ownerOrAgentProcedure(EVENTS_READ_SCOPE)
  .meta(findEventsMeta)
  .input(ZFindEventsRequest)
  .output(ZFindEventsResponse)
  .query(async ({ ctx, input, path }) => {
    // pinned-wave3 §2.1: an agent's grant must cover the narrowest filter (ids resolved first: 404).
    if (ctx.actor.type === "agent") {
      await requireCallerGrant(ctx, path, EVENTS_READ_SCOPE, await eventFilterResource(ctx.db, ctx.actor.ownerId, input));
    }
    return findEvents(ctx.db, ctx.actor.ownerId, input);
  });
