import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeRead, readCaller } from "./read-access";
import { PERSONAL_SCOPE } from "./scope";
import { getFinancialSummary } from "./financial-summary";
import {
  getPersonalFinancialSummaryMeta,
  ZGetPersonalFinancialSummaryRequest,
  ZGetPersonalFinancialSummaryResponse,
} from "./get-personal-financial-summary.types";
import { readOwnerDay, resolvePeriod } from "./period";

export const getPersonalFinancialSummaryRoute = ownerOrAgentProcedure("finances:observe")
  .meta(getPersonalFinancialSummaryMeta)
  .input(ZGetPersonalFinancialSummaryRequest)
  .output(ZGetPersonalFinancialSummaryResponse)
  .query(async ({ ctx, input, path }) => {
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    const period = resolvePeriod(input, day.today);
    await authorizeRead(readCaller(ctx, path), "finances:observe", PERSONAL_SCOPE);
    return getFinancialSummary(ctx.db, day, { kind: "personal" }, { ...period, displayCurrency: input.display_currency });
  });
