import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeAccount, normalizeRow, parseAmount, parseDate, type TAmountFormat } from "./normalize-row";
import { findPreset, resolveMapping, type TImportMapping } from "./presets";

const DOT: TAmountFormat = { decimal: ".", thousands: "," };
const COMMA: TAmountFormat = { decimal: ",", thousands: "." };

describe("parseAmount", () => {
  it.each([
    ["12.34", DOT, "EUR", 1234],
    ["-12.34", DOT, "EUR", -1234],
    ["+12.3", DOT, "EUR", 1230],
    ["12", DOT, "EUR", 1200],
    [".5", DOT, "EUR", 50],
    ["1,234,567.89", DOT, "USD", 123456789],
    ["(1,234.50)", DOT, "USD", -123450],
    ["12.50-", DOT, "EUR", -1250],
    ["\u221212.50", DOT, "EUR", -1250],
    ["$-1,234.56", DOT, "USD", -123456],
    ["-$1,234.56", DOT, "USD", -123456],
    ["1.234,56 €", COMMA, "EUR", 123456],
    ["1.234,56", COMMA, "EUR", 123456],
    ["-0,01", COMMA, "EUR", -1],
    ["1.234", COMMA, "EUR", 123400],
    ["12.340", DOT, "EUR", 1234], // extra digits that are zeros: exact, nothing rounded
    ["1,234", DOT, "JPY", 1234],
    ["1234.00", DOT, "JPY", 1234],
    ["1.234", DOT, "KWD", 1234],
    ["9007199254740.99", { decimal: ".", thousands: null }, "EUR", 900719925474099],
  ] as const)("%j → %i", (text, format, currency, minor) => {
    expect(parseAmount(text, format, currency)).toEqual({ ok: true, minor });
  });

  it.each([
    ["12.345", DOT, "EUR", "amount has more decimals than EUR allows"],
    ["12.5", DOT, "JPY", "amount has more decimals than JPY allows"],
    ["12,34", DOT, "EUR", 'unparsable amount "12,34"'], // a comma thousands group must have 3 digits
    ["12.34,56", COMMA, "EUR", 'unparsable amount "12.34,56"'],
    ["1,234.56", { decimal: ".", thousands: null }, "USD", 'unparsable amount "1,234.56"'],
    ["1.2.3", { decimal: ".", thousands: null }, "EUR", 'unparsable amount "1.2.3"'],
    ["--5", DOT, "EUR", 'unparsable amount "--5"'],
    ["-5-", DOT, "EUR", 'unparsable amount "-5-"'],
    ["(-5)", DOT, "EUR", 'unparsable amount "(-5)"'],
    ["1e3", DOT, "EUR", 'unparsable amount "1e3"'],
    ["abc", DOT, "EUR", 'unparsable amount "abc"'],
    ["-", DOT, "EUR", 'unparsable amount "-"'],
    ["12 EUR", DOT, "EUR", 'unparsable amount "12 EUR"'],
    ["90071992547409.92", { decimal: ".", thousands: null }, "EUR", "amount is too large"],
  ] as const)("refuses %j", (text, format, currency, reason) => {
    expect(parseAmount(text, format, currency)).toEqual({ ok: false, reason });
  });

  it("is exact for every amount a cent string can write", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (cents) => {
        const negative = cents < 0n;
        const digits = (negative ? -cents : cents).toString().padStart(3, "0");
        const text = `${negative ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
        expect(parseAmount(text, { decimal: ".", thousands: null }, "EUR")).toEqual({ ok: true, minor: Number(cents) });
      }),
    );
  });
});

describe("parseDate", () => {
  it.each([
    ["2024-02-29", "yyyy-mm-dd", "2024-02-29"],
    ["2024-3-5", "yyyy-mm-dd", "2024-03-05"],
    ["2024-03-05 13:45:00", "yyyy-mm-dd", "2024-03-05"],
    ["2024-03-05T23:59:59.123+02:00", "yyyy-mm-dd", "2024-03-05"],
    ["05.03.2024", "dd.mm.yyyy", "2024-03-05"],
    ["5.3.24", "dd.mm.yy", "2024-03-05"],
    ["05/03/2024", "dd/mm/yyyy", "2024-03-05"],
    ["03/05/2024", "mm/dd/yyyy", "2024-03-05"],
    ["31-12-2023", "dd-mm-yyyy", "2023-12-31"],
  ] as const)("%s as %s", (text, format, expected) => {
    expect(parseDate(text, format)).toBe(expected);
  });

  it.each([
    ["31.02.2024", "dd.mm.yyyy"],
    ["29.02.2023", "dd.mm.yyyy"],
    ["13/25/2024", "mm/dd/yyyy"],
    ["2024-13-01", "yyyy-mm-dd"],
    ["00.01.2024", "dd.mm.yyyy"],
    ["2024-03-05", "dd.mm.yyyy"],
    ["05.03.2024", "yyyy-mm-dd"],
    ["05/03/24", "dd/mm/yyyy"],
    ["2024-03-05 garbage", "yyyy-mm-dd"],
    ["", "yyyy-mm-dd"],
  ] as const)("refuses %j as %s", (text, format) => {
    expect(parseDate(text, format)).toBeUndefined();
  });
});

describe("normalizeRow", () => {
  const header = ["Date", "Amount", "Currency", "Description", "Counterparty", "IBAN", "Category", "Reference"];
  const resolve = (mapping?: TImportMapping, preset = "generic", columns = header) =>
    resolveMapping(findPreset(preset)!, mapping, columns).mapping;
  const generic = resolve();
  const row = (overrides: Partial<Record<string, string>> = {}) =>
    header.map(
      (name) =>
        overrides[name] ??
        {
          Date: "2024-03-01",
          Amount: "-12.50",
          Currency: "EUR",
          Description: "  Coffee\n beans ",
          Counterparty: "Roastery",
          IBAN: "",
          Category: "",
          Reference: "",
        }[name]!,
    );

  it("normalizes an ordinary row", () => {
    expect(normalizeRow(row({ IBAN: "de89 3704 0044 0532 0130 00", Category: " Food ", Reference: "R-1" }), generic)).toEqual({
      status: "ok",
      occurred_on: "2024-03-01",
      amount_minor: -1250,
      currency: "EUR",
      description: "Coffee beans",
      counterparty: "Roastery",
      counterparty_account: "DE89370400440532013000",
      category: "Food",
      reference: "R-1",
    });
  });

  it("takes the counterparty as description when the description is empty", () => {
    expect(normalizeRow(row({ Description: " " }), generic)).toMatchObject({ description: "Roastery" });
  });

  it.each([
    [{ Date: "31.02.2024" }, 'unparsable date "31.02.2024" (expected yyyy-mm-dd)'],
    [{ Date: "2024-02-30" }, 'unparsable date "2024-02-30" (expected yyyy-mm-dd)'],
    [{ Amount: "12.345" }, "amount has more decimals than EUR allows"],
    [{ Amount: "" }, "missing amount"],
    [{ Amount: "0.00" }, "amount is zero"],
    [{ Amount: "12,50" }, 'unparsable amount "12,50"'],
    [{ Currency: "" }, "missing currency"],
    [{ Currency: "XYZ" }, 'unknown currency "XYZ"'],
    [{ Currency: "EURO" }, 'unknown currency "EURO"'],
  ])("rejects %j", (overrides, reason) => {
    expect(normalizeRow(row(overrides), generic)).toEqual({ status: "rejected", reject_reason: reason });
  });

  it("uses the default currency when the cell is empty, and the cell over the default", () => {
    expect(normalizeRow(row({ Currency: "" }), generic, { currencyDefault: "usd" })).toMatchObject({ currency: "USD" });
    expect(normalizeRow(row({ Currency: "gbp" }), generic, { currencyDefault: "USD" })).toMatchObject({ currency: "GBP" });
  });

  it("reads decimal commas and thousands dots exactly", () => {
    const eu = resolve({ decimal_separator: ",", thousands_separator: "." });
    expect(normalizeRow(row({ Amount: "1.234,56" }), eu)).toMatchObject({ amount_minor: 123456 });
    expect(normalizeRow(row({ Amount: "-1.234,5" }), eu)).toMatchObject({ amount_minor: -123450 });
  });

  it("rejects a misaligned row (non-empty cells past the header)", () => {
    expect(normalizeRow([...row(), "extra"], generic)).toEqual({
      status: "rejected",
      reject_reason: "row has 9 fields, the header has 8 (an unquoted delimiter inside a field?)",
    });
  });

  it("skips transfers to the owner's own accounts, whatever the spacing or case", () => {
    const ownAccounts = ["DE89 3704 0044 0532 0130 00", "GB29-NWBK-6016-1331-9268-19"];
    expect(normalizeRow(row({ IBAN: "de89370400440532013000" }), generic, { ownAccounts })).toEqual({
      status: "skipped",
      reason: "own_transfer",
    });
    expect(normalizeRow(row({ IBAN: "GB29 NWBK 6016 1331 9268 19", Amount: "500" }), generic, { ownAccounts })).toMatchObject({
      status: "skipped",
    });
    expect(normalizeRow(row({ IBAN: "FR14 2004 1010 0505 0001 3M02 606" }), generic, { ownAccounts })).toMatchObject({
      status: "ok",
    });
    expect(normalizeAccount(" fr14 2004-1010 ")).toBe("FR1420041010");
  });

  describe("debit and credit columns", () => {
    const columns = ["Date", "Description", "Debit", "Credit"];
    const uk = resolve(undefined, "bank_uk_debit_credit", columns);
    const at = (debit: string, credit: string) =>
      normalizeRow(["01/03/2024", "x", debit, credit], uk, { currencyDefault: "GBP" });

    it("debit is money out and credit money in, whatever sign is written", () => {
      expect(at("12.50", "")).toMatchObject({ status: "ok", amount_minor: -1250 });
      expect(at("-12.50", "")).toMatchObject({ status: "ok", amount_minor: -1250 });
      expect(at("", "1,000.00")).toMatchObject({ status: "ok", amount_minor: 100000 });
      expect(at("0.00", "3.00")).toMatchObject({ status: "ok", amount_minor: 300 });
    });

    it("needs exactly one of them", () => {
      expect(at("1.00", "2.00")).toEqual({ status: "rejected", reject_reason: "both debit and credit are filled" });
      expect(at("", "")).toEqual({ status: "rejected", reject_reason: "neither debit nor credit is filled" });
      expect(at("0.00", "")).toEqual({ status: "rejected", reject_reason: "amount is zero" });
      expect(at("1.001", "")).toEqual({ status: "rejected", reject_reason: "amount has more decimals than GBP allows" });
    });
  });

  it("positive_is_expense turns purchases into money out and refunds into money in", () => {
    const card = resolve(undefined, "card_statement", ["Date", "Description", "Amount"]);
    expect(normalizeRow(["2024-03-01", "Shop", "19.99"], card, { currencyDefault: "EUR" })).toMatchObject({
      amount_minor: -1999,
    });
    expect(normalizeRow(["2024-03-02", "Shop", "-5.00"], card, { currencyDefault: "EUR" })).toMatchObject({ amount_minor: 500 });
  });

  // Issue 11: "0000-01-01" made the preview 500 (Date arithmetic on year 0); the service's days are 1900–2999.
  it.each(["0000-01-01", "0001-01-01", "1899-12-31", "3000-01-01", "9999-12-31"])(
    "rejects the row dated %s (outside 1900-01-01…2999-12-31)",
    (date) => {
      expect(normalizeRow(row({ Date: date }), generic)).toEqual({
        status: "rejected",
        reject_reason: `date ${JSON.stringify(date)} is outside 1900-01-01…2999-12-31`,
      });
    },
  );

  it("accepts the first and the last day of the range", () => {
    expect(normalizeRow(row({ Date: "1900-01-01" }), generic)).toMatchObject({ status: "ok", occurred_on: "1900-01-01" });
    expect(normalizeRow(row({ Date: "2999-12-31" }), generic)).toMatchObject({ status: "ok", occurred_on: "2999-12-31" });
  });

  // A NUL or a lone surrogate cannot be stored as text (PostgreSQL refuses it): the row is refused, not cleaned.
  it.each([
    ["Description", "Cof\u0000fee"],
    ["Counterparty", "Roast\ud800ery"],
    ["Reference", "\udfffR-1"],
  ])("rejects a row whose %s holds %j", (column, value) => {
    expect(normalizeRow(row({ [column]: value }), generic)).toEqual({
      status: "rejected",
      reject_reason: expect.stringMatching(new RegExp(`^column ${header.indexOf(column) + 1} .*(NUL|surrogate)`)),
    });
  });

  it("cuts long texts to the stored limits", () => {
    const result = normalizeRow(row({ Description: "x".repeat(1500), Category: "c".repeat(300) }), generic);
    expect(result).toMatchObject({ status: "ok" });
    if (result.status === "ok") {
      expect(result.description).toHaveLength(1000);
      expect(result.category).toHaveLength(100);
    }
  });
});
