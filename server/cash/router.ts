import { router } from "../trpc/init";
import { createCashSnapshotRoute } from "./create-cash-snapshot";
import { findCashSnapshotsRoute } from "./find-cash-snapshots";
import { findLatestCashSnapshotsRoute } from "./find-latest-cash-snapshots";

export const cashRouter = router({
  createSnapshot: createCashSnapshotRoute,
  findSnapshots: findCashSnapshotsRoute,
  findLatestSnapshots: findLatestCashSnapshotsRoute,
});
