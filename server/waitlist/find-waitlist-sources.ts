import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import {
  findWaitlistSourcesMeta,
  ZFindWaitlistSourcesRequest,
  ZFindWaitlistSourcesResponse,
} from "./find-waitlist-sources.types";
import { countWaitlistBySource } from "./waitlist-service";

export const findWaitlistSourcesRoute = ownerProcedure
  .meta(findWaitlistSourcesMeta)
  .input(ZFindWaitlistSourcesRequest)
  .output(ZFindWaitlistSourcesResponse)
  .query(async ({ ctx }) => ({ data: await countWaitlistBySource(ctx.db, callerOf(ctx)) }));
