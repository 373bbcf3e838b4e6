import type { TProcedureMeta } from "../trpc/meta";
import { PROFIT_AND_LOSS_RULES, ZProfitAndLossQuery, ZProfitAndLossResponse } from "./report.schema";

export const getProfitAndLossMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/reports/profit-and-loss",
    tags: ["Reports"],
    summary: "Profit and loss by month, quarter or year",
    description:
      "Additive (issue 36). The counted actuals of a scope over up to three years, one column per calendar period " +
      "(interval month, quarter or year; the first and last cut to the range) and one row per side (in, out) of a type, " +
      "category, business or project (group_by), with the totals of each period and of the range. " +
      PROFIT_AND_LOSS_RULES,
  },
  files: ["csv", "xlsx"],
};
export const ZGetProfitAndLossRequest = ZProfitAndLossQuery;
export const ZGetProfitAndLossResponse = ZProfitAndLossResponse;
