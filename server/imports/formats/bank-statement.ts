// The shape every bank statement format (OFX, CAMT.053/.052, MT940, QIF) is read into by its
// thin mapper (pinned-wave3 §3), and the helpers they share: amounts to exact minor units, the
// 400 that names the line or element a malformed file breaks at.
import { AppError } from "../../errors/app-error";
import { isCurrencyCode } from "../../../lib/currencies";
import { currencyDigits } from "../../shared/currencies";

export const BANK_FORMATS = ["ofx", "camt053", "camt052", "mt940", "qif"] as const;
export type TBankFormat = (typeof BANK_FORMATS)[number];

export function isBankFormat(format: string | undefined): format is TBankFormat {
  return (BANK_FORMATS as readonly string[]).includes(format ?? "");
}

/** One booked line as the bank wrote it. `at` names where it is in the file (a line or an element path). */
export type TBankEntry = {
  /** The bank's own transaction id (OFX FITID, CAMT AcctSvcrRef else NtryRef, MT940 :61: bank reference), or null. */
  bank_id: string | null;
  occurred_on: string;
  /** Signed minor units: negative = money out. */
  amount_minor: number;
  currency: string;
  description: string;
  counterparty: string;
  counterparty_account?: string;
  reference?: string;
  at: string;
};

export type TBankBalance = { amount_minor: number; on: string };

/** One account's statement (a file may hold several, of one or more accounts). */
export type TBankAccountStatement = {
  /** The account as the file names it (an IBAN, an account number), "" when the file names none (QIF). */
  account: string;
  currency: string;
  opening?: TBankBalance;
  closing?: TBankBalance;
  entries: TBankEntry[];
};

export type TBankFile = { format: TBankFormat; statements: TBankAccountStatement[] };

/** 400 validation_error naming where the file breaks (a line number or an element). */
export function malformed(format: TBankFormat, where: string, what: string): AppError {
  const message = `The ${formatName(format)} file is malformed at ${where}: ${what}.`;
  return new AppError("validation_error", message, { details: { issues: [{ path: "file", message }], format, at: where } });
}

export function formatName(format: TBankFormat): string {
  return { ofx: "OFX", camt053: "CAMT.053", camt052: "CAMT.052", mt940: "MT940", qif: "QIF" }[format];
}

/** An ISO 4217 code in upper case, or the 400. */
export function currencyOf(format: TBankFormat, where: string, code: string | undefined): string {
  const upper = (code ?? "").trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(upper) || !isCurrencyCode(upper))
    throw malformed(format, where, `"${code ?? ""}" is not a currency code`);
  return upper;
}

/**
 * A decimal amount ("-1234.56", "1234,56", "+12", "1,234.56" with `thousands`) in exact minor
 * units of `currency`: never through a float; more fraction digits than the currency has only
 * when they are zeros.
 */
export function toMinor(
  format: TBankFormat,
  where: string,
  text: string | undefined,
  currency: string,
  options: { decimal?: "." | ","; thousands?: string } = {},
): number {
  let value = (text ?? "").trim().replace(/\s+/g, "");
  let decimal = options.decimal;
  let thousands = options.thousands;
  if (!decimal) {
    // Unstated: the last of "." and "," is the decimal mark, the other one a thousands separator.
    const dot = value.lastIndexOf(".");
    const comma = value.lastIndexOf(",");
    decimal = comma > dot ? "," : ".";
    if (dot >= 0 && comma >= 0) thousands = decimal === "," ? "." : ",";
  }
  if (thousands) value = value.split(thousands).join("");
  const match = new RegExp(`^([+-]?)(\\d*)(?:\\${decimal}(\\d*))?$`).exec(value);
  if (!match || (match[2] === "" && (match[3] ?? "") === "")) throw malformed(format, where, `"${text ?? ""}" is not an amount`);
  const digits = currencyDigits(currency);
  let fraction = match[3] ?? "";
  if (fraction.length > digits) {
    if (/[^0]/.test(fraction.slice(digits))) {
      throw malformed(format, where, `${text} has more decimals than ${currency} has (${digits})`);
    }
    fraction = fraction.slice(0, digits);
  }
  const minor = BigInt(`${match[2] || "0"}${fraction.padEnd(digits, "0")}`);
  const signed = match[1] === "-" ? -minor : minor;
  if (signed > BigInt(Number.MAX_SAFE_INTEGER) || signed < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw malformed(format, where, `${text} is out of range`);
  }
  return Number(signed);
}

/** A real calendar day YYYY-MM-DD from its parts, or the 400. */
export function dayOf(format: TBankFormat, where: string, year: number, month: number, day: number, raw: string): string {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (!(year >= 1900 && year <= 2999) || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw malformed(format, where, `"${raw}" is not a date`);
  }
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Blanks collapsed to one space, trimmed. */
export function tidy(text: string | undefined | null): string {
  return (text ?? "").replace(/\s+/g, " ").trim();
}

/** A statement's balance check (preview.balance_check): opening + rows = closing, or how far off. */
export type TBalanceCheck = {
  account: string;
  currency: string;
  opening_minor: number | null;
  closing_minor: number | null;
  /** The day of the closing balance (the cash snapshot's as_of at confirm). */
  closing_on: string | null;
  rows_sum_minor: number;
  /** closing − (opening + rows): 0 when it adds up; null without both balances. */
  difference_minor: number | null;
  ok: boolean | null;
};
