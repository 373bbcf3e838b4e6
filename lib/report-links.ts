// Where a figure of the profit and loss leads (issue 36): the ledger filtered to exactly the
// events behind it, as the Events page's address (which is also GET /v1/events' query, so a
// test can ask the API for the same events: server/reports/report-links.int.test.ts).
//   - the report's counting: counted=true (K3, K4: actual, confirmed, not a reconciled import
//     line, moving money), and state=actual so the page's State filter shows it;
//   - its period (from, to) and scope (business_id, personal; none = the whole owner);
//   - the row's side of the profit and loss (side=in|out): a row is one side of its key;
//   - the row's key: a category or none (no_category), a business or the personal finances, a
//     project or none (no_project), a type (both refunds are type refund, told apart by side).
// A total leads to its side (In, Out) or to both (Net).

/** The summary's components that group_by=type rows are keyed by, as event types. */
const TYPE_OF_COMPONENT: Record<string, string> = {
  revenue: "revenue",
  refunds_out: "refund",
  refunds_in: "refund",
  expense: "expense",
  recurring_expense: "recurring_expense",
  ad_spend: "ad_spend",
};

export type TReportLinkScope = { personal?: boolean; business_id?: string };

/** A row's cell ({ key, direction }) or a total ({ direction }, null for the net). */
export type TReportLinkTarget = { key: string | null; direction: "in" | "out" } | { direction: "in" | "out" | null };

export function reportEventsQuery(
  scope: TReportLinkScope,
  period: { start: string; end: string },
  groupBy: string,
  target: TReportLinkTarget,
): URLSearchParams {
  const params = new URLSearchParams({ state: "actual", counted: "true", from: period.start, to: period.end });
  if (scope.business_id) params.set("business_id", scope.business_id);
  if (scope.personal) params.set("personal", "true");
  if (target.direction) params.set("side", target.direction);
  if (!("key" in target)) return params;
  const key = target.key;
  if (groupBy === "category") {
    if (key === null) params.set("no_category", "true");
    else params.set("category", key);
  } else if (groupBy === "business") {
    if (key === null) params.set("personal", "true");
    else params.set("business_id", key);
  } else if (groupBy === "project") {
    if (key === null) params.set("no_project", "true");
    else params.set("project_id", key);
  } else {
    const type = key === null ? undefined : TYPE_OF_COMPONENT[key];
    if (type) params.set("type", type);
  }
  return params;
}

/** The Events page's address of a figure. */
export function reportEventsHref(...args: Parameters<typeof reportEventsQuery>): string {
  return `/events?${reportEventsQuery(...args).toString()}`;
}
