import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCreateReservationInput, ZReservation } from "./reservation.schema";

export const createBudgetReservationMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/budget-reservations",
    tags: ["Budget reservations"],
    summary: "Reserve budget",
    description:
      "Sets money aside for a purpose: exactly one of business_id, project_id, personal: true; amount_minor a positive " +
      "integer; expires_on (optional) not in the past. Created active with released_minor 0.",
  },
  successStatus: 201,
};
export const ZCreateBudgetReservationRequest = ZCreateReservationInput;
export const ZCreateBudgetReservationResponse = z.object({ data: ZReservation });
