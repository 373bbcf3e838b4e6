import type { TProcedureMeta } from "../trpc/meta";
import { FORECAST_RULES, ZForecastQuery, ZForecastResponse } from "./forecast.schema";

export const getPersonalForecastMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/personal/forecast",
    tags: ["Read models"],
    summary: "Forecast the owner's personal balance",
    description:
      "The owner's personal cash, commitments and run rate (records with personal: true), day by day. Decided: it takes " +
      "the business forecast's parameters. " +
      FORECAST_RULES,
  },
};
export const ZGetPersonalForecastRequest = ZForecastQuery;
export const ZGetPersonalForecastResponse = ZForecastResponse;
