import { ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { SAAS_METRICS_RULES, ZSaasMetricsQuery, ZSaasMetricsResponse } from "./saas-metrics.schema";

export const getBusinessSaasMetricsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/businesses/{id}/saas-metrics",
    tags: ["Read models"],
    summary: "A business's SaaS metrics for a period",
    description:
      "MRR at the start and end of the period, its movements (new, expansion, reactivation, contraction, churned), " +
      "customers, churn, net revenue retention, ARR and ARPA, billing signals, the latest movements and, per month, the " +
      "MRR movement. For the owner, and for agents whose finances:observe grant covers the business (a grant of that " +
      "scope elsewhere only: 403 scope_denied, audited). Another owner's or an unknown business answers 404. " +
      SAAS_METRICS_RULES,
  },
};
export const ZGetBusinessSaasMetricsRequest = ZSaasMetricsQuery.extend({ id: ZUuid });
export const ZGetBusinessSaasMetricsResponse = ZSaasMetricsResponse;
