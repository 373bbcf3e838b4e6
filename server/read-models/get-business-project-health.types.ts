import { ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { PROJECT_HEALTH_RULES, ZProjectHealthQuery, ZProjectHealthResponse } from "./project-health.schema";

export const getBusinessProjectHealthMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/businesses/{id}/project-health",
    tags: ["Read models"],
    summary: "How each project of a business is doing",
    description:
      "Each project's revenue, direct and allocated costs, margin against the previous period, capacity use, and a " +
      "health score and status with the reasons that produced it. Owner only (an agent answers 403 scope_denied). " +
      "Another owner's or an unknown business answers 404; an id that is not a UUID 400. " +
      PROJECT_HEALTH_RULES,
  },
};
export const ZGetBusinessProjectHealthRequest = ZProjectHealthQuery.extend({ id: ZUuid });
export const ZGetBusinessProjectHealthResponse = ZProjectHealthResponse;
