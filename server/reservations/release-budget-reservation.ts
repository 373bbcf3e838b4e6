import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import {
  releaseBudgetReservationMeta,
  ZReleaseBudgetReservationRequest,
  ZReleaseBudgetReservationResponse,
} from "./release-budget-reservation.types";
import { releaseReservation } from "./reservation-service";

export const releaseBudgetReservationRoute = ownerProcedure
  .meta(releaseBudgetReservationMeta)
  .input(ZReleaseBudgetReservationRequest)
  .output(ZReleaseBudgetReservationResponse)
  .mutation(async ({ ctx, input: { id, ...release } }) => ({
    data: await releaseReservation(ctx.db, callerOf(ctx), id, release),
  }));
