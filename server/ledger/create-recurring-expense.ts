import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import {
  createRecurringExpenseMeta,
  ZCreateRecurringExpenseRequest,
  ZCreateRecurringExpenseResponse,
} from "./create-recurring-expense.types";
import { createRecurringExpense } from "./ledger-service";

export const createRecurringExpenseRoute = ownerProcedure
  .meta(createRecurringExpenseMeta)
  .input(ZCreateRecurringExpenseRequest)
  .output(ZCreateRecurringExpenseResponse)
  .mutation(async ({ ctx, input }) => ({ data: await createRecurringExpense(ctx.db, callerOf(ctx), input) }));
