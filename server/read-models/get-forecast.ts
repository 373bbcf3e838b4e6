import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeRead, readCaller } from "./read-access";
import { getForecast } from "./forecast";
import { getForecastMeta, ZGetForecastRequest, ZGetForecastResponse } from "./get-forecast.types";

export const getForecastRoute = ownerOrAgentProcedure("forecast:observe")
  .meta(getForecastMeta)
  .input(ZGetForecastRequest)
  .output(ZGetForecastResponse)
  .query(({ ctx, input, path }) =>
    getForecast(ctx.db, {
      authorize: (scope) => authorizeRead(readCaller(ctx, path), "forecast:observe", scope),
      ownerId: ctx.actor.ownerId,
      clock: ctx.clock,
      target: { owner: true },
      query: input,
    }),
  );
