import { ZListOf, ZPageQuery } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZReservation, ZReservationFilters } from "./reservation.schema";

export const findBudgetReservationsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/budget-reservations",
    tags: ["Budget reservations"],
    summary: "List budget reservations",
    description: "Newest first. Filters: business_id (includes its projects'), project_id, personal, status, currency.",
  },
};
export const ZFindBudgetReservationsRequest = ZPageQuery.extend(ZReservationFilters.shape);
export const ZFindBudgetReservationsResponse = ZListOf(ZReservation);
