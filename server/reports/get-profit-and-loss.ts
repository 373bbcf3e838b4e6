import { ownerOrAgentProcedure } from "../trpc/init";
import { readOwnerDay } from "../read-models/period";
import { getProfitAndLossMeta, ZGetProfitAndLossRequest, ZGetProfitAndLossResponse } from "./get-profit-and-loss.types";
import { getProfitAndLoss } from "./profit-and-loss";
import { reportScope } from "./report-access";
import { profitAndLossFile } from "./report-files";
import type { z } from "zod";

type TProfitAndLossAnswer = z.infer<typeof ZGetProfitAndLossResponse>;
import { resolveReportRange } from "./report-period";

export const getProfitAndLossRoute = ownerOrAgentProcedure("finances:observe")
  .meta({ ...getProfitAndLossMeta, renderFile: (output: TProfitAndLossAnswer, format) => profitAndLossFile(output.data, format) })
  .input(ZGetProfitAndLossRequest)
  .output(ZGetProfitAndLossResponse)
  .query(async ({ ctx, input, path }) => {
    // The range first (400), then the scope (404), then the grant (403).
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    const range = resolveReportRange(input, day.today);
    const scope = await reportScope(ctx.db, ctx.actor, input, { operation: path, db: () => ctx.db, requestId: ctx.requestId });
    const report = await getProfitAndLoss(ctx.db, day, scope, {
      ...range,
      interval: input.interval,
      groupBy: input.group_by,
      displayCurrency: input.display_currency,
    });
    return report;
  });
