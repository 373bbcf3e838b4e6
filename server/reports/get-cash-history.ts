import { ownerOrAgentProcedure } from "../trpc/init";
import { readOwnerDay } from "../read-models/period";
import { getCashHistory } from "./cash-history";
import { getCashHistoryMeta, ZGetCashHistoryRequest, ZGetCashHistoryResponse } from "./get-cash-history.types";
import { reportScope } from "./report-access";
import { cashHistoryFile } from "./report-files";
import type { z } from "zod";

type TCashHistoryAnswer = z.infer<typeof ZGetCashHistoryResponse>;
import { resolveReportRange } from "./report-period";

export const getCashHistoryRoute = ownerOrAgentProcedure("finances:observe")
  .meta({ ...getCashHistoryMeta, renderFile: (output: TCashHistoryAnswer, format) => cashHistoryFile(output.data, format) })
  .input(ZGetCashHistoryRequest)
  .output(ZGetCashHistoryResponse)
  .query(async ({ ctx, input, path }) => {
    // The range first (400), then the scope (404), then the grant (403).
    const day = await readOwnerDay(ctx.db, ctx.actor.ownerId, ctx.clock);
    const range = resolveReportRange(input, day.today);
    const scope = await reportScope(ctx.db, ctx.actor, input, { operation: path, db: () => ctx.db, requestId: ctx.requestId });
    const history = await getCashHistory(ctx.db, day, scope, { ...range, displayCurrency: input.display_currency });
    return history;
  });
