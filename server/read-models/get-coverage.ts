import { ownerProcedure } from "../trpc/init";
import { getCoverageReport } from "./coverage";
import { getCoverageMeta, ZGetCoverageRequest, ZGetCoverageResponse } from "./get-coverage.types";
import { readOwnerDay } from "./period";

export const getCoverageRoute = ownerProcedure
  .meta(getCoverageMeta)
  .input(ZGetCoverageRequest)
  .output(ZGetCoverageResponse)
  .query(async ({ ctx }) => ({
    data: await getCoverageReport(ctx.db, await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock)),
  }));
