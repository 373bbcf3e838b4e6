import { ownerProcedure } from "../trpc/init";
import { getForecast } from "./forecast";
import { getForecastMeta, ZGetForecastRequest, ZGetForecastResponse } from "./get-forecast.types";

export const getForecastRoute = ownerProcedure
  .meta(getForecastMeta)
  .input(ZGetForecastRequest)
  .output(ZGetForecastResponse)
  .query(({ ctx, input }) =>
    getForecast(ctx.db, { ownerId: ctx.actor.ownerId, clock: ctx.clock, target: { owner: true }, query: input }),
  );
