import { z } from "zod";
import { ZCurrency, ZName, ZTimestamp, ZUuid } from "../shared/schemas";

export const ZBusiness = z
  .object({
    id: ZUuid,
    name: z.string(),
    currency: ZCurrency.describe("The business's reporting currency."),
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
  })
  .meta({ id: "Business" });

export type TBusiness = z.infer<typeof ZBusiness>;

export const ZCreateBusinessInput = z.object({ name: ZName, currency: ZCurrency }).meta({ id: "CreateBusinessInput" });
export type TCreateBusinessInput = z.infer<typeof ZCreateBusinessInput>;

export const ZUpdateBusinessInput = z
  .object({ name: ZName.optional(), currency: ZCurrency.optional() })
  .meta({ id: "UpdateBusinessInput" });
export type TUpdateBusinessInput = z.infer<typeof ZUpdateBusinessInput>;
