// How a statement's columns become event fields: the presets (GET /v1/imports/presets), the
// owner's `mapping` override (contract: Import rules 1) and their resolution against the
// header the file actually has.
//
// A preset names, per field, the header names it looks for (candidates, first match wins),
// compared trimmed, case-insensitively, with inner blanks collapsed. A candidate column is
// used by one field only: a later field never takes a column an earlier field took (fields
// resolve in the order of FIELDS), except when the owner's mapping names it explicitly.
//
// The generic preset's guesses (English, plus the German names that many EU exports keep):
//   date          date, booking date, transaction date, posting date, posted date, completed
//                 date, value date, buchungstag, buchungsdatum, datum  (booking before value date:
//                 the booking date is when the money moved on the statement)
//   amount        amount, transaction amount, value, betrag
//   debit/credit  debit, debit amount, withdrawal(s), paid out, money out /
//                 credit, credit amount, deposit(s), paid in, money in
//   currency      currency, currency code, ccy, währung
//   description   description, details, transaction details, memo, narrative, purpose,
//                 verwendungszweck, buchungstext, payee (the last resort)
//   counterparty  counterparty, counterparty name, name, payee, payee name, merchant,
//                 beneficiary, recipient
//   counterparty_account  counterparty account, counterparty iban, iban, payee account, payee
//                 iban, beneficiary account, beneficiary iban. A bare "account" is NOT
//                 guessed: in multi-account exports it names the owner's own account, and
//                 every row would look like a transfer between own accounts.
//   category      category
//   reference     reference, transaction reference, transaction id, ref
//   account       (never guessed: named in the mapping) the owner's own account of the row
// The generic preset reads ISO dates (yyyy-mm-dd) and a decimal point; anything else is set
// in the mapping (date_format, decimal_separator, thousands_separator).
import { z } from "zod";
import { AppError } from "../errors/app-error";
import { DELIMITERS, type TDelimiter } from "./csv-reader";
import { FIELDS, requiredFields, SIGN_CONVENTIONS, type TField, type TSignConvention } from "./mapping-fields";

/** Date layouts, read strictly: day and month may have 1 or 2 digits, the year as shown. */
export const DATE_FORMATS = [
  "yyyy-mm-dd",
  "yyyy/mm/dd",
  "dd.mm.yyyy",
  "dd/mm/yyyy",
  "dd-mm-yyyy",
  "mm/dd/yyyy",
  "dd.mm.yy",
  "dd/mm/yy",
  "mm/dd/yy",
] as const;
export type TDateFormat = (typeof DATE_FORMATS)[number];

export const DECIMAL_SEPARATORS = [".", ","] as const;
export type TDecimalSeparator = (typeof DECIMAL_SEPARATORS)[number];

/** " " also accepts the no-break spaces (U+00A0, U+202F) that exports write for it. */
export const THOUSANDS_SEPARATORS = [",", ".", " ", "'"] as const;
export type TThousandsSeparator = (typeof THOUSANDS_SEPARATORS)[number];

/**
 * signed: one amount column, negative = money out. debit_credit: a debit column (money out)
 * and a credit column (money in), one of them filled per row. positive_is_expense: one
 * amount column where a positive value is spending (card statements); negative = refunds,
 * payments to the card.
 */
export { SIGN_CONVENTIONS, type TSignConvention };

export { FIELDS, type TField };

export type TImportPreset = {
  id: string;
  name: string;
  description: string;
  /** Undefined: detected from the file. */
  delimiter?: TDelimiter;
  date_format: TDateFormat;
  decimal_separator: TDecimalSeparator;
  thousands_separator?: TThousandsSeparator;
  sign_convention: TSignConvention;
  /** Header names per field, first match wins. */
  columns: Partial<Record<TField, readonly string[]>>;
};

