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
    // A repeat of a stored account-day is not a create.
    if (snapshot.outcome !== "created") ctx.response.status = 200;
    return { data: snapshot };
  });
