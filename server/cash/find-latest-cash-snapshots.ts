import { ownerProcedure } from "../trpc/init";
import { findLatestCashSnapshots } from "./cash-service";
import {
  findLatestCashSnapshotsMeta,
  ZFindLatestCashSnapshotsRequest,
  ZFindLatestCashSnapshotsResponse,
} from "./find-latest-cash-snapshots.types";

export const findLatestCashSnapshotsRoute = ownerProcedure
  .meta(findLatestCashSnapshotsMeta)
  .input(ZFindLatestCashSnapshotsRequest)
  .output(ZFindLatestCashSnapshotsResponse)
  .query(({ ctx, input }) => findLatestCashSnapshots(ctx.db, ctx.actor.ownerId, input));
