import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeRead, readCaller } from "./read-access";
import { getFreeCapital } from "./free-capital";
import { getFreeCapitalMeta, ZGetFreeCapitalRequest, ZGetFreeCapitalResponse } from "./get-free-capital.types";

export const getFreeCapitalRoute = ownerOrAgentProcedure("forecast:observe")
  .meta(getFreeCapitalMeta)
  .input(ZGetFreeCapitalRequest)
  .output(ZGetFreeCapitalResponse)
  .query(({ ctx, input, path }) =>
    getFreeCapital(ctx.db, {
      authorize: (scope) => authorizeRead(readCaller(ctx, path), "forecast:observe", scope),
      ownerId: ctx.actor.ownerId,
      clock: ctx.clock,
      query: input,
    }),
  );
