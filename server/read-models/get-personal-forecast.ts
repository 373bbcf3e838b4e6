import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeRead, readCaller } from "./read-access";
import { getForecast } from "./forecast";
import {
  getPersonalForecastMeta,
  ZGetPersonalForecastRequest,
  ZGetPersonalForecastResponse,
} from "./get-personal-forecast.types";

export const getPersonalForecastRoute = ownerOrAgentProcedure("forecast:observe")
  .meta(getPersonalForecastMeta)
  .input(ZGetPersonalForecastRequest)
  .output(ZGetPersonalForecastResponse)
  .query(({ ctx, input, path }) =>
    getForecast(ctx.db, {
      authorize: (scope) => authorizeRead(readCaller(ctx, path), "forecast:observe", scope),
      ownerId: ctx.actor.ownerId,
      clock: ctx.clock,
      target: { personal: true },
      query: input,
    }),
  );
