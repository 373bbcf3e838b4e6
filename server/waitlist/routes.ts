// GET /v1/waitlist: JSON (one page) or CSV (everything) on one path, so a plain route (the REST
// layer has authenticated the owner and refused agents; the readers check is the service's).
import Papa from "papaparse";
import { z } from "zod";
import { todayUtc } from "../../lib/days";
import { callerOf } from "../auth/caller";
import { fromZodError } from "../errors/to-app-error";
import { safeCsvText } from "../ledger/events-csv";
import { envelopeOutcome } from "../rest/outcome";
import type { TPlainRoute } from "../rest/plain-route";
import { ZListOf } from "../shared/pagination";
import { ZFindWaitlistQuery, ZWaitlistEntry, type TWaitlistEntry } from "./waitlist.schema";
import { assertWaitlistReader, auditWaitlistExport, findWaitlistPage, forEachWaitlistBatch } from "./waitlist-service";

export const WAITLIST_CSV_HEADER = ["email", "source", "created_at"] as const;

/** Apostrophe guard first, then RFC 4180 quoting (Papa quotes what needs it), CRLF lines. */
function csvLines(rows: string[][]): string {
  return rows.length === 0 ? "" : `${Papa.unparse(rows, { newline: "\r\n", quotes: false })}\r\n`;
}

const csvRow = (entry: TWaitlistEntry) => [safeCsvText(entry.email), safeCsvText(entry.source), entry.created_at];

const findWaitlistRoute: TPlainRoute = {
  method: "GET",
  path: "/v1/waitlist",
  access: { kind: "owner" },
  openapi: {
    operationId: "findWaitlist",
    tags: ["Waitlist"],
    summary: "Read the waitlist (JSON page or CSV)",
    description:
      "Only for the waitlist readers (WAITLIST_READERS; unset: the static owner in static mode, else the first owner " +
      "created); another owner gets 404 not_found, an agent 403 scope_denied. format=json (default): a cursor page " +
      "(limit 1 to 200, default 50), newest first, items { email, source, created_at, user_agent }; audited as " +
      "waitlist.read ({ count }). format=csv: every entry, oldest first, text/csv; charset=utf-8, header row " +
      "email,source,created_at, CRLF, RFC 4180 quoting; a value starting with =, +, -, @, a tab or a carriage return " +
      "is prefixed with an apostrophe so no spreadsheet runs it; Content-Disposition attachment; filename " +
      '"waitlist-YYYY-MM-DD.csv"; audited as waitlist.export ({ count }). Any other format: 400.',
    requestParams: { query: ZFindWaitlistQuery },
    responses: {
      "200": {
        description: "The page (format=json) or the CSV file (format=csv).",
        headers: {
          "X-Request-Id": { $ref: "#/components/headers/XRequestId" },
          "X-Service-Contract": { $ref: "#/components/headers/XServiceContract" },
        },
        content: {
          "application/json": { schema: ZListOf(ZWaitlistEntry).extend({ request_id: z.string() }) },
          "text/csv": { schema: z.string() },
        },
      },
    },
  },
  handle: async (request) => {
    const caller = callerOf(request);
    const parsed = ZFindWaitlistQuery.safeParse(Object.fromEntries(request.query));
    if (!parsed.success) throw fromZodError(parsed.error);
    const { format, ...page } = parsed.data;
    const db = await request.getDb();
    if (format === "json") return envelopeOutcome(200, await findWaitlistPage(db, caller, page));
    await assertWaitlistReader(db, caller);
    const chunks = [csvLines([[...WAITLIST_CSV_HEADER]])];
    const count = await forEachWaitlistBatch(db, (rows) => chunks.push(csvLines(rows.map(csvRow))));
    await auditWaitlistExport(db, caller, count);
    return {
      status: 200,
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="waitlist-${todayUtc(caller.now)}.csv"`,
      },
      kind: "raw",
      body: chunks.join(""),
    };
  },
};

export const waitlistPlainRoutes: TPlainRoute[] = [findWaitlistRoute];
