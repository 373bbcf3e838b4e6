import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeRead, readCaller } from "./read-access";
import { getForecast } from "./forecast";
import {
  getBusinessForecastMeta,
  ZGetBusinessForecastRequest,
  ZGetBusinessForecastResponse,
} from "./get-business-forecast.types";

export const getBusinessForecastRoute = ownerOrAgentProcedure("forecast:observe")
  .meta(getBusinessForecastMeta)
  .input(ZGetBusinessForecastRequest)
  .output(ZGetBusinessForecastResponse)
  .query(({ ctx, input: { id, ...query }, path }) =>
    getForecast(ctx.db, {
      authorize: (scope) => authorizeRead(readCaller(ctx, path), "forecast:observe", scope),
      ownerId: ctx.actor.ownerId,
      clock: ctx.clock,
      target: { business_id: id },
      query,
    }),
  );
