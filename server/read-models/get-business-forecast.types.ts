import { z } from "zod";
import { ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { FORECAST_RULES, ZForecastQuery, ZForecastResponse } from "./forecast.schema";

export const getBusinessForecastMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/businesses/{id}/forecast",
    tags: ["Read models"],
    summary: "Forecast a business's balance",
    description:
      "The business's cash, commitments and run rate, day by day (its projects included; its cash snapshots). " +
      FORECAST_RULES +
      " Another owner's business, or an unknown one, answers 404.",
  },
};
export const ZGetBusinessForecastRequest = ZForecastQuery.safeExtend({ id: ZUuid });
export const ZGetBusinessForecastResponse = ZForecastResponse;
export type TGetBusinessForecastRequest = z.infer<typeof ZGetBusinessForecastRequest>;
