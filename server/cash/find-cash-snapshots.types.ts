import { ZListOf, ZPageQuery } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCashSnapshot, ZCashSnapshotFilters } from "./cash-snapshot.schema";

export const findCashSnapshotsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/cash-snapshots",
    tags: ["Cash"],
    summary: "List cash snapshots",
    description:
      "Additive (issue 14). Every stored snapshot, the owner's manual ones and the integrations', newest first (created_at, " +
      "then id). A day's snapshot that was replaced by a later one of the same day shows the later balance (one snapshot per " +
      "scope, account and day). Filters: business_id, personal, account_id. base_amount_minor is today's current rate.",
  },
};
export const ZFindCashSnapshotsRequest = ZPageQuery.extend(ZCashSnapshotFilters.shape);
export const ZFindCashSnapshotsResponse = ZListOf(ZCashSnapshot);
