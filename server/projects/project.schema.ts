import { z } from "zod";
import { ZName, ZTimestamp, ZUuid } from "../shared/schemas";
import { ZRecordStatus } from "../shared/unique-name";

export const ZProject = z
  .object({
    id: ZUuid,
    business_id: ZUuid,
    name: z.string().describe("Unique among its business's projects, compared without case (archived ones count)."),
    status: ZRecordStatus,
    archived_at: ZTimestamp.nullable().describe("When it was archived; null while active."),
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
  })
  .meta({ id: "Project" });
export type TProject = z.infer<typeof ZProject>;

export const ZCreateProjectInput = z
  .object({ name: ZName })
  .meta({ id: "CreateProjectInput", description: "A name another project of the business has (any case): 409 state_conflict." });
export const ZUpdateProjectInput = z
  .object({
    name: ZName.optional().describe("Rename. A name another project of the business has (any case): 409 state_conflict."),
    status: ZRecordStatus.optional().describe(
      "archived hides it from pickers and keeps its history; active restores it (additive, issue 14).",
    ),
  })
  .meta({ id: "UpdateProjectInput" });
export type TUpdateProjectInput = z.infer<typeof ZUpdateProjectInput>;
