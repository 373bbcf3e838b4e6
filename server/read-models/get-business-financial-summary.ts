import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeRead, readCaller } from "./read-access";
import { getFinancialSummary } from "./financial-summary";
import {
  getBusinessFinancialSummaryMeta,
  ZGetBusinessFinancialSummaryRequest,
  ZGetBusinessFinancialSummaryResponse,
} from "./get-business-financial-summary.types";
import { readOwnerDayAndBusiness, resolvePeriod } from "./period";

export const getBusinessFinancialSummaryRoute = ownerOrAgentProcedure("finances:observe")
  .meta(getBusinessFinancialSummaryMeta)
  .input(ZGetBusinessFinancialSummaryRequest)
  .output(ZGetBusinessFinancialSummaryResponse)
  .query(async ({ ctx, input, path }) => {
    const {
      day,
      checked: period,
      scope,
    } = await readOwnerDayAndBusiness(ctx.db, ctx.actor.ownerId, ctx.clock, input.id, (d) => resolvePeriod(input, d.today));
    await authorizeRead(readCaller(ctx, path), "finances:observe", scope);
    return getFinancialSummary(ctx.db, day, scope, { ...period, displayCurrency: input.display_currency });
  });
