import { z } from "zod";
import { AMOUNT_RANGE_RULE } from "../fx/base-amounts";
import type { TProcedureMeta } from "../trpc/meta";
import { ZEventFiltersQuery, ZEventTotals } from "./event.schema";

export const findEventTotalsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/events/totals",
    tags: ["Events"],
    summary: "Totals of the filtered events",
    description:
      "Additive (issue 14). In, out and net, in the owner's base currency, of the events GET /v1/events lists with the " +
      "same filters (q, category, business_id, project_id, personal, type, state, status, source_type, currency, " +
      "from, to), over all pages. They count as the Overview counts: actual events that are confirmed and not " +
      "reconciled, at their frozen base amounts; money in = revenue and refunds of a cost, out = expense, ad_spend, " +
      "recurring and planned expense, refunds of revenue; other types count in neither. Matching rows left out " +
      "(voided, reconciled, planned) are counted in not_counted. " +
      AMOUNT_RANGE_RULE,
  },
};
export const ZFindEventTotalsRequest = ZEventFiltersQuery;
export const ZFindEventTotalsResponse = z.object({ data: ZEventTotals });