const GENERIC: TImportPreset = {
  id: "generic",
  name: "Generic CSV",
  description:
    "Any CSV or TSV with a header row. Columns are guessed from common header names; dates yyyy-mm-dd and a decimal point unless the mapping says otherwise.",
  date_format: "yyyy-mm-dd",
  decimal_separator: ".",
  sign_convention: "signed",
  columns: {
    date: [
      "date",
      "booking date",
      "transaction date",
      "posting date",
      "posted date",
      "completed date",
      "value date",
      "buchungstag",
      "buchungsdatum",
      "datum",
    ],
    amount: ["amount", "transaction amount", "value", "betrag"],
    debit: ["debit", "debit amount", "withdrawal", "withdrawals", "paid out", "money out"],
    credit: ["credit", "credit amount", "deposit", "deposits", "paid in", "money in"],
    currency: ["currency", "currency code", "ccy", "währung"],
    description: [
      "description",
      "details",
      "transaction details",
      "memo",
      "narrative",
      "purpose",
      "verwendungszweck",
      "buchungstext",
      "payee",
    ],
    counterparty: ["counterparty", "counterparty name", "name", "payee", "payee name", "merchant", "beneficiary", "recipient"],
    counterparty_account: [
      "counterparty account",
      "counterparty iban",
      "iban",
      "payee account",
      "payee iban",
      "beneficiary account",
      "beneficiary iban",
    ],
    category: ["category"],
    reference: ["reference", "transaction reference", "transaction id", "ref"],
  },
};

export const IMPORT_PRESETS: readonly TImportPreset[] = [
  GENERIC,
  {
    id: "bank_eu_semicolon",
    name: "EU bank (semicolon, dd.mm.yyyy)",
    description:
      "Continental European bank export: semicolon-separated, dates dd.mm.yyyy, decimal comma with dot thousands (1.234,56), one signed amount column.",
    delimiter: ";",
    date_format: "dd.mm.yyyy",
    decimal_separator: ",",
    thousands_separator: ".",
    sign_convention: "signed",
    columns: {
      date: ["Booking date", "Buchungstag", "Buchungsdatum", "Date"],
      amount: ["Amount", "Betrag", "Betrag (EUR)"],
      currency: ["Currency", "Währung", "Waehrung"],
      description: ["Purpose", "Verwendungszweck", "Description", "Buchungstext"],
      counterparty: ["Counterparty", "Beguenstigter/Zahlungspflichtiger", "Name Zahlungsbeteiligter", "Payee"],
      counterparty_account: ["Counterparty IBAN", "Kontonummer/IBAN", "IBAN Zahlungsbeteiligter", "IBAN"],
      category: ["Category", "Kategorie"],
      reference: ["Reference", "Kundenreferenz (End-to-End)", "Kundenreferenz"],
    },
  },
  {
    id: "bank_uk_debit_credit",
    name: "UK bank (debit and credit columns)",
    description:
      "British bank export: comma-separated, dates dd/mm/yyyy, decimal point, money out and money in in separate Debit and Credit columns.",
    delimiter: ",",
    date_format: "dd/mm/yyyy",
    decimal_separator: ".",
    thousands_separator: ",",
    sign_convention: "debit_credit",
    columns: {
      date: ["Date", "Transaction Date"],
      debit: ["Debit", "Debit Amount", "Paid out", "Money out"],
      credit: ["Credit", "Credit Amount", "Paid in", "Money in"],
      currency: ["Currency"],
      description: ["Description", "Transaction Description", "Details"],
      counterparty: ["Payee", "Counterparty"],
      counterparty_account: ["Counterparty Account"],
      category: ["Category"],
      reference: ["Reference"],
    },
  },
  {
    id: "bank_us_signed",
    name: "US bank (signed amount, mm/dd/yyyy)",
    description:
      "American bank export: comma-separated, dates mm/dd/yyyy, decimal point with comma thousands, one signed Amount column (negative = money out).",
    delimiter: ",",
    date_format: "mm/dd/yyyy",
    decimal_separator: ".",
    thousands_separator: ",",
    sign_convention: "signed",
    columns: {
      date: ["Posting Date", "Date", "Transaction Date"],
      amount: ["Amount"],
      currency: ["Currency"],
      description: ["Description"],
      counterparty: ["Payee", "Merchant"],
      category: ["Category"],
      reference: ["Check or Slip #", "Check Number", "Reference"],
    },
  },
  {
    id: "card_statement",
    name: "Card statement (positive = spending)",
    description:
      "Credit card export: comma-separated, dates yyyy-mm-dd, decimal point, positive amounts are purchases and negative amounts refunds or payments.",
    delimiter: ",",
    date_format: "yyyy-mm-dd",
    decimal_separator: ".",
    thousands_separator: ",",
    sign_convention: "positive_is_expense",
    columns: {
      date: ["Transaction Date", "Date"],
      amount: ["Amount", "Billing Amount"],
      currency: ["Currency", "Billing Currency"],
      description: ["Description", "Details"],
      counterparty: ["Merchant", "Merchant Name"],
      category: ["Category"],
      reference: ["Reference", "Transaction ID"],
    },
  },
  {
    id: "bank_nordic_tab",
    name: "Nordic bank (tab-separated, ISO dates)",
    description:
      "Northern European bank export: tab-separated, dates yyyy-mm-dd, decimal comma with space thousands (1 234,56), one signed amount column.",
    delimiter: "\t",
    date_format: "yyyy-mm-dd",
    decimal_separator: ",",
    thousands_separator: " ",
    sign_convention: "signed",
    columns: {
      date: ["Booking date", "Date"],
      amount: ["Amount"],
      currency: ["Currency"],
      description: ["Text", "Description"],
      counterparty: ["Counterparty", "Recipient"],
      counterparty_account: ["Counterparty account"],
      category: ["Category"],
      reference: ["Reference"],
    },
  },
  {
    id: "fintech_multi_currency",
    name: "Multi-currency account",
    description:
      "Online multi-currency account export: comma-separated, ISO dates (a time after the date is ignored), decimal point, a signed Amount and a Currency per row.",
    delimiter: ",",
    date_format: "yyyy-mm-dd",
    decimal_separator: ".",
    sign_convention: "signed",
    columns: {
      date: ["Completed Date", "Date", "Started Date"],
      amount: ["Amount"],
      currency: ["Currency"],
      description: ["Description"],
      counterparty: ["Payee Name", "Counterparty"],
      counterparty_account: ["Payee Account", "Counterparty IBAN"],
      category: ["Category"],
      reference: ["Transaction ID", "Reference"],
    },
  },
];

