import { AMOUNT_RANGE_RULE } from "../fx/base-amounts";
import { ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { CONTEXT_ALERTS, CONTEXT_TOP_SUBSCRIPTIONS, CONTEXT_UPCOMING_DAYS } from "./business-context";
import { ZBusinessContextQuery, ZBusinessContextResponse } from "./business-context.schema";

export const getBusinessContextMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/businesses/{id}/context",
    tags: ["Read models"],
    summary: "One compact document about a business, sized for a prompt",
    description:
      "Everything to read before acting on a business, in one answer small enough to paste into an agent's prompt " +
      "(every list is bounded): the business and its currency; its active projects; the last 30 days' net revenue, " +
      "outflow and net (the financial summary's); the 30-day forecast's totals and ending committed balance (the " +
      "forecast's, horizon 30); free capital over 30 days (free capital's, horizon_days 30); runway (the summary's, as " +
      `of today); the ${CONTEXT_TOP_SUBSCRIPTIONS} active subscriptions with the highest monthly cost in the base ` +
      "currency (week × 52 / 12, month, quarter / 3, year / 12, half even, from each charge at today's rate); the " +
      `commitments of the next ${CONTEXT_UPCOMING_DAYS} days (CommitmentItem, both directions); its ` +
      `${CONTEXT_ALERTS} latest alerts; how many approvals wait for the owner about it; its integrations (not ` +
      "disconnected); and the agents whose grants cover it, with those grants. The figures are those operations' " +
      "answers, the same numbers to the minor unit. With display_currency the summary, forecast and free-capital " +
      "figures are in that currency (each operation converts its own); monthly_base_minor and the items' " +
      "base_amount_minor stay in the base currency. Envelope fx: one FxSummary over every part's conversions (the " +
      "oldest current rate, stale if any is, every source and currency; estimated_share = the parts' amounts at a " +
      "current rate over all their amounts, 1 in another display currency); coverage: every domain of the business. Owner " +
      "only (an agent answers 403 scope_denied). Another owner's or an unknown business answers 404; an id that is not " +
      "a UUID 400. " +
      AMOUNT_RANGE_RULE +
      " A figure of the summary, forecast or free capital it is built from is named within summary_30d, " +
      "forecast_30d_totals or free_capital_30d_minor (e.g. forecast_30d_totals.run_rate.in_minor).",
  },
};
export const ZGetBusinessContextRequest = ZBusinessContextQuery.extend({ id: ZUuid });
export const ZGetBusinessContextResponse = ZBusinessContextResponse;
