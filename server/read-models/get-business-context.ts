import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeRead, readCaller } from "./read-access";
import { getBusinessContext } from "./business-context";
import { getBusinessContextMeta, ZGetBusinessContextRequest, ZGetBusinessContextResponse } from "./get-business-context.types";

export const getBusinessContextRoute = ownerOrAgentProcedure("finances:observe")
  .meta(getBusinessContextMeta)
  .input(ZGetBusinessContextRequest)
  .output(ZGetBusinessContextResponse)
  .query(({ ctx, input, path }) =>
    getBusinessContext(ctx.db, {
      authorize: (scope) => authorizeRead(readCaller(ctx, path), "finances:observe", scope),
      ownerId: ctx.actor.ownerId,
      clock: ctx.clock,
      businessId: input.id,
      displayCurrency: input.display_currency,
    }),
  );
