// The reports as files (?format=csv|xlsx, pinned-wave3 §4), made from the JSON answer itself so
// a file never says anything the envelope does not. CSV: the events export's rules (csvRows:
// RFC 4180, CRLF; text cells guarded by safeCsvText so no spreadsheet runs a formula; amounts
// as exact decimals in the currency's digits). XLSX: one sheet, amounts as real numbers (the
// same exact decimals), days as real dates.
import { currencyDigits, minorToMajor } from "../../lib/money";
import { csvRows, safeCsvText } from "../ledger/events-csv";
import type { TResponseFile } from "../trpc/meta";
import { FILE_MEDIA_TYPES } from "../trpc/meta";
import type { TCashHistory, TProfitAndLoss, TReportFormat } from "./report.schema";
import { xlsxFile, type TXlsxCell } from "./xlsx";

type TTable = { head: TXlsxCell[]; rows: TXlsxCell[][] };

const text = (value: string): TXlsxCell => ({ text: value });

function money(minor: number, currency: string): TXlsxCell {
  return { number: minorToMajor(minor, currency), decimals: currencyDigits(currency) };
}

function csvCell(cell: TXlsxCell): string {
  if (cell === null) return "";
  if ("text" in cell) return safeCsvText(cell.text);
  if ("date" in cell) return cell.date;
  return cell.number;
}

function fileOf(format: Exclude<TReportFormat, "json">, name: string, table: TTable): TResponseFile {
  const all = [table.head, ...table.rows];
  return {
    contentType: format === "csv" ? `${FILE_MEDIA_TYPES.csv}; charset=utf-8` : FILE_MEDIA_TYPES.xlsx,
    filename: `${name}.${format}`,
    body: format === "csv" ? csvRows(all.map((row) => row.map(csvCell))) : xlsxFile(name.slice(0, 31), all),
  };
}

/**
 * Profit and loss: a header (label, key, direction, currency, each period's first day, total),
 * a row per report row, then Total in, Total out and Net.
 */
export function profitAndLossFile(data: TProfitAndLoss, format: Exclude<TReportFormat, "json">): TResponseFile {
  const currency = data.currency;
  const periodHead = (start: string): TXlsxCell => (format === "xlsx" ? { date: start } : text(start));
  const head = [
    text("label"),
    text("key"),
    text("direction"),
    text("currency"),
    ...data.periods.map((p) => periodHead(p.start)),
    text("total"),
  ];
  const line = (label: string, key: string | null, direction: string, amounts: number[], total: number): TXlsxCell[] => [
    text(label),
    text(key ?? ""),
    text(direction),
    text(currency),
    ...amounts.map((a) => money(a, currency)),
    money(total, currency),
  ];
  const t = data.totals;
  const rows = [
    ...data.rows.map((r) => line(r.label, r.key, r.direction, r.amounts_minor, r.total_minor)),
    line("Total in", null, "in", t.in_minor, t.in_total_minor),
    line("Total out", null, "out", t.out_minor, t.out_total_minor),
    line("Net", null, "", t.net_minor, t.net_total_minor),
  ];
  return fileOf(format, `profit-and-loss-${data.from}-${data.to}`, { head, rows });
}

/** Cash history: date, cash, currency, source; one row a day. */
export function cashHistoryFile(data: TCashHistory, format: Exclude<TReportFormat, "json">): TResponseFile {
  const head = [text("date"), text("cash"), text("currency"), text("source")];
  const rows = data.days.map((d): TXlsxCell[] => [
    format === "xlsx" ? { date: d.date } : text(d.date),
    d.cash_minor === undefined ? null : money(d.cash_minor, data.currency),
    text(data.currency),
    text(d.source),
  ]);
  return fileOf(format, `cash-history-${data.from}-${data.to}`, { head, rows });
}
