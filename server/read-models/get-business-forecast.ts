import { ownerProcedure } from "../trpc/init";
import { getForecast } from "./forecast";
import {
  getBusinessForecastMeta,
  ZGetBusinessForecastRequest,
  ZGetBusinessForecastResponse,
} from "./get-business-forecast.types";

export const getBusinessForecastRoute = ownerProcedure
  .meta(getBusinessForecastMeta)
  .input(ZGetBusinessForecastRequest)
  .output(ZGetBusinessForecastResponse)
  .query(({ ctx, input: { id, ...query } }) =>
    getForecast(ctx.db, { ownerId: ctx.actor.ownerId, clock: ctx.clock, target: { business_id: id }, query }),
  );
