// GET /v1/exports/ledger (pinned-wave3 §4): the ledger as Beancount or hledger text, streamed,
// so a plain route (the REST layer has authenticated the owner and refused agents).
import { z } from "zod";
import { callerOf } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import { fromZodError } from "../errors/to-app-error";
import { errorFields } from "../log";
import { readOwnerDay } from "../read-models/period";
import type { TPlainRoute } from "../rest/plain-route";
import { ZDate } from "../shared/schemas";
import { LEDGER_FORMATS, ledgerExport } from "./ledger-export";

export const ZExportLedgerQuery = z
  .object({
    format: z.enum(LEDGER_FORMATS).describe("beancount (a .beancount file) or hledger (a .journal file)."),
    from: ZDate.optional().describe("First day (inclusive, on occurred_on and the snapshots' owner day). Default: the first."),
    to: ZDate.optional().describe("Last day (inclusive). Default: the last."),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "must not be after to", path: ["from"] });

const EXTENSIONS = { beancount: "beancount", hledger: "journal" } as const;

const exportLedgerRoute: TPlainRoute = {
  method: "GET",
  path: "/v1/exports/ledger",
  access: { kind: "owner" },
  openapi: {
    operationId: "exportLedger",
    tags: ["Reports"],
    summary: "Export the ledger as Beancount or hledger double entry",
    description:
      "Additive (issue 36). The owner's counted actual events that move money (K3, K4: as every read model counts; " +
      "voided, reconciled duplicates, planned, subscription_change and agent_action left out) and cash snapshots, in " +
      "occurred_on order, as plain-text double entry that bean-check and hledger check accept; streamed (text/plain; " +
      "charset=utf-8, Content-Disposition attachment; filename ledger-YYYY-MM-DD.beancount or .journal). One account " +
      "tree per business (Business:<Name>) and for the personal finances (Personal): Assets:<S>:Cash takes each event " +
      "in its original currency, with the event's frozen rate as a total price (@@ <base amount> <base currency>) when " +
      "it is not the base; Income:<S>:Revenue, Income:<S>:Refunds (refunds of revenue), Expenses:<S>:Costs:<Category> " +
      "(expense, recurring_expense; Uncategorized without one), Expenses:<S>:Advertising (ad_spend), " +
      "Expenses:<S>:Refunds (refunds of costs) take the base amounts, so their balances are the reports' figures. Each " +
      "bank account's latest snapshot of a day is a balance assertion on Assets:<S>:Bank:<Account> (Beancount: balance " +
      "the next day; hledger: = on the posting), reached by an adjustment from Equity:<S>:Snapshots. from and to " +
      "(optional, inclusive) cut the period; from after to answers 400. Audited as ledger.exported.",
    requestParams: { query: ZExportLedgerQuery },
    responses: {
      "200": {
        description: "The ledger file.",
        headers: {
          "X-Request-Id": { $ref: "#/components/headers/XRequestId" },
          "X-Service-Contract": { $ref: "#/components/headers/XServiceContract" },
          "Content-Disposition": {
            description: 'attachment; filename="ledger-YYYY-MM-DD.beancount" (or .journal)',
            schema: { type: "string" },
          },
        },
        content: { "text/plain": { schema: z.string() } },
      },
    },
  },
  handle: async (request) => {
    const caller = callerOf(request); // the owner: the layer checked the route's access
    const parsed = ZExportLedgerQuery.safeParse(Object.fromEntries(request.query));
    if (!parsed.success) throw fromZodError(parsed.error);
    const query = parsed.data;
    const db = await request.getDb();
    const day = await readOwnerDay(db, caller.ownerId, request.clock);
    await auditCaller(db, caller, "ledger.exported", null, {
      format: query.format,
      from: query.from ?? null,
      to: query.to ?? null,
    });
    const chunks = ledgerExport(db, day, query);
    // The first chunk (the accounts) before the answer starts: a failure there is still an error answer.
    const first = await chunks.next();
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        if (first.done) controller.close();
        else controller.enqueue(encoder.encode(first.value));
      },
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          request.log.error("ledger export failed while streaming", errorFields(error));
          controller.error(error);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    return {
      status: 200,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Disposition": `attachment; filename="ledger-${day.today}.${EXTENSIONS[query.format]}"`,
      },
      kind: "raw",
      body: "",
      stream,
    };
  },
};

export const reportPlainRoutes: TPlainRoute[] = [exportLedgerRoute];
