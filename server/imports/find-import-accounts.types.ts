import { z } from "zod";
import { ZTimestamp, ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";

/** More than this are not one owner's bank accounts; the answer says it was cut. */
export const IMPORT_ACCOUNTS_MAX = 200;

export const findImportAccountsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/imports/accounts",
    tags: ["Imports"],
    summary: "Bank accounts with a saved mapping",
    description:
      "Additive (issue 14). The bank accounts the owner's confirmed imports named (POST /v1/imports account), each with " +
      "its business: an upload naming one of them is read with the mapping confirmed for it. The account as written at " +
      "its last confirm; most recently confirmed first (then business_id, account). Not paginated: at most " +
      `${IMPORT_ACCOUNTS_MAX}, and truncated says whether there were more. Filter: business_id (another owner's business ` +
      "lists nothing).",
  },
};
export const ZFindImportAccountsRequest = z.object({
  business_id: ZUuid.optional().describe("Only the accounts of this business."),
});
export const ZImportAccount = z
  .object({
    account: z.string().describe("As written at the last confirm (compared without blanks or hyphens, in any case)."),
    business_id: ZUuid,
    updated_at: ZTimestamp.describe("When its mapping was last confirmed."),
  })
  .meta({ id: "ImportAccount" });
export type TImportAccount = z.infer<typeof ZImportAccount>;
export const ZFindImportAccountsResponse = z.object({
  data: z.array(ZImportAccount),
  truncated: z.boolean().describe(`true when there are more than ${IMPORT_ACCOUNTS_MAX}.`),
});
export type TFindImportAccountsResponse = z.infer<typeof ZFindImportAccountsResponse>;
