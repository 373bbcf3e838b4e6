import { z } from "zod";
import { ZSubscription } from "../subscriptions/subscription.schema";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCreateRecurringExpenseInput, ZEvent } from "./event.schema";

export const createRecurringExpenseMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/recurring-expenses",
    tags: ["Events"],
    summary: "Record a recurring expense",
    description:
      "Creates a subscription (source_type MANUAL) and its first charge as an event of type recurring_expense on " +
      "next_charge_on, in one transaction: both or neither. The event is actual (base amount frozen at the rate of " +
      "next_charge_on) when next_charge_on is on or before today in the owner's timezone, planned otherwise (base amount " +
      "at the current rate on every read). The event's subscription_id names the subscription. amount_minor must be positive.",
  },
  successStatus: 201,
  planLimit: "events_per_month",
};
export const ZCreateRecurringExpenseRequest = ZCreateRecurringExpenseInput;
export const ZCreateRecurringExpenseResponse = z.object({
  data: z
    .object({ event: ZEvent, subscription: ZSubscription })
    .meta({ id: "RecurringExpense", description: "The subscription and its first charge." }),
});