export function findPreset(id: string): TImportPreset | undefined {
  return IMPORT_PRESETS.find((preset) => preset.id === id);
}

/** A header name; null removes a column the preset would otherwise use. */
const ZColumnName = z.string().trim().min(1, { message: "must not be empty" }).max(200).nullable();

/** The owner's override of a preset (the `mapping` JSON of POST /v1/imports and confirm). */
export const ZImportMapping = z
  .strictObject({
    delimiter: z.enum(DELIMITERS).optional(),
    date_format: z.enum(DATE_FORMATS).optional(),
    decimal_separator: z.enum(DECIMAL_SEPARATORS).optional(),
    thousands_separator: z.enum(THOUSANDS_SEPARATORS).nullable().optional().describe("null: no thousands separator."),
    sign_convention: z.enum(SIGN_CONVENTIONS).optional(),
    columns: z
      .strictObject({
        date: ZColumnName.optional(),
        amount: ZColumnName.optional(),
        debit: ZColumnName.optional(),
        credit: ZColumnName.optional(),
        currency: ZColumnName.optional(),
        description: ZColumnName.optional(),
        counterparty: ZColumnName.optional(),
        counterparty_account: ZColumnName.optional(),
        category: ZColumnName.optional(),
        reference: ZColumnName.optional(),
        account: ZColumnName.optional().describe(
          "The owner's own account of each row (multi-account exports): kept in payload.account. Never guessed from a " +
            'header name (a bare "Account" column is often the counterparty\'s), and not part of the external_id.',
        ),
      } satisfies Record<TField, z.ZodType>)
      .optional()
      .describe("Header name per field; null drops a column the preset would use."),
  })
  .meta({ id: "ImportMapping" });
export type TImportMapping = z.infer<typeof ZImportMapping>;

/** The settings that do not depend on the header. */
export type TImportSettings = {
  delimiter?: TDelimiter;
  date_format: TDateFormat;
  decimal_separator: TDecimalSeparator;
  thousands_separator: TThousandsSeparator | null;
  sign_convention: TSignConvention;
};

/** A preset with the mapping applied, columns turned into positions in the header. */
export type TResolvedMapping = TImportSettings & {
  preset: string;
  /** Position of each mapped field in the header. */
  columns: Partial<Record<TField, number>> & { date: number; description: number };
  /** Header width: a row with non-empty cells beyond it is misaligned. */
  width: number;
};

export type TResolution = { mapping: TResolvedMapping; unmapped_columns: string[] };

