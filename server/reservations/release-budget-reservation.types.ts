import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZReleaseReservationInput, ZReservation } from "./reservation.schema";

export const releaseBudgetReservationMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/budget-reservations/{id}/release",
    tags: ["Budget reservations"],
    summary: "Release a budget reservation",
    description:
      "Releases amount_minor, or everything that remains when it is omitted; when nothing remains the reservation becomes " +
      "released. Releasing more than remains, or releasing a released reservation, answers 409 state_conflict (details: " +
      "status, remaining_minor) and changes nothing. Concurrent releases never release more than the reservation.",
  },
};
export const ZReleaseBudgetReservationRequest = ZIdParam.extend(ZReleaseReservationInput.shape);
export const ZReleaseBudgetReservationResponse = z.object({ data: ZReservation });
