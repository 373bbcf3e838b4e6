// QIF (Quicken Interchange Format) bank sections: !Type:Bank, Cash, CCard, Oth A, Oth L; other
// sections (investments, categories, classes, memorized payees, options) are passed over. A
// record is lines of one letter and a value, ended by ^: D date, T (or U) amount, P payee,
// M memo, N check number, L category. QIF carries no currency (the upload's currency_default,
// else the business's) and no bank id (rows dedupe by the hash rule), and the account name
// of a preceding !Account block when there is one.
//
// Dates come in the styles Quicken and its imitators wrote: 12/31/2024, 12/31/24, 12/31'24
// (the apostrophe marks 2000 and later), 1/ 5/24 (blank-padded), 31.12.2024, 2024-12-31.
// Day-first or month-first is decided for the whole file: month-first (Quicken's US default)
// unless a date has a first part above 12.
import { dayOf, malformed, tidy, toMinor, type TBankEntry, type TBankFile } from "./bank-statement";

const BANK_TYPES = /^!Type:(Bank|Cash|CCard|Oth A|Oth L)\s*$/i;

export function looksLikeQif(text: string): boolean {
  return /^\s*!(Type:|Account|Option:|Clear:)/i.test(text.slice(0, 256));
}

type TRecord = { line: number; fields: Map<string, string>; account: string };

function amountText(where: string, raw: string): { text: string; decimal: "." | ","; thousands?: string } {
  const value = raw.trim().replace(/\s+/g, "");
  const lastDot = value.lastIndexOf(".");
  const lastComma = value.lastIndexOf(",");
  if (lastDot >= 0 && lastComma >= 0) {
    return lastDot > lastComma ? { text: value, decimal: ".", thousands: "," } : { text: value, decimal: ",", thousands: "." };
  }
  if (lastComma >= 0) {
    // "1,234" is a thousands separator (QIF is a US format); "12,34" a decimal comma.
    return /,\d{3}$/.test(value) ? { text: value, decimal: ".", thousands: "," } : { text: value, decimal: "," };
  }
  void where;
  return { text: value, decimal: "." };
}

type TDateParts = { a: number; b: number; year: number; raw: string; iso: boolean; dotted: boolean };

function dateParts(where: string, raw: string): TDateParts {
  const value = raw.trim();
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value);
  if (match) return { a: Number(match[2]), b: Number(match[3]), year: Number(match[1]), raw, iso: true, dotted: false };
  match = /^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{2}|\d{4})$/.exec(value);
  if (match) {
    const y = Number(match[3]);
    return {
      a: Number(match[1]),
      b: Number(match[2]),
      year: match[3]!.length === 2 ? 2000 + y : y,
      raw,
      iso: false,
      dotted: true,
    };
  }
  match = /^\s*(\d{1,2})\s*[/-]\s*(\d{1,2})\s*(['/-])\s*(\d{2}|\d{4})$/.exec(value);
  if (match) {
    const y = Number(match[4]);
    // Two-digit years: an apostrophe means 2000 and later; a slash means 19yy from 70, else 20yy.
    const year = match[4]!.length === 4 ? y : match[3] === "'" ? 2000 + y : y >= 70 ? 1900 + y : 2000 + y;
    return { a: Number(match[1]), b: Number(match[2]), year, raw, iso: false, dotted: false };
  }
  throw malformed("qif", where, `"${raw}" is not a date`);
}

export function parseQif(text: string, currency: string): TBankFile {
  const lines = text.split(/\r\n|\r|\n/);
  const records: TRecord[] = [];
  let inBank = false;
  let inAccount = false;
  let account = "";
  let accountName = "";
  let open: TRecord | undefined;
  lines.forEach((raw, index) => {
    const line = index + 1;
    const value = raw.replace(/\s+$/, "");
    if (value === "") return;
    if (value.startsWith("!")) {
      if (open && open.fields.size > 0) throw malformed("qif", `line ${open.line}`, "the record does not end with ^");
      open = undefined;
      if (/^!Account\s*$/i.test(value)) {
        inAccount = true;
        inBank = false;
        accountName = "";
        return;
      }
      inAccount = false;
      if (/^!(Option|Clear):/i.test(value)) return;
      inBank = BANK_TYPES.test(value);
      return;
    }
    if (inAccount) {
      if (value === "^") {
        account = accountName;
        inAccount = false;
      } else if (value[0] === "N") accountName = tidy(value.slice(1));
      return;
    }
    if (!inBank) return;
    if (value === "^") {
      if (open) records.push(open);
      open = undefined;
      return;
    }
    open ??= { line, fields: new Map(), account };
    const key = value[0]!;
    // Split lines (S, E, $) belong to the record; only its total counts.
    if (!open.fields.has(key)) open.fields.set(key, value.slice(1));
  });
  if (open && open.fields.size > 0)
    throw malformed("qif", `line ${open.line}`, "the record does not end with ^ (the file is truncated)");
  if (records.length === 0 && !lines.some((l) => BANK_TYPES.test(l.trim()))) {
    throw malformed("qif", "line 1", "no bank section (!Type:Bank, Cash, CCard, Oth A or Oth L)");
  }

  const dates = records.map((record) => {
    const raw = record.fields.get("D");
    if (raw === undefined) throw malformed("qif", `line ${record.line}`, "the record has no date (D)");
    return dateParts(`line ${record.line} (D)`, raw);
  });
  const dayFirst = dates.some((d) => d.dotted || (!d.iso && d.a > 12));
  const byAccount = new Map<string, TBankEntry[]>();
  records.forEach((record, i) => {
    const d = dates[i]!;
    const where = `line ${record.line}`;
    const [month, day] = d.iso ? [d.a, d.b] : dayFirst ? [d.b, d.a] : [d.a, d.b];
    const amountRaw = record.fields.get("T") ?? record.fields.get("U");
    if (amountRaw === undefined) throw malformed("qif", where, "the record has no amount (T)");
    const amount = amountText(where, amountRaw);
    const payee = tidy(record.fields.get("P"));
    const entry: TBankEntry = {
      bank_id: null,
      occurred_on: dayOf("qif", `${where} (D)`, d.year, month, day, d.raw),
      amount_minor: toMinor("qif", `${where} (T)`, amount.text, currency, amount),
      currency,
      description: tidy(record.fields.get("M")) || payee,
      counterparty: payee,
      reference: tidy(record.fields.get("N")) || undefined,
      at: where,
    };
    const list = byAccount.get(record.account) ?? [];
    list.push(entry);
    byAccount.set(record.account, list);
  });
  const statements = [...byAccount.entries()].map(([name, entries]) => ({ account: name, currency, entries }));
  return { format: "qif", statements: statements.length ? statements : [{ account: "", currency, entries: [] }] };
}
