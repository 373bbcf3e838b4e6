import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import {
  createPlannedExpenseMeta,
  ZCreatePlannedExpenseRequest,
  ZCreatePlannedExpenseResponse,
} from "./create-planned-expense.types";
import { createManualEvent } from "./ledger-service";

export const createPlannedExpenseRoute = ownerProcedure
  .meta(createPlannedExpenseMeta)
  .input(ZCreatePlannedExpenseRequest)
  .output(ZCreatePlannedExpenseResponse)
  .mutation(async ({ ctx, input }) => ({ data: await createManualEvent(ctx.db, callerOf(ctx), "planned_expense", input) }));
