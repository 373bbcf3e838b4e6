import { z } from "zod";
import { ZCurrency, ZName, ZTimestamp, ZUuid } from "../shared/schemas";
import { ZRecordStatus, ZStatusFilter } from "../shared/unique-name";
import { ZPageQuery } from "../shared/pagination";

export const ZBusiness = z
  .object({
    id: ZUuid,
    name: z.string().describe("Unique among the owner's businesses, compared without case (archived ones count)."),
    currency: ZCurrency.describe("The business's reporting currency."),
    status: ZRecordStatus,
    archived_at: ZTimestamp.nullable().describe("When it was archived; null while active."),
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
  })
  .meta({ id: "Business" });

export type TBusiness = z.infer<typeof ZBusiness>;

export const ZCreateBusinessInput = z.object({ name: ZName, currency: ZCurrency }).meta({
  id: "CreateBusinessInput",
  description: "A name already used by another of the owner's businesses (any case): 409 state_conflict.",
});
export type TCreateBusinessInput = z.infer<typeof ZCreateBusinessInput>;

export const ZUpdateBusinessInput = z
  .object({
    name: ZName.optional().describe("Rename. A name another of the owner's businesses has (any case): 409 state_conflict."),
    currency: ZCurrency.optional(),
    status: ZRecordStatus.optional().describe(
      "archived hides it from pickers and keeps its history; active restores it (additive, issue 14).",
    ),
  })
  .meta({ id: "UpdateBusinessInput" });
export type TUpdateBusinessInput = z.infer<typeof ZUpdateBusinessInput>;

export const ZFindBusinessesQuery = ZPageQuery.extend({ status: ZStatusFilter });
export type TFindBusinessesQuery = z.infer<typeof ZFindBusinessesQuery>;
