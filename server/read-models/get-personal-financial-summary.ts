import { ownerProcedure } from "../trpc/init";
import { getFinancialSummary } from "./financial-summary";
import {
  getPersonalFinancialSummaryMeta,
  ZGetPersonalFinancialSummaryRequest,
  ZGetPersonalFinancialSummaryResponse,
} from "./get-personal-financial-summary.types";
import { readOwnerDay, resolvePeriod } from "./period";

export const getPersonalFinancialSummaryRoute = ownerProcedure
  .meta(getPersonalFinancialSummaryMeta)
  .input(ZGetPersonalFinancialSummaryRequest)
  .output(ZGetPersonalFinancialSummaryResponse)
  .query(async ({ ctx, input }) => {
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    const period = resolvePeriod(input, day.today);
    return getFinancialSummary(ctx.db, day, { kind: "personal" }, { ...period, displayCurrency: input.display_currency });
  });
