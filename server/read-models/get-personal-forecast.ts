import { ownerProcedure } from "../trpc/init";
import { getForecast } from "./forecast";
import {
  getPersonalForecastMeta,
  ZGetPersonalForecastRequest,
  ZGetPersonalForecastResponse,
} from "./get-personal-forecast.types";

export const getPersonalForecastRoute = ownerProcedure
  .meta(getPersonalForecastMeta)
  .input(ZGetPersonalForecastRequest)
  .output(ZGetPersonalForecastResponse)
  .query(({ ctx, input }) =>
    getForecast(ctx.db, { ownerId: ctx.actor.ownerId, clock: ctx.clock, target: { personal: true }, query: input }),
  );
