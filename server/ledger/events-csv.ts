// The events list as CSV (GET /v1/events/export). Amounts are exact decimal strings of the
// integer minor units (lib/money, string arithmetic, never floats); every text cell is guarded
// against formula injection: a cell that a spreadsheet would run (= + - @, tab, CR first) gets
// an apostrophe in front, as the contract's waitlist export does. Number cells are written by
// us and only ever hold a plain decimal, so "-12.50" stays a number.
import Papa from "papaparse";
import { moneyDirection } from "../../lib/money-direction";
import { minorToMajor } from "../../lib/money";
import type { TEvent } from "./event.schema";

/** A text cell a spreadsheet will not execute. */
export function safeCsvText(value: string | null | undefined): string {
  if (value === null || value === undefined) return "";
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const decimal = (minor: number | null, currency: string | null) =>
  minor === null || currency === null ? "" : minorToMajor(minor, currency);

export type TCsvNames = { businesses: Map<string, string>; projects: Map<string, string> };

export const EVENTS_CSV_HEADER = [
  "id",
  "occurred_on",
  "type",
  "state",
  "status",
  "direction",
  "amount",
  "currency",
  "base_amount",
  "base_currency",
  "fx_rate",
  "category",
  "description",
  "counterparty",
  "business",
  "project",
  "personal",
  "source_type",
  "external_id",
  "supersedes_event_id",
  "reconciled",
  "created_at",
] as const;

function counterpartyOf(payload: Record<string, unknown>): string | null {
  return typeof payload.counterparty === "string" ? payload.counterparty : null;
}

export function eventCsvRow(event: TEvent, names: TCsvNames): string[] {
  return [
    event.id,
    event.occurred_on,
    event.type,
    event.state,
    event.status,
    moneyDirection(event.type, event.direction) ?? "",
    decimal(event.amount_minor, event.currency),
    event.currency,
    decimal(event.base_amount_minor, event.base_currency),
    event.base_currency ?? "",
    event.fx?.rate ?? "",
    safeCsvText(event.category),
    safeCsvText(event.description),
    safeCsvText(counterpartyOf(event.payload)),
    safeCsvText(event.business_id ? (names.businesses.get(event.business_id) ?? event.business_id) : null),
    safeCsvText(event.project_id ? (names.projects.get(event.project_id) ?? event.project_id) : null),
    event.personal ? "true" : "false",
    event.source_type,
    safeCsvText(event.external_id),
    event.supersedes_event_id ?? "",
    event.reconciled ? "true" : "false",
    event.created_at,
  ];
}

/** Rows (text cells already guarded with safeCsvText) to CSV text: RFC 4180 quoting by papaparse, CRLF line ends. */
export function csvRows(rows: string[][]): string {
  return rows.length === 0 ? "" : `${Papa.unparse(rows, { newline: "\r\n", quotes: false })}\r\n`;
}

/** Rows to CSV text (RFC 4180 quoting by papaparse, CRLF line ends), the header first when asked. */
export function toCsv(rows: string[][], withHeader: boolean): string {
  const text = Papa.unparse(withHeader ? [[...EVENTS_CSV_HEADER], ...rows] : rows, { newline: "\r\n", quotes: false });
  return rows.length > 0 || withHeader ? `${text}\r\n` : "";
}
