import { router } from "../trpc/init";
import { createBudgetReservationRoute } from "./create-budget-reservation";
import { findBudgetReservationsRoute } from "./find-budget-reservations";
import { releaseBudgetReservationRoute } from "./release-budget-reservation";

export const reservationsRouter = router({
  find: findBudgetReservationsRoute,
  create: createBudgetReservationRoute,
  release: releaseBudgetReservationRoute,
});
