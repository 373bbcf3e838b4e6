import type { TProcedureMeta } from "../trpc/meta";
import { FINANCIAL_SUMMARY_RULES, ZFinancialSummaryQuery, ZFinancialSummaryResponse } from "./financial-summary.schema";

export const getPersonalFinancialSummaryMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/personal/financial-summary",
    tags: ["Read models"],
    summary: "The owner's personal financial summary for a period",
    description:
      "The owner's personal events (personal: true) and personal cash; no by_project. It takes the business summary's " +
      "parameters. " +
      FINANCIAL_SUMMARY_RULES,
  },
};
export const ZGetPersonalFinancialSummaryRequest = ZFinancialSummaryQuery;
export const ZGetPersonalFinancialSummaryResponse = ZFinancialSummaryResponse;
