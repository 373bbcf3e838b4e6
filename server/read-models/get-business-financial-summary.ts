import { ownerProcedure } from "../trpc/init";
import { getFinancialSummary } from "./financial-summary";
import {
  getBusinessFinancialSummaryMeta,
  ZGetBusinessFinancialSummaryRequest,
  ZGetBusinessFinancialSummaryResponse,
} from "./get-business-financial-summary.types";
import { readOwnerDayAndBusiness, resolvePeriod } from "./period";

export const getBusinessFinancialSummaryRoute = ownerProcedure
  .meta(getBusinessFinancialSummaryMeta)
  .input(ZGetBusinessFinancialSummaryRequest)
  .output(ZGetBusinessFinancialSummaryResponse)
  .query(async ({ ctx, input }) => {
    const {
      day,
      checked: period,
      scope,
    } = await readOwnerDayAndBusiness(ctx.db, ctx.actor.ownerId, ctx.clock, input.id, (d) => resolvePeriod(input, d.today));
    return getFinancialSummary(ctx.db, day, scope, { ...period, displayCurrency: input.display_currency });
  });
