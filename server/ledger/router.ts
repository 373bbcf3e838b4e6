import { router } from "../trpc/init";
import { createExpenseRoute } from "./create-expense";
import { createPlannedExpenseRoute } from "./create-planned-expense";
import { createRecurringExpenseRoute } from "./create-recurring-expense";
import { createRevenueRoute } from "./create-revenue";
import { correctEventRoute } from "./correct-event";
import { findEventTotalsRoute } from "./find-event-totals";
import { findEventsRoute } from "./find-events";
import { getEventRoute } from "./get-event";
import { voidEventRoute } from "./void-event";

export const ledgerRouter = router({
  findEvents: findEventsRoute,
  getEvent: getEventRoute,
  findEventTotals: findEventTotalsRoute,
  voidEvent: voidEventRoute,
  correctEvent: correctEventRoute,
  createExpense: createExpenseRoute,
  createRevenue: createRevenueRoute,
  createPlannedExpense: createPlannedExpenseRoute,
  createRecurringExpense: createRecurringExpenseRoute,
});