/** The comparison form of a header name: trimmed, lower case, blanks collapsed. */
export function headerKey(name: string): string {
  return name.trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * The settings that do not depend on the header (the reader needs the delimiter first).
 * Without an explicit sign_convention, naming an amount column switches a debit/credit preset
 * to signed, and naming a debit or credit column switches a one-column preset to debit_credit.
 */
export function mergeSettings(preset: TImportPreset, mapping: TImportMapping = {}): TImportSettings {
  const named = (field: TField) => typeof mapping.columns?.[field] === "string";
  let sign = mapping.sign_convention ?? preset.sign_convention;
  if (!mapping.sign_convention) {
    if (sign === "debit_credit" && named("amount") && !named("debit") && !named("credit")) sign = "signed";
    else if (sign !== "debit_credit" && (named("debit") || named("credit")) && !named("amount")) sign = "debit_credit";
  }
  return {
    delimiter: mapping.delimiter ?? preset.delimiter,
    date_format: mapping.date_format ?? preset.date_format,
    decimal_separator: mapping.decimal_separator ?? preset.decimal_separator,
    thousands_separator:
      mapping.thousands_separator === undefined ? (preset.thousands_separator ?? null) : mapping.thousands_separator,
    sign_convention: sign,
  };
}

/**
 * Applies the owner's mapping to a preset and finds each field's column in the header.
 * Throws validation_error naming every required field it cannot find (and any column the
 * mapping names that the header lacks), with the names tried and the header read.
 */
export function resolveMapping(
  preset: TImportPreset,
  mapping: TImportMapping | undefined,
  header: readonly string[],
): TResolution {
  const settings = mergeSettings(preset, mapping);
  if (settings.thousands_separator === settings.decimal_separator) {
    throw AppError.invalidField("mapping.thousands_separator", "must differ from the decimal separator");
  }
  const positions = new Map<string, number>();
  header.forEach((name, index) => {
    const key = headerKey(name);
    if (key && !positions.has(key)) positions.set(key, index);
  });

  const required = new Set(requiredFields(settings.sign_convention));
  // One amount shape only: the other convention's columns are not read.
  const unused: TField[] = settings.sign_convention === "debit_credit" ? ["amount"] : ["debit", "credit"];
  const columns: Partial<Record<TField, number>> = {};
  const taken = new Set<number>();
  const missing: { field: TField; tried: string[] }[] = [];

  for (const field of unused) {
    if (typeof mapping?.columns?.[field] === "string") {
      throw AppError.invalidField(`mapping.columns.${field}`, `is not read with sign_convention ${settings.sign_convention}`);
    }
  }
  for (const field of FIELDS) {
    if (unused.includes(field)) continue;
    const override = mapping?.columns?.[field];
    if (override === null) {
      if (required.has(field)) missing.push({ field, tried: [] });
      continue;
    }
    const explicit = override !== undefined;
    const candidates = explicit ? [override] : (preset.columns[field] ?? []);
    let found: number | undefined;
    for (const candidate of candidates) {
      const index = positions.get(headerKey(candidate));
      if (index !== undefined && (explicit || !taken.has(index))) {
        found = index;
        break;
      }
    }
    if (found === undefined) {
      if (required.has(field) || explicit) missing.push({ field, tried: [...candidates] });
      continue;
    }
    columns[field] = found;
    taken.add(found);
  }

  if (missing.length > 0) {
    const what = missing
      .map(({ field, tried }) =>
        tried.length === 0
          ? `${field} (required, but the mapping removed it)`
          : `${field} (looked for ${tried.map((name) => JSON.stringify(name)).join(", ")})`,
      )
      .join("; ");
    throw new AppError("validation_error", `mapping: the header has no column for ${what}. Header: ${JSON.stringify(header)}.`, {
      details: {
        issues: missing.map(({ field, tried }) => ({
          path: `mapping.columns.${field}`,
          message: "column not in the header",
          tried,
        })),
        header,
        preset: preset.id,
      },
    });
  }

  const unmapped_columns = header.filter((name, index) => name.trim() !== "" && !taken.has(index));
  return {
    mapping: {
      preset: preset.id,
      ...settings,
      columns: columns as TResolvedMapping["columns"],
      width: header.length,
    },
    unmapped_columns,
  };
}
