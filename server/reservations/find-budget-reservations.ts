import { ownerProcedure } from "../trpc/init";
import {
  findBudgetReservationsMeta,
  ZFindBudgetReservationsRequest,
  ZFindBudgetReservationsResponse,
} from "./find-budget-reservations.types";
import { findReservations } from "./reservation-service";

export const findBudgetReservationsRoute = ownerProcedure
  .meta(findBudgetReservationsMeta)
  .input(ZFindBudgetReservationsRequest)
  .output(ZFindBudgetReservationsResponse)
  .query(({ ctx, input }) => findReservations(ctx.db, ctx.actor.ownerId, input));
