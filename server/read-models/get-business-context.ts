import { ownerProcedure } from "../trpc/init";
import { getBusinessContext } from "./business-context";
import { getBusinessContextMeta, ZGetBusinessContextRequest, ZGetBusinessContextResponse } from "./get-business-context.types";

export const getBusinessContextRoute = ownerProcedure
  .meta(getBusinessContextMeta)
  .input(ZGetBusinessContextRequest)
  .output(ZGetBusinessContextResponse)
  .query(({ ctx, input }) =>
    getBusinessContext(ctx.db, {
      ownerId: ctx.actor.ownerId,
      clock: ctx.clock,
      businessId: input.id,
      displayCurrency: input.display_currency,
    }),
  );
