import { router } from "../trpc/init";
import { createExpenseRoute } from "./create-expense";
import { createPlannedExpenseRoute } from "./create-planned-expense";
import { createRecurringExpenseRoute } from "./create-recurring-expense";
import { createRevenueRoute } from "./create-revenue";
import { findEventsRoute } from "./find-events";
import { getEventRoute } from "./get-event";

export const ledgerRouter = router({
  findEvents: findEventsRoute,
  getEvent: getEventRoute,
  createExpense: createExpenseRoute,
  createRevenue: createRevenueRoute,
  createPlannedExpense: createPlannedExpenseRoute,
  createRecurringExpense: createRecurringExpenseRoute,
});
