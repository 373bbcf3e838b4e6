// One statement row → one importable transaction, a rejection with its reason, or a skip.
// Pure and strict: nothing is guessed per row, everything follows the resolved mapping, and
// an amount is taken digit by digit from its text (never through a float, never rounded).
//
// Checks, in this order (the first that fails decides):
//   1. Non-empty cells beyond the header's width → rejected: the row is misaligned (an
//      unquoted delimiter inside a field), so no cell of it can be trusted.
//   1b. A cell holding a NUL or a lone surrogate → rejected naming the column: PostgreSQL
//      cannot store it, and a silently cleaned text would not be what the bank wrote.
//   2. The counterparty account, normalized (upper case, blanks and hyphens removed, so
//      "de89 3704-0044…" equals "DE8937040044…"), is one of the owner's own accounts →
//      skipped "own_transfer": the money moved between the owner's accounts (counted by the
//      caller, never imported).
//   3. Date, strictly in the mapping's format: day and month of 1 or 2 digits, the year as
//      the format shows ("yy" = 20yy), and a day that exists (31.02. is rejected). A time
//      after the date ("2024-05-01 13:45:00", "2024-05-01T13:45:00Z") is ignored: the date
//      as written is the statement's booking day. A day before 1900 or after 2999 is rejected.
//   4. Currency: the row's currency cell, else currencyDefault, else rejected; an unknown
//      ISO 4217 code is rejected.
//   5. Amount (see parseAmount): exact in the currency's minor units. More fraction digits
//      than the currency has are refused unless the extra digits are zeros ("12.340" EUR is
//      exactly 12.34; "12.345" is refused). A zero amount is refused (no money moved).
//      Debit/credit: exactly one of the two holds a non-zero amount; the column gives the
//      direction and a sign written inside it is ignored (some banks write debits as
//      negative numbers, some as positive). positive_is_expense negates the value.
// Texts: blanks (line breaks included) collapse to one space; description is cut to 1000
// characters, counterparty to 200, category to 100, reference to 255 (the stored limits). An
// empty description takes the counterparty's name.
import { isCurrencyCode } from "../../lib/currencies";
import { daysInMonth } from "../../lib/days";
import { currencyDigits } from "../shared/currencies";
import { isDayInRange, MAX_DAY, MIN_DAY, unsafeTextReason } from "../shared/safe-text";
import type { TDateFormat, TDecimalSeparator, TResolvedMapping, TThousandsSeparator } from "./presets";

export type TImportRow = {
  status: "ok";
  occurred_on: string;
  /** Signed minor units: negative = money out. */
  amount_minor: number;
  currency: string;
  description: string;
  counterparty: string;
  counterparty_account?: string;
  category?: string;
  reference?: string;
  /** The owner's own account the row was booked on (a mapped account column). */
  account?: string;
};

export type TNormalizedRow =
  TImportRow | { status: "rejected"; reject_reason: string } | { status: "skipped"; reason: "own_transfer" };

export type TNormalizeOptions = {
  /** ISO code for rows without a currency cell. */
  currencyDefault?: string;
  /** The owner's own account numbers (IBANs or others), any spacing or case. */
  ownAccounts?: readonly string[];
};

const LIMITS = { description: 1000, counterparty: 200, category: 100, reference: 255, account: 64 } as const;

/** An account number in its comparison form: upper case, no blanks or hyphens. */
export function normalizeAccount(account: string): string {
  return account.replace(/[\s-]+/g, "").toUpperCase();
}

// The own-account set of a list, built once per list (the caller passes the same array for
// every row of a statement).
const ownSets = new WeakMap<readonly string[], Set<string>>();
function ownSet(accounts: readonly string[]): Set<string> {
  let set = ownSets.get(accounts);
  if (!set) {
    set = new Set(accounts.map(normalizeAccount).filter((account) => account !== ""));
    ownSets.set(accounts, set);
  }
  return set;
}

/** Blanks other than single inner spaces. */
const LOOSE_BLANKS = /\s\s|[^\S ]|^ | $/;

function clean(text: string | undefined, limit: number): string {
  if (!text) return "";
  const collapsed = LOOSE_BLANKS.test(text) ? text.replace(/\s+/g, " ").trim() : text;
  return collapsed.length > limit ? collapsed.slice(0, limit).trimEnd() : collapsed;
}

// --- dates ---

