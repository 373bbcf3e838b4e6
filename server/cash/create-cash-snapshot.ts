import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { createCashSnapshot } from "./cash-service";
import { createCashSnapshotMeta, ZCreateCashSnapshotRequest, ZCreateCashSnapshotResponse } from "./create-cash-snapshot.types";

export const createCashSnapshotRoute = ownerProcedure
  .meta(createCashSnapshotMeta)
  .input(ZCreateCashSnapshotRequest)
  .output(ZCreateCashSnapshotResponse)
  .mutation(async ({ ctx, input }) => {
    const snapshot = await createCashSnapshot(ctx.db, callerOf(ctx), input);
    return { data: snapshot };
  });
