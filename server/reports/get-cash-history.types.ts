import type { TProcedureMeta } from "../trpc/meta";
import { CASH_HISTORY_RULES, ZCashHistoryQuery, ZCashHistoryResponse } from "./report.schema";

export const getCashHistoryMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/reports/cash-history",
    tags: ["Reports"],
    summary: "Each day's closing cash, measured or derived",
    description:
      "Additive (issue 36). The closing cash of a scope on every day of a range of up to three years, from its cash " +
      "snapshots and the actuals after them, each day saying whether it was measured (snapshot), derived or unknown " +
      "(none). " +
      CASH_HISTORY_RULES,
  },
  files: ["csv", "xlsx"],
};
export const ZGetCashHistoryRequest = ZCashHistoryQuery;
export const ZGetCashHistoryResponse = ZCashHistoryResponse;
