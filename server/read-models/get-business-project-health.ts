import { ownerProcedure } from "../trpc/init";
import {
  getBusinessProjectHealthMeta,
  ZGetBusinessProjectHealthRequest,
  ZGetBusinessProjectHealthResponse,
} from "./get-business-project-health.types";
import { readOwnerDayAndBusiness, resolvePeriod } from "./period";
import { getProjectHealth } from "./project-health";

export const getBusinessProjectHealthRoute = ownerProcedure
  .meta(getBusinessProjectHealthMeta)
  .input(ZGetBusinessProjectHealthRequest)
  .output(ZGetBusinessProjectHealthResponse)
  .query(async ({ ctx, input }) => {
    const {
      day,
      checked: period,
      scope,
    } = await readOwnerDayAndBusiness(ctx.db, ctx.actor.ownerId, ctx.clock, input.id, (d) => resolvePeriod(input, d.today));
    return getProjectHealth(ctx.db, day, scope, { period, displayCurrency: input.display_currency });
  });
