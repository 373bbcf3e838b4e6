import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import {
  createBudgetReservationMeta,
  ZCreateBudgetReservationRequest,
  ZCreateBudgetReservationResponse,
} from "./create-budget-reservation.types";
import { createReservation } from "./reservation-service";

export const createBudgetReservationRoute = ownerProcedure
  .meta(createBudgetReservationMeta)
  .input(ZCreateBudgetReservationRequest)
  .output(ZCreateBudgetReservationResponse)
  .mutation(async ({ ctx, input }) => ({ data: await createReservation(ctx.db, callerOf(ctx), input) }));
