import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { voidEvent } from "./event-fixes";
import { voidEventMeta, ZVoidEventRequest, ZVoidEventResponse } from "./void-event.types";

export const voidEventRoute = ownerProcedure
  .meta(voidEventMeta)
  .input(ZVoidEventRequest)
  .output(ZVoidEventResponse)
  .mutation(async ({ ctx, input: { id, ...body } }) => ({ data: await voidEvent(ctx.db, callerOf(ctx), id, body) }));
