import { ownerProcedure } from "../trpc/init";
import { getFinancialSummary } from "./financial-summary";
import {
  getBusinessFinancialSummaryMeta,
  ZGetBusinessFinancialSummaryRequest,
  ZGetBusinessFinancialSummaryResponse,
} from "./get-business-financial-summary.types";
import { readOwnerDay, resolvePeriod } from "./period";
import { resolveBusinessScope } from "./scope";

export const getBusinessFinancialSummaryRoute = ownerProcedure
  .meta(getBusinessFinancialSummaryMeta)
  .input(ZGetBusinessFinancialSummaryRequest)
  .output(ZGetBusinessFinancialSummaryResponse)
  .query(async ({ ctx, input }) => {
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    const period = resolvePeriod(input, day.today);
    const scope = await resolveBusinessScope(ctx.db, ctx.actor.ownerId, input.id);
    return getFinancialSummary(ctx.db, day, scope, { ...period, displayCurrency: input.display_currency });
  });
