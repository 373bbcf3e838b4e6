import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCreateProjectInput, ZProject } from "./project.schema";

export const createProjectMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/businesses/{id}/projects",
    tags: ["Projects"],
    summary: "Create a project in a business",
  },
  successStatus: 201,
  planLimit: "projects",
};
export const ZCreateProjectRequest = ZIdParam.extend(ZCreateProjectInput.shape);
export const ZCreateProjectResponse = z.object({ data: ZProject });
