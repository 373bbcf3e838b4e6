import { z } from "zod";
import { ZName, ZTimestamp, ZUuid } from "../shared/schemas";

export const ZProject = z
  .object({ id: ZUuid, business_id: ZUuid, name: z.string(), created_at: ZTimestamp, updated_at: ZTimestamp })
  .meta({ id: "Project" });
export type TProject = z.infer<typeof ZProject>;

export const ZCreateProjectInput = z.object({ name: ZName }).meta({ id: "CreateProjectInput" });
export const ZUpdateProjectInput = z.object({ name: ZName.optional() }).meta({ id: "UpdateProjectInput" });