const TIME = String.raw`(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?: ?(?:Z|[+-]\d{2}:?\d{2}))?)?`;
/** Per format: the pattern and the capture groups of year, month and day. */
const DATE_PATTERNS: Record<TDateFormat, { re: RegExp; y: number; m: number; d: number; short?: true }> = {
  "yyyy-mm-dd": { re: new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})${TIME}$`), y: 1, m: 2, d: 3 },
  "yyyy/mm/dd": { re: new RegExp(`^(\\d{4})/(\\d{1,2})/(\\d{1,2})${TIME}$`), y: 1, m: 2, d: 3 },
  "dd.mm.yyyy": { re: new RegExp(`^(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4})${TIME}$`), y: 3, m: 2, d: 1 },
  "dd/mm/yyyy": { re: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{4})${TIME}$`), y: 3, m: 2, d: 1 },
  "dd-mm-yyyy": { re: new RegExp(`^(\\d{1,2})-(\\d{1,2})-(\\d{4})${TIME}$`), y: 3, m: 2, d: 1 },
  "mm/dd/yyyy": { re: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{4})${TIME}$`), y: 3, m: 1, d: 2 },
  "dd.mm.yy": { re: new RegExp(`^(\\d{1,2})\\.(\\d{1,2})\\.(\\d{2})${TIME}$`), y: 3, m: 2, d: 1, short: true },
  "dd/mm/yy": { re: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{2})${TIME}$`), y: 3, m: 2, d: 1, short: true },
  "mm/dd/yy": { re: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{2})${TIME}$`), y: 3, m: 1, d: 2, short: true },
};

/** YYYY-MM-DD of a date cell in the given format, or undefined when it is not one. */
export function parseDate(text: string, format: TDateFormat): string | undefined {
  const pattern = DATE_PATTERNS[format];
  const match = pattern.re.exec(text.trim());
  if (!match) return undefined;
  const year = Number(match[pattern.y]) + (pattern.short ? 2000 : 0);
  const month = Number(match[pattern.m]);
  const day = Number(match[pattern.d]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

// --- amounts ---

export type TAmountFormat = { decimal: TDecimalSeparator; thousands: TThousandsSeparator | null };

export type TParsedAmount = { ok: true; minor: number } | { ok: false; reason: string };

const SIGNS = "+-\u2212"; // U+2212 is the typographic minus some exports write
const SYMBOLS = "$€£¥";
const GROUPED: Record<TThousandsSeparator, RegExp> = {
  ",": /^\d{1,3}(?:,\d{3})+$/,
  ".": /^\d{1,3}(?:\.\d{3})+$/,
  " ": /^\d{1,3}(?: \d{3})+$/,
  "'": /^\d{1,3}(?:'\d{3})+$/,
};

/**
 * Exact minor units of an amount cell: "1.234,56" (decimal ",", thousands ".") → 123456 for a
 * 2-digit currency. Negative: a leading or trailing minus ("-12.50", "12.50-", "−12.50") or
 * parentheses ("(12.50)"); a leading plus is allowed; one sign at most. A currency symbol
 * ($ € £ ¥) before or after the number is ignored. Thousands separators must group by three
 * ("12.34,56" is refused) and are refused when the format has none.
 */
export function parseAmount(text: string, format: TAmountFormat, currency: string): TParsedAmount {
  const unparsable = { ok: false, reason: `unparsable amount ${JSON.stringify(text.trim())}` } as const;
  let s = text.trim();
  let negative = false;
  let signs = 0;
  if (s.startsWith("(") && s.endsWith(")")) {
    negative = true;
    signs++;
    s = s.slice(1, -1).trim();
  }
  // Peel signs, symbols and blanks off both ends.
  let start = 0;
  let end = s.length;
  for (;;) {
    const c = s[start];
    if (c === undefined || start >= end) break;
    if (SIGNS.includes(c)) {
      signs++;
      negative = c !== "+";
    } else if (!SYMBOLS.includes(c) && c.trim() !== "") break;
    start++;
  }
  for (;;) {
    const c = s[end - 1];
    if (c === undefined || end <= start) break;
    if (c === "-" || c === "\u2212") {
      signs++;
      negative = true;
    } else if (!SYMBOLS.includes(c) && c.trim() !== "") break;
    end--;
  }
  if (signs > 1) return unparsable;
  s = s.slice(start, end);
  if (format.thousands === " ") s = s.replace(/[\u00a0\u202f]/g, " ");

  const point = s.indexOf(format.decimal);
  if (point !== s.lastIndexOf(format.decimal)) return unparsable;
  const whole = point < 0 ? s : s.slice(0, point);
  const fraction = point < 0 ? "" : s.slice(point + 1);
  if (!/^\d*$/.test(fraction) || (whole === "" && fraction === "")) return unparsable;
  if (!/^\d*$/.test(whole) && !(format.thousands && GROUPED[format.thousands].test(whole))) return unparsable;

  const digits = currencyDigits(currency);
  let kept = fraction;
  if (kept.length > digits) {
    if (!/^0*$/.test(kept.slice(digits))) return { ok: false, reason: `amount has more decimals than ${currency} allows` };
    kept = kept.slice(0, digits);
  }
  const units = `${whole.replace(/\D/g, "")}${kept.padEnd(digits, "0")}`;
  // A digit string converts exactly up to 2^53; anything beyond rounds to ≥ 2^53, unsafe.
  const minor = Number(units);
  if (!Number.isSafeInteger(minor)) return { ok: false, reason: "amount is too large" };
  return { ok: true, minor: negative && minor !== 0 ? -minor : minor };
}

// --- rows ---

function cell(cells: readonly string[], index: number | undefined): string {
  return index === undefined ? "" : (cells[index] ?? "").trim();
}

function rejected(reject_reason: string): TNormalizedRow {
  return { status: "rejected", reject_reason };
}

/** Signed minor units of a row under the mapping's sign convention. */
function rowAmount(cells: readonly string[], mapping: TResolvedMapping, currency: string): TParsedAmount {
  const format = { decimal: mapping.decimal_separator, thousands: mapping.thousands_separator };
  if (mapping.sign_convention !== "debit_credit") {
    const text = cell(cells, mapping.columns.amount);
    if (text === "") return { ok: false, reason: "missing amount" };
    const parsed = parseAmount(text, format, currency);
    if (!parsed.ok || mapping.sign_convention === "signed") return parsed;
    return { ok: true, minor: -parsed.minor };
  }
  const debitText = cell(cells, mapping.columns.debit);
  const creditText = cell(cells, mapping.columns.credit);
  if (debitText === "" && creditText === "") return { ok: false, reason: "neither debit nor credit is filled" };
  const debit = debitText === "" ? { ok: true as const, minor: 0 } : parseAmount(debitText, format, currency);
  if (!debit.ok) return debit;
  const credit = creditText === "" ? { ok: true as const, minor: 0 } : parseAmount(creditText, format, currency);
  if (!credit.ok) return credit;
  if (debit.minor !== 0 && credit.minor !== 0) return { ok: false, reason: "both debit and credit are filled" };
  return { ok: true, minor: debit.minor !== 0 ? -Math.abs(debit.minor) : Math.abs(credit.minor) };
}

/** One row of cells (from readStatement) under a resolved mapping (rules at the top). */
export function normalizeRow(
  cells: readonly string[],
  mapping: TResolvedMapping,
  options: TNormalizeOptions = {},
): TNormalizedRow {
  if (cells.length > mapping.width) {
    return rejected(`row has ${cells.length} fields, the header has ${mapping.width} (an unquoted delimiter inside a field?)`);
  }
  const { columns } = mapping;
  for (let i = 0; i < cells.length; i++) {
    const reason = unsafeTextReason(cells[i]!);
    if (reason) return rejected(`column ${i + 1} ${reason}`);
  }

  const accountText = cell(cells, columns.counterparty_account);
  const account = accountText === "" ? undefined : normalizeAccount(accountText);
  if (account && options.ownAccounts && ownSet(options.ownAccounts).has(account)) {
    return { status: "skipped", reason: "own_transfer" };
  }

  const dateText = cell(cells, columns.date);
  const occurred_on = parseDate(dateText, mapping.date_format);
  if (!occurred_on) return rejected(`unparsable date ${JSON.stringify(dateText)} (expected ${mapping.date_format})`);
  if (!isDayInRange(occurred_on)) return rejected(`date ${JSON.stringify(dateText)} is outside ${MIN_DAY}…${MAX_DAY}`);

  const currency = cell(cells, columns.currency).toUpperCase() || options.currencyDefault?.trim().toUpperCase() || "";
  if (currency === "") return rejected("missing currency");
  if (!/^[A-Z]{3}$/.test(currency) || !isCurrencyCode(currency)) return rejected(`unknown currency ${JSON.stringify(currency)}`);

  const amount = rowAmount(cells, mapping, currency);
  if (!amount.ok) return rejected(amount.reason);
  if (amount.minor === 0) return rejected("amount is zero");

  const counterparty = clean(cells[columns.counterparty ?? -1], LIMITS.counterparty);
  const row: TImportRow = {
    status: "ok",
    occurred_on,
    amount_minor: amount.minor,
    currency,
    description: clean(cells[columns.description], LIMITS.description) || counterparty,
    counterparty,
  };
  if (account) row.counterparty_account = account;
  const category = clean(cells[columns.category ?? -1], LIMITS.category);
  if (category) row.category = category;
  const reference = clean(cells[columns.reference ?? -1], LIMITS.reference);
  if (reference) row.reference = reference;
  const ownAccount = clean(cells[columns.account ?? -1], LIMITS.account);
  if (ownAccount) row.account = ownAccount;
  return row;
}
