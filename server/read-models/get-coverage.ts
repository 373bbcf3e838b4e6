import { ownerOrAgentProcedure } from "../trpc/init";
import { authorizeRead, readCaller } from "./read-access";
import { OWNER_SCOPE } from "./scope";
import { getCoverageReport } from "./coverage";
import { getCoverageMeta, ZGetCoverageRequest, ZGetCoverageResponse } from "./get-coverage.types";
import { readOwnerDay } from "./period";

export const getCoverageRoute = ownerOrAgentProcedure("finances:observe")
  .meta(getCoverageMeta)
  .input(ZGetCoverageRequest)
  .output(ZGetCoverageResponse)
  .query(async ({ ctx, path }) => {
    // The whole owner: an agent's finances:observe grant on `*` (pinned-wave3 §2.1).
    await authorizeRead(readCaller(ctx, path), "finances:observe", OWNER_SCOPE);
    return { data: await getCoverageReport(ctx.db, await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock)) };
  });
