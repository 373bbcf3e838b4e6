// GET /v1/events/export: the filtered events list as a CSV file, so a plain route (the REST
// layer has authenticated the caller, checked the owner-only access and rate limit). Same
// filters and sort as GET /v1/events, every page, read in bounded batches; at most
// EXPORT_MAX_ROWS rows, beyond which the owner is asked to narrow the filters (400) rather
// than handed a cut file.
import { z } from "zod";
import { todayUtc } from "../../lib/days";
import { callerOf } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import { AppError } from "../errors/app-error";
import { fromZodError } from "../errors/to-app-error";
import type { TPlainRoute } from "../rest/plain-route";
import { ZExportEventsQuery } from "./event.schema";
import { eventCsvRow, EVENTS_CSV_HEADER, toCsv, type TCsvNames } from "./events-csv";
import { countEvents, findEventBatch } from "./ledger-service";
import type { TDbOrTx } from "../db/client";

export const EXPORT_MAX_ROWS = 50_000;
const EXPORT_BATCH = 1_000;

async function namesOf(db: TDbOrTx, ownerId: string): Promise<TCsvNames> {
  const [businesses, projects] = await Promise.all([
    db.business.findMany({ where: { ownerId }, select: { id: true, name: true } }),
    db.project.findMany({ where: { ownerId }, select: { id: true, name: true } }),
  ]);
  return {
    businesses: new Map(businesses.map((b) => [b.id, b.name])),
    projects: new Map(projects.map((p) => [p.id, p.name])),
  };
}

function tooMany(): AppError {
  return AppError.invalidField("from", `the export matches more than ${EXPORT_MAX_ROWS} events: narrow it with from and to`);
}

const exportEventsRoute: TPlainRoute = {
  method: "GET",
  path: "/v1/events/export",
  access: { kind: "owner" },
  openapi: {
    operationId: "exportEvents",
    tags: ["Events"],
    summary: "Export the filtered events as CSV",
    description:
      "Additive (issue 14). The events GET /v1/events lists with the same filters (q, category, business_id, " +
      "project_id, personal, type, state, status, source_type, currency, from, to) and sort, all pages, as one CSV file " +
      "(text/csv; charset=utf-8, RFC 4180, CRLF, a header row; Content-Disposition attachment; filename " +
      `events-YYYY-MM-DD.csv). Columns: ${EVENTS_CSV_HEADER.join(", ")}. Amounts are exact decimals in their currency's ` +
      "digits (12.34 for 1234 EUR cents), never rounded; direction is in, out or empty. A text cell that starts with " +
      "=, +, -, @, a tab or a carriage return is prefixed with an apostrophe so no spreadsheet runs it as a formula. " +
      `At most ${EXPORT_MAX_ROWS} rows: more answers 400 validation_error naming from (narrow the dates). Audited as events.exported.`,
    requestParams: { query: ZExportEventsQuery },
    responses: {
      "200": {
        description: "The CSV file.",
        headers: {
          "X-Request-Id": { $ref: "#/components/headers/XRequestId" },
          "X-Service-Contract": { $ref: "#/components/headers/XServiceContract" },
          "Content-Disposition": { description: 'attachment; filename="events-YYYY-MM-DD.csv"', schema: { type: "string" } },
        },
        content: { "text/csv": { schema: z.string() } },
      },
    },
  },
  handle: async (request) => {
    const caller = callerOf(request); // the owner: the layer checked the route's access
    const parsed = ZExportEventsQuery.safeParse(Object.fromEntries(request.query));
    if (!parsed.success) throw fromZodError(parsed.error);
    const { sort, ...filters } = parsed.data;
    const db = await request.getDb();
    if ((await countEvents(db, caller.ownerId, filters)) > EXPORT_MAX_ROWS) {
      throw tooMany();
    }
    const names = await namesOf(db, caller.ownerId);
    const chunks: string[] = [toCsv([], true)];
    let cursor: string | null = null;
    let rows = 0;
    do {
      const batch = await findEventBatch(db, caller.ownerId, filters, { sort, limit: EXPORT_BATCH, cursor });
      rows += batch.data.length;
      // Rows written while the export runs: the bound holds all the same.
      if (rows > EXPORT_MAX_ROWS) {
        throw tooMany();
      }
      chunks.push(
        toCsv(
          batch.data.map((event) => eventCsvRow(event, names)),
          false,
        ),
      );
      cursor = batch.next;
    } while (cursor !== null);
    await auditCaller(db, caller, "events.exported", null, { rows, filters: { ...filters, sort } });
    return {
      status: 200,
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="events-${todayUtc(caller.now)}.csv"`,
      },
      kind: "raw",
      body: chunks.join(""),
    };
  },
};

export const ledgerPlainRoutes: TPlainRoute[] = [exportEventsRoute];
