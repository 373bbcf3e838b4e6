import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZPlanName, ZUpgradePreview } from "./plan.schema";

export const previewPlanChangeMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/plan/upgrade-preview",
    tags: ["Plan"],
    summary: "What changing to another plan would do",
    description:
      "`to` (required; an unknown plan: 400): the limits before and after, the usage now, the limits of `to` it would " +
      "exceed, whether POST /v1/plan with it would succeed now (allowed), the status and trial end it would leave, and " +
      "price_change (null: no prices in this version). Nothing is written.",
  },
};
export const ZPreviewPlanChangeRequest = z.object({ to: ZPlanName });
export const ZPreviewPlanChangeResponse = z.object({ data: ZUpgradePreview });
