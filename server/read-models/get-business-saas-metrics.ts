import { requireGrant } from "../access/check-access";
import { ownerOrAgentProcedure } from "../trpc/init";
import {
  getBusinessSaasMetricsMeta,
  ZGetBusinessSaasMetricsRequest,
  ZGetBusinessSaasMetricsResponse,
} from "./get-business-saas-metrics.types";
import { readOwnerDayAndBusiness, resolvePeriod } from "./period";
import { getSaasMetrics } from "./saas-metrics";

export const getBusinessSaasMetricsRoute = ownerOrAgentProcedure("finances:observe")
  .meta(getBusinessSaasMetricsMeta)
  .input(ZGetBusinessSaasMetricsRequest)
  .output(ZGetBusinessSaasMetricsResponse)
  .query(async ({ ctx, input, path }) => {
    // 404 before 403 (pinned-wave2 §1.2): unknown or another owner's first, then the grant's coverage.
    const {
      day,
      checked: period,
      scope,
    } = await readOwnerDayAndBusiness(ctx.db, ctx.actor.ownerId, ctx.clock, input.id, (d) => resolvePeriod(input, d.today));
    if (ctx.actor.type === "agent") {
      await requireGrant(
        ctx.actor,
        "finances:observe",
        { kind: "business", businessId: scope.businessId },
        { operation: path, db: () => ctx.db, requestId: ctx.requestId },
      );
    }
    return getSaasMetrics(ctx.db, day, scope, { ...period, displayCurrency: input.display_currency });
  });
