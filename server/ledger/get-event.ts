import { ownerOrAgentProcedure, requireCallerGrant } from "../trpc/init";
import { eventResource, EVENTS_READ_SCOPE } from "./event-read-access";
import { getEventMeta, ZGetEventRequest, ZGetEventResponse } from "./get-event.types";
import { getEvent } from "./ledger-service";

export const getEventRoute = ownerOrAgentProcedure(EVENTS_READ_SCOPE)
  .meta(getEventMeta)
  .input(ZGetEventRequest)
  .output(ZGetEventResponse)
  .query(async ({ ctx, input, path }) => ({
    data: await getEvent(ctx.db, ctx.actor.ownerId, input.id, (row) =>
      requireCallerGrant(ctx, path, EVENTS_READ_SCOPE, eventResource(row)),
    ),
  }));
