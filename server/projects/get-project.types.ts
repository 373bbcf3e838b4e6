import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZProject } from "./project.schema";

export const getProjectMeta: TProcedureMeta = {
  openapi: { method: "GET", path: "/v1/projects/{id}", tags: ["Projects"], summary: "Get a project" },
};
export const ZGetProjectRequest = ZIdParam;
export const ZGetProjectResponse = z.object({ data: ZProject });
