// SWIFT MT940 customer statements: one or more statements (each :20: … :62F:/:62M:), in SWIFT
// blocks ({1:…}{2:…}{4: … -}) or bare. Fields start a line with :tag:; any other line continues
// the field before it. :60F:/:60M: opening and :62F:/:62M: closing balance (D/C mark, YYMMDD,
// currency, amount with a decimal comma); :61: one line (value date, optional booking date MMDD,
// D/C or RC/RD for a reversal, amount, type, customer reference, //bank reference, then the
// supplementary details on the next line); :86: its details over several lines, with the German
// structured subfields (?00 posting text, ?20–?29 remittance, ?30 bank, ?31 account, ?32–?33
// name) when they are used.
import {
  currencyOf,
  dayOf,
  malformed,
  tidy,
  toMinor,
  type TBankAccountStatement,
  type TBankBalance,
  type TBankEntry,
  type TBankFile,
} from "./bank-statement";

type TField = { tag: string; value: string; line: number };

export function looksLikeMt940(text: string): boolean {
  const head = text.slice(0, 8192);
  return /^:20:/m.test(head) && /^:25:/m.test(head) && /^:6[02][FM]:/m.test(head);
}

function fieldsOf(text: string): TField[] {
  const fields: TField[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    let value = raw;
    // SWIFT block framing: {1:…}{2:…}{4: opens the text, -} closes it.
    value = value.replace(/^(\{[0-9]:[^{}]*\})*\{4:/, "");
    if (/^-\}/.test(value.trim()) || value.trim() === "-" || /^\{5:/.test(value.trim())) return;
    if (value.trim() === "" && fields.length === 0) return;
    const tag = /^:([0-9]{2}[A-Z]?):(.*)$/.exec(value);
    if (tag) fields.push({ tag: tag[1]!, value: tag[2]!, line });
    else if (fields.length > 0) fields[fields.length - 1]!.value += `\n${value}`;
    else if (value.trim() !== "") throw malformed("mt940", `line ${line}`, "text before the first field");
  });
  return fields;
}

function yymmdd(where: string, raw: string): { year: number; day: string } {
  const match = /^(\d{2})(\d{2})(\d{2})$/.exec(raw);
  if (!match) throw malformed("mt940", where, `"${raw}" is not a YYMMDD date`);
  const yy = Number(match[1]);
  const year = yy < 80 ? 2000 + yy : 1900 + yy;
  return { year, day: dayOf("mt940", where, year, Number(match[2]), Number(match[3]), raw) };
}

function balanceOf(field: TField): { currency: string; balance: TBankBalance } {
  const where = `line ${field.line} (:${field.tag}:)`;
  const match = /^([CD])(\d{6})([A-Z]{3})([\d,]+)\s*$/.exec(field.value.trim());
  if (!match) throw malformed("mt940", where, `"${field.value.trim()}" is not a balance (D/C, YYMMDD, currency, amount)`);
  const currency = currencyOf("mt940", where, match[3]);
  const minor = toMinor("mt940", where, match[4], currency, { decimal: "," });
  return { currency, balance: { amount_minor: match[1] === "D" ? -minor : minor, on: yymmdd(where, match[2]!).day } };
}

/** :86: → description, counterparty and account (structured ?nn subfields when present). */
function details(value: string): { description: string; counterparty: string; account?: string; reference?: string } {
  const joined = value.replace(/\r?\n/g, "");
  if (!/^\d{3}\?\d{2}/.test(joined) && !/^\?\d{2}/.test(joined)) {
    return { description: tidy(value.replace(/\r?\n/g, " ")), counterparty: "" };
  }
  const parts = new Map<string, string>();
  for (const match of joined.matchAll(/\?(\d{2})([^?]*)/g)) parts.set(match[1]!, (parts.get(match[1]!) ?? "") + match[2]!);
  const remittance = [...parts.entries()]
    .filter(([key]) => (key >= "20" && key <= "29") || (key >= "60" && key <= "63"))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, text]) => text)
    .join("");
  const counterparty = tidy(`${parts.get("32") ?? ""}${parts.get("33") ?? ""}`);
  // SEPA keywords in the remittance (EREF+ end-to-end id, SVWZ+ the payer's text, …).
  const keyed = new Map<string, string>();
  const pieces = remittance.split(/(EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA|ABWE|IBAN|BIC)\+/);
  for (let i = 1; i + 1 < pieces.length; i += 2) keyed.set(pieces[i]!, tidy(pieces[i + 1]));
  const text = keyed.size > 0 ? (keyed.get("SVWZ") ?? tidy(pieces[0])) : tidy(remittance);
  return {
    description: text || tidy(parts.get("00")) || counterparty,
    counterparty,
    account: tidy(parts.get("31")) || undefined,
    reference: keyed.get("EREF") && keyed.get("EREF") !== "NOTPROVIDED" ? keyed.get("EREF") : undefined,
  };
}

