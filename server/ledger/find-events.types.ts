import { ZListOf } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZEvent, ZFindEventsQuery } from "./event.schema";

export const findEventsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/events",
    tags: ["Events"],
    summary: "List financial events",
    description:
      "Every event of the owner, newest first (created_at desc, id desc) unless sort names another order. Filters combine " +
      "with AND: business_id, project_id, personal, type, state, status, source_type, currency, from/to on occurred_on " +
      "(both inclusive), and (additive, issue 14) q, a case-insensitive search of description, category and counterparty, " +
      "and category. GET /v1/events/totals sums the same rows; GET /v1/events/export downloads them as CSV. Voided events " +
      "are listed with status voided and reconciled import lines with reconciled true; aggregates exclude both. Planned " +
      "events carry base amounts at the current rate (fx.kind current).",
  },
};
export const ZFindEventsRequest = ZFindEventsQuery;
export const ZFindEventsResponse = ZListOf(ZEvent);
