import { performWrite, writeResponse } from "../access/write-pipeline";
import { ownerOrAgentProcedure } from "../trpc/init";
import { adBudgetChangeWrite } from "./ad-budget-change-service";
import {
  createAdBudgetChangeMeta,
  ZCreateAdBudgetChangeRequest,
  ZCreateAdBudgetChangeResponse,
} from "./create-ad-budget-change.types";

export const createAdBudgetChangeRoute = ownerOrAgentProcedure("ads")
  .meta(createAdBudgetChangeMeta)
  .input(ZCreateAdBudgetChangeRequest)
  .output(ZCreateAdBudgetChangeResponse)
  .mutation(async ({ ctx, input }) => writeResponse(await performWrite(ctx, adBudgetChangeWrite, input)));
