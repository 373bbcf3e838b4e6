import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { createExpenseMeta, ZCreateExpenseRequest, ZCreateExpenseResponse } from "./create-expense.types";
import { createManualEvent } from "./ledger-service";

export const createExpenseRoute = ownerProcedure
  .meta(createExpenseMeta)
  .input(ZCreateExpenseRequest)
  .output(ZCreateExpenseResponse)
  .mutation(async ({ ctx, input }) => ({ data: await createManualEvent(ctx.db, callerOf(ctx), "expense", input) }));
