import { ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { FINANCIAL_SUMMARY_RULES, ZFinancialSummaryQuery, ZFinancialSummaryResponse } from "./financial-summary.schema";

export const getBusinessFinancialSummaryMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/businesses/{id}/financial-summary",
    tags: ["Read models"],
    summary: "A business's financial summary for a period",
    description:
      "The business's events (its projects included) and cash. by_project lists each project and the business-level " +
      "amounts (project_id null). Another owner's or an unknown business answers 404. " +
      FINANCIAL_SUMMARY_RULES,
  },
};
export const ZGetBusinessFinancialSummaryRequest = ZFinancialSummaryQuery.extend({ id: ZUuid });
export const ZGetBusinessFinancialSummaryResponse = ZFinancialSummaryResponse;