export function parseMt940(text: string): TBankFile {
  const fields = fieldsOf(text);
  const statements: TBankAccountStatement[] = [];
  let current: (TBankAccountStatement & { startLine: number; closed: boolean }) | undefined;
  let last: TBankEntry | undefined;
  const finish = () => {
    if (!current) return;
    if (!current.closed) {
      throw malformed(
        "mt940",
        `line ${current.startLine} (:20:)`,
        "the statement has no closing balance :62F: (the file is truncated)",
      );
    }
    const { startLine: _line, closed: _closed, ...statement } = current;
    statements.push(statement);
    current = undefined;
  };
  for (const field of fields) {
    const where = `line ${field.line} (:${field.tag}:)`;
    if (field.tag === "20") {
      finish();
      current = { account: "", currency: "", entries: [], startLine: field.line, closed: false };
      last = undefined;
      continue;
    }
    if (!current) throw malformed("mt940", where, "a field before the statement's :20:");
    if (current.closed && field.tag !== "64" && field.tag !== "65" && field.tag !== "86") {
      throw malformed("mt940", where, "a field after the closing balance :62F:");
    }
    switch (field.tag) {
      case "25":
        current.account = tidy(field.value).replace(/\/[A-Z]{3}$/, "");
        break;
      case "60F":
      case "60M": {
        const { currency, balance } = balanceOf(field);
        current.currency = currency;
        current.opening = balance;
        break;
      }
      case "61": {
        if (!current.currency) throw malformed("mt940", where, "a transaction before the opening balance :60F:");
        const [first = "", ...more] = field.value.split("\n");
        const match = /^(\d{6})(\d{4})?(R?[CD])([A-Z])?(\d[\d,]*)([NSF][A-Z0-9]{3})(.*)$/.exec(first.trim());
        if (!match) throw malformed("mt940", where, `"${first.trim()}" is not a transaction line`);
        const value = yymmdd(where, match[1]!);
        let occurred_on = value.day;
        if (match[2]) {
          const month = Number(match[2].slice(0, 2));
          const valueMonth = Number(match[1]!.slice(2, 4));
          const year = value.year + (month === 12 && valueMonth === 1 ? -1 : month === 1 && valueMonth === 12 ? 1 : 0);
          occurred_on = dayOf("mt940", where, year, month, Number(match[2].slice(2, 4)), match[2]);
        }
        const minor = toMinor("mt940", where, match[5], current.currency, { decimal: "," });
        const mark = match[3]!;
        // RC: a reversal of a credit (money out); RD: a reversal of a debit (money in).
        const out = mark === "D" || mark === "RC";
        const [customerRef = "", bankRef = ""] = (match[7] ?? "").split("//");
        const customer = tidy(customerRef);
        last = {
          bank_id: tidy(bankRef) || null,
          occurred_on,
          amount_minor: out ? -minor : minor,
          currency: current.currency,
          description: tidy(more.join(" ")),
          counterparty: "",
          reference: customer && customer !== "NONREF" ? customer : undefined,
          at: where,
        };
        if (mark.startsWith("R")) last.description = `Reversal: ${last.description}`.trim();
        current.entries.push(last);
        break;
      }
      case "86": {
        if (!last) break; // the statement's own information line
        const read = details(field.value);
        const reversal = last.description.startsWith("Reversal:");
        last.description = (reversal ? `Reversal: ${read.description}` : read.description || last.description).trim();
        last.counterparty = read.counterparty;
        if (read.account) last.counterparty_account = read.account;
        if (read.reference && !last.reference) last.reference = read.reference;
        break;
      }
      case "62F":
      case "62M": {
        const { currency, balance } = balanceOf(field);
        if (current.currency && currency !== current.currency) {
          throw malformed("mt940", where, `the closing balance is in ${currency}, the opening in ${current.currency}`);
        }
        current.currency ||= currency;
        current.closing = balance;
        current.closed = true;
        last = undefined;
        break;
      }
      default:
        break;
    }
  }
  finish();
  for (const statement of statements) {
    if (!statement.account) throw malformed("mt940", "a statement", "no account :25:");
  }
  if (statements.length === 0) throw malformed("mt940", "line 1", "no statement (:20:)");
  return { format: "mt940", statements };
}
