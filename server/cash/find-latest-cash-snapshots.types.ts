import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCashSnapshot, ZCashSnapshotFilters } from "./cash-snapshot.schema";

/** More accounts than this are not one owner's bank accounts; the answer says it was cut. */
export const LATEST_CASH_ACCOUNTS_MAX = 500;

export const findLatestCashSnapshotsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/cash-snapshots/latest",
    tags: ["Cash"],
    summary: "The latest balance of each account",
    description:
      "Additive (issue 14). The latest snapshot (by as_of) of each account of each scope (a business, or personal): the " +
      "balances the read models' cash (K6) sums. Ordered by scope (businesses by id, then personal) and account_id. Not " +
      `paginated: at most ${LATEST_CASH_ACCOUNTS_MAX} accounts, and truncated says whether there were more. Filters: ` +
      "business_id, personal, account_id.",
  },
};
export const ZFindLatestCashSnapshotsRequest = ZCashSnapshotFilters;
export const ZFindLatestCashSnapshotsResponse = z.object({
  data: z.array(ZCashSnapshot),
  truncated: z.boolean().describe(`true when the owner has more than ${LATEST_CASH_ACCOUNTS_MAX} accounts in the filter.`),
});
