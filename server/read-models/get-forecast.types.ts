import type { TProcedureMeta } from "../trpc/meta";
import { FORECAST_RULES, ZForecastQuery, ZForecastResponse } from "./forecast.schema";

export const getForecastMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/forecast",
    tags: ["Read models"],
    summary: "Forecast the whole owner's balance",
    description:
      "Every business and the personal finances together: all cash snapshots, commitments and actuals of the owner, day " +
      "by day. Decided: it takes the business forecast's parameters. " +
      FORECAST_RULES,
  },
};
export const ZGetForecastRequest = ZForecastQuery;
export const ZGetForecastResponse = ZForecastResponse;
