import { requireGrant } from "../access/check-access";
import { ownerOrAgentProcedure } from "../trpc/init";
import {
  getBusinessSaasMetricsMeta,
  ZGetBusinessSaasMetricsRequest,
  ZGetBusinessSaasMetricsResponse,
} from "./get-business-saas-metrics.types";
import { readOwnerDay, resolvePeriod } from "./period";
import { getSaasMetrics } from "./saas-metrics";
import { resolveBusinessScope } from "./scope";

export const getBusinessSaasMetricsRoute = ownerOrAgentProcedure("finances:observe")
  .meta(getBusinessSaasMetricsMeta)
  .input(ZGetBusinessSaasMetricsRequest)
  .output(ZGetBusinessSaasMetricsResponse)
  .query(async ({ ctx, input, path }) => {
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    const period = resolvePeriod(input, day.today);
    // 404 before 403 (pinned-wave2 §1.2): unknown or another owner's first, then the grant's coverage.
    const scope = await resolveBusinessScope(ctx.db, ctx.actor.ownerId, input.id);
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
