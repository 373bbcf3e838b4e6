import { ownerProcedure } from "../trpc/init";
import {
  getBusinessProjectHealthMeta,
  ZGetBusinessProjectHealthRequest,
  ZGetBusinessProjectHealthResponse,
} from "./get-business-project-health.types";
import { readOwnerDay, resolvePeriod } from "./period";
import { getProjectHealth } from "./project-health";
import { resolveBusinessScope } from "./scope";

export const getBusinessProjectHealthRoute = ownerProcedure
  .meta(getBusinessProjectHealthMeta)
  .input(ZGetBusinessProjectHealthRequest)
  .output(ZGetBusinessProjectHealthResponse)
  .query(async ({ ctx, input }) => {
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    const period = resolvePeriod(input, day.today);
    const scope = await resolveBusinessScope(ctx.db, ctx.actor.ownerId, input.id);
    return getProjectHealth(ctx.db, day, scope, { period, displayCurrency: input.display_currency });
  });
