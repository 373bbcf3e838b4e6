import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZProject, ZUpdateProjectInput } from "./project.schema";

export const updateProjectMeta: TProcedureMeta = {
  openapi: { method: "PATCH", path: "/v1/projects/{id}", tags: ["Projects"], summary: "Update a project" },
};
export const ZUpdateProjectRequest = ZIdParam.extend(ZUpdateProjectInput.shape);
export const ZUpdateProjectResponse = z.object({ data: ZProject });
