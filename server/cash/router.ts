import { router } from "../trpc/init";
import { createCashSnapshotRoute } from "./create-cash-snapshot";

export const cashRouter = router({
  createSnapshot: createCashSnapshotRoute,
});
