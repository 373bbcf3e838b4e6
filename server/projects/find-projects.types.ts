import { ZListOf, ZPageQuery } from "../shared/pagination";
import { ZIdParam } from "../shared/schemas";
import { ZStatusFilter } from "../shared/unique-name";
import type { TProcedureMeta } from "../trpc/meta";
import { ZProject } from "./project.schema";

export const findProjectsMeta: TProcedureMeta = {
  openapi: { method: "GET", path: "/v1/businesses/{id}/projects", tags: ["Projects"], summary: "List a business's projects" },
};
export const ZFindProjectsRequest = ZIdParam.extend(ZPageQuery.shape).extend({ status: ZStatusFilter });
export const ZFindProjectsResponse = ZListOf(ZProject);
