import { router } from "../trpc/init";
import { changePlanRoute } from "./change-plan";
import { getPlanRoute } from "./get-plan";
import { previewPlanChangeRoute } from "./preview-plan-change";

// The literal /v1/plan/upgrade-preview and /v1/plan are distinct paths; no order matters.
export const plansRouter = router({
  get: getPlanRoute,
  change: changePlanRoute,
  upgradePreview: previewPlanChangeRoute,
});
