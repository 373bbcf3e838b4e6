import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZEvent, ZCreateRevenueInput } from "./event.schema";

export const createRevenueMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/revenues",
    tags: ["Events"],
    summary: "Record a revenue",
    description:
      "Creates an event of type revenue, state actual, source_type MANUAL. The base amount is converted at the rate of occurred_on and frozen (fx.kind snapshot). amount_minor must be positive; occurred_on must not be after today in the owner's timezone.",
  },
  successStatus: 201,
  planLimit: "events_per_month",
};
export const ZCreateRevenueRequest = ZCreateRevenueInput;
export const ZCreateRevenueResponse = z.object({ data: ZEvent });
