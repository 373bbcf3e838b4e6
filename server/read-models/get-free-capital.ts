import { ownerProcedure } from "../trpc/init";
import { getFreeCapital } from "./free-capital";
import { getFreeCapitalMeta, ZGetFreeCapitalRequest, ZGetFreeCapitalResponse } from "./get-free-capital.types";

export const getFreeCapitalRoute = ownerProcedure
  .meta(getFreeCapitalMeta)
  .input(ZGetFreeCapitalRequest)
  .output(ZGetFreeCapitalResponse)
  .query(({ ctx, input }) => getFreeCapital(ctx.db, { ownerId: ctx.actor.ownerId, clock: ctx.clock, query: input }));
