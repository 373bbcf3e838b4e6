import { callerOf } from "../auth/caller";
import { readOwnerDay } from "../read-models/period";
import { ownerOrAgentProcedure } from "../trpc/init";
import { getDecisionReviewMeta, ZGetDecisionReviewRequest, ZGetDecisionReviewResponse } from "./get-decision-review.types";
import { getDecisionReview } from "./outcome-service";

// Any live agent passes the meta's rule; only the decision's own agent gets past the service.
export const getDecisionReviewRoute = ownerOrAgentProcedure()
  .meta(getDecisionReviewMeta)
  .input(ZGetDecisionReviewRequest)
  .output(ZGetDecisionReviewResponse)
  .query(async ({ ctx, input, path }) => {
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    return { data: await getDecisionReview(ctx.db, callerOf(ctx), day, input.id, path) };
  });
