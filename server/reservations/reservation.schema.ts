import { z } from "zod";
import { EXACTLY_ONE_SCOPE_JSON, exactlyOneScope, ZScopeFields, ZScopeOut } from "../shared/scope";
import { ZAmountMinor, ZCurrency, ZDate, ZQueryBoolean, ZStoredDate, ZTimestamp, ZUuid, zStoredMinor } from "../shared/schemas";
import { ZBaseAmountFields } from "../fx/base-amounts";

export const RESERVATION_STATUSES = ["active", "released"] as const;
export const ZReservationStatus = z.enum(RESERVATION_STATUSES);

const ZPositiveMinor = ZAmountMinor.min(1, { message: "must be a positive number of minor units" });

export const ZReservation = z
  .object({
    id: ZUuid,
    ...ZScopeOut.shape,
    amount_minor: zStoredMinor("The amount set aside, in the original currency."),
    released_minor: zStoredMinor("How much of it was released so far."),
    remaining_minor: zStoredMinor("amount_minor − released_minor: what is still reserved."),
    currency: ZCurrency,
    ...ZBaseAmountFields.shape,
    purpose: z.string(),
    status: ZReservationStatus.describe("active until everything is released; released is final."),
    expires_on: ZStoredDate.nullable(),
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
  })
  .meta({ id: "BudgetReservation" });
export type TReservation = z.infer<typeof ZReservation>;

export const ZCreateReservationInput = ZScopeFields.extend({
  amount_minor: ZPositiveMinor,
  currency: ZCurrency,
  purpose: z.string().trim().min(1, { message: "must not be empty" }).max(500),
  expires_on: ZDate.optional().describe("The last day of the reservation; not before today in the owner's timezone."),
})
  .superRefine(exactlyOneScope)
  .meta({ id: "CreateReservationInput", ...EXACTLY_ONE_SCOPE_JSON });
export type TCreateReservationInput = z.infer<typeof ZCreateReservationInput>;

export const ZReleaseReservationInput = z
  .object({
    amount_minor: ZPositiveMinor.optional().describe("How much to release; omitted = everything that remains."),
  })
  .meta({ id: "ReleaseReservationInput" });
export type TReleaseReservationInput = z.infer<typeof ZReleaseReservationInput>;

export const ZReservationFilters = z.object({
  business_id: ZUuid.optional().describe("Reservations of this business, including its projects'."),
  project_id: ZUuid.optional(),
  personal: ZQueryBoolean.optional(),
  status: ZReservationStatus.optional(),
  currency: ZCurrency.optional(),
});
export type TReservationFilters = z.infer<typeof ZReservationFilters>;
