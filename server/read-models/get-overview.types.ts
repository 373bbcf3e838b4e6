import { AMOUNT_RANGE_RULE } from "../fx/base-amounts";
import type { TProcedureMeta } from "../trpc/meta";
import { OVERVIEW_ALERTS_LIMIT, UPCOMING_COSTS_LIMIT, ZOverviewQuery, ZOverviewResponse } from "./overview.schema";

export const getOverviewMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/overview",
    tags: ["Read models"],
    summary: "The owner's finances at a glance",
    description:
      "The whole owner (every business and the personal finances), today in the owner's timezone. cash: K6 over every " +
      "account. free_capital_30d_minor: GET /v1/free-capital with no scope and horizon_days 30. runway: K8 with R = today " +
      "(90-day net burn of counted actuals; counted in the base currency). last_30_days and month_to_date: counted " +
      "actuals by direction, net = in − out. upcoming_costs: the out commitments of the next 30 days (overdue planned " +
      `costs dated today), date ascending, at most ${UPCOMING_COSTS_LIMIT}; upcoming_total_minor covers all of them. ` +
      `alerts: the latest ${OVERVIEW_ALERTS_LIMIT}. pending_approvals: the approvals waiting for the owner. ` +
      "unread_notifications: the owner's unread notifications (as Me.unread_notifications). " +
      "businesses: each business, oldest first, with its net of the last 30 days and its cash. With display_currency " +
      "every amount except the upcoming items' base_amount_minor is converted once from the base and the nets and free " +
      "capital recomputed. A missing rate answers 422 fx_unavailable. " +
      AMOUNT_RANGE_RULE +
      " Envelope coverage: every domain (owner level).",
  },
};
export const ZGetOverviewRequest = ZOverviewQuery;
export const ZGetOverviewResponse = ZOverviewResponse;
