import { ownerOrAgentProcedure } from "../trpc/init";
import { getFxRates } from "./fx-service";
import { getFxRatesMeta, ZGetFxRatesRequest, ZGetFxRatesResponse } from "./get-fx-rates.types";

export const getFxRatesRoute = ownerOrAgentProcedure("finances:observe")
  .meta(getFxRatesMeta)
  .input(ZGetFxRatesRequest)
  .output(ZGetFxRatesResponse)
  .query(async ({ ctx, input }) => ({
    data: await getFxRates(ctx.db, ctx.actor.ownerId, { date: input.date, base: input.base, quotes: input.quotes?.split(",") }),
  }));
