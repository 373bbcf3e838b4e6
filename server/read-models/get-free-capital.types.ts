import { AMOUNT_RANGE_RULE } from "../fx/base-amounts";
import type { TProcedureMeta } from "../trpc/meta";
import { ZFreeCapitalQuery, ZFreeCapitalResponse } from "./free-capital.schema";

export const getFreeCapitalMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/free-capital",
    tags: ["Read models"],
    summary: "What is free to spend",
    description:
      "free_capital = cash − reserved − committed.total over [today, today + horizon_days − 1] (owner's timezone; " +
      "horizon_days 1 to 365, default 30). Scope: at most one of business_id, project_id, personal=true (more answers " +
      "400; none = the whole owner). Cash (K6): the latest snapshot of each account of the scope at today's rate; null " +
      "without one, and then free_capital_minor is null. Reserved: Σ amount − released of active reservations not " +
      "expired before today. Committed: the OUT commitments of the window only (inflows never count): planned events " +
      "due by its end (an overdue one dated today) and the charges of active subscriptions rolled from next_charge_on " +
      "(month-end clamped; none before today; none on a day a confirmed event of that subscription is dated). It may be " +
      "negative. Decided: a project has no cash, so project_id answers its business's whole pool (cash_scope business) " +
      "and the project's own reservations and commitments, its share_bps part of the business's allocated subscriptions " +
      "included, in `project`; items are the pool's. With display_currency, cash, reserved, planned and subscriptions " +
      "are converted once from the base and the totals recomputed; items keep base_amount_minor in the base currency. " +
      "A missing rate answers 422 fx_unavailable. " +
      AMOUNT_RANGE_RULE +
      " Another owner's business or project answers 404. Envelope coverage: cash, expenses.",
  },
};
export const ZGetFreeCapitalRequest = ZFreeCapitalQuery;
export const ZGetFreeCapitalResponse = ZFreeCapitalResponse;
