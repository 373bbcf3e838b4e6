import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZEvent, ZCreateExpenseInput } from "./event.schema";

export const createExpenseMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/expenses",
    tags: ["Events"],
    summary: "Record an expense",
    description:
      "Creates an event of type expense, state actual, source_type MANUAL. The base amount is converted at the rate of occurred_on and frozen (fx.kind snapshot). amount_minor must be positive (refunds come from integrations); occurred_on must not be after today in the owner's timezone.",
  },
  successStatus: 201,
  planLimit: "events_per_month",
};
export const ZCreateExpenseRequest = ZCreateExpenseInput;
export const ZCreateExpenseResponse = z.object({ data: ZEvent });
