import { ownerProcedure } from "../trpc/init";
import { findCashSnapshots } from "./cash-service";
import { findCashSnapshotsMeta, ZFindCashSnapshotsRequest, ZFindCashSnapshotsResponse } from "./find-cash-snapshots.types";

export const findCashSnapshotsRoute = ownerProcedure
  .meta(findCashSnapshotsMeta)
  .input(ZFindCashSnapshotsRequest)
  .output(ZFindCashSnapshotsResponse)
  .query(({ ctx, input }) => findCashSnapshots(ctx.db, ctx.actor.ownerId, input));
