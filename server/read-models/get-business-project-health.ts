import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeRead, readCaller } from "./read-access";
import {
  getBusinessProjectHealthMeta,
  ZGetBusinessProjectHealthRequest,
  ZGetBusinessProjectHealthResponse,
} from "./get-business-project-health.types";
import { readOwnerDayAndBusiness, resolvePeriod } from "./period";
import { getProjectHealth } from "./project-health";

export const getBusinessProjectHealthRoute = ownerOrAgentProcedure("finances:observe")
  .meta(getBusinessProjectHealthMeta)
  .input(ZGetBusinessProjectHealthRequest)
  .output(ZGetBusinessProjectHealthResponse)
  .query(async ({ ctx, input, path }) => {
    const {
      day,
      checked: period,
      scope,
    } = await readOwnerDayAndBusiness(ctx.db, ctx.actor.ownerId, ctx.clock, input.id, (d) => resolvePeriod(input, d.today));
    await authorizeRead(readCaller(ctx, path), "finances:observe", scope);
    return getProjectHealth(ctx.db, day, scope, { period, displayCurrency: input.display_currency });
  });
