import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZEvent, ZCreatePlannedExpenseInput } from "./event.schema";

export const createPlannedExpenseMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/planned-expenses",
    tags: ["Events"],
    summary: "Plan an expense",
    description:
      "Creates an event of type planned_expense, state planned, on the planned day occurred_on. Nothing is frozen: base_amount_minor and fx (kind current) are computed at the current rate on every read. The currency must be convertible now (422 otherwise).",
  },
  successStatus: 201,
  planLimit: "events_per_month",
};
export const ZCreatePlannedExpenseRequest = ZCreatePlannedExpenseInput;
export const ZCreatePlannedExpenseResponse = z.object({ data: ZEvent });
