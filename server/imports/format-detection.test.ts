import { describe, expect, it } from "vitest";
import { detectDateFormat, detectNumberFormat, guessColumns, numberVote } from "./format-detection";
import { parseStatement } from "./parse-statement";
import { findPreset } from "./presets";

describe("detectDateFormat", () => {
  it("reads mm/dd/yyyy when a day above 12 shows it", () => {
    const guess = detectDateFormat(["01/05/2026", "01/20/2026", "02/03/2026"], { fallback: "yyyy-mm-dd" });
    expect(guess).toMatchObject({ date_format: "mm/dd/yyyy", ambiguous: false, read: 3, sampled: 3 });
    expect(guess.candidates).toEqual(["mm/dd/yyyy"]);
  });

  it("reads dd.mm.yyyy and ISO dates without a doubt", () => {
    expect(detectDateFormat(["01.03.2026", "15.03.2026"], { fallback: "yyyy-mm-dd" })).toMatchObject({
      date_format: "dd.mm.yyyy",
      ambiguous: false,
    });
    expect(detectDateFormat(["2026-03-01", "2026-03-15 10:00"], { fallback: "dd.mm.yyyy" })).toMatchObject({
      date_format: "yyyy-mm-dd",
      ambiguous: false,
    });
  });

  it("settles days of 12 or less by the rows' date order, not by a guess", () => {
    // Sorted as dd/mm: 2 Jan, 5 Jan, 3 Feb, 7 Mar, 1 Apr. As mm/dd: 1 Feb, 1 May, 2 Mar, 3 Jul, 4 Jan: unsorted.
    const ddmm = ["02/01/2026", "05/01/2026", "03/02/2026", "07/03/2026", "01/04/2026"];
    const guess = detectDateFormat(ddmm, { fallback: "mm/dd/yyyy" });
    expect(guess).toMatchObject({ date_format: "dd/mm/yyyy", ambiguous: false });
    expect(guess.candidates).toEqual(["dd/mm/yyyy", "mm/dd/yyyy"]);
    expect(guess.note).toContain("date order");
    // The same cells read the other way round are sorted as mm/dd.
    const mmdd = ["01/02/2026", "01/05/2026", "02/03/2026", "03/07/2026", "04/01/2026"];
    expect(detectDateFormat(mmdd, { fallback: "dd/mm/yyyy" })).toMatchObject({ date_format: "mm/dd/yyyy", ambiguous: false });
    // Newest first is an order too.
    expect(detectDateFormat([...mmdd].reverse(), { fallback: "dd/mm/yyyy" })).toMatchObject({ date_format: "mm/dd/yyyy" });
  });

  it("prefers the reading that puts no row in the future", () => {
    const guess = detectDateFormat(["01/03/2026", "02/03/2026"], { fallback: "dd/mm/yyyy", today: "2026-01-10" });
    // dd/mm: 1 and 2 March, after today; mm/dd: 3 January and 3 February... also after; both one day apart.
    expect(guess.candidates).toHaveLength(2);
    const past = detectDateFormat(["10/01/2026", "11/01/2026"], { fallback: "dd/mm/yyyy", today: "2026-01-20" });
    // mm/dd would be 1 October and 1 November 2026: in the future.
    expect(past).toMatchObject({ date_format: "dd/mm/yyyy", ambiguous: false });
    expect(past.note).toContain("future");
  });

  it("shows the doubt when nothing tells them apart, and keeps the fallback", () => {
    const guess = detectDateFormat(["05/05/2026", "05/05/2026"], { fallback: "mm/dd/yyyy" });
    expect(guess).toMatchObject({ date_format: "mm/dd/yyyy", ambiguous: true });
    expect(guess.note).toMatch(/check/);
  });

  it("falls back when no format reads the cells, saying so", () => {
    expect(detectDateFormat(["yesterday"], { fallback: "yyyy-mm-dd" })).toMatchObject({
      date_format: "yyyy-mm-dd",
      read: 0,
      ambiguous: true,
    });
  });
});

describe("detectNumberFormat", () => {
  const generic = { decimal_separator: "." as const, thousands_separator: null };

  it("reads 1.234,56 as a decimal comma with dot thousands", () => {
    expect(detectNumberFormat(["-1.234,56", "2.000,00", "-12,50"], generic)).toMatchObject({
      decimal_separator: ",",
      thousands_separator: ".",
      ambiguous: false,
    });
  });

  it("reads 1,234.56 as a decimal point with comma thousands", () => {
    expect(detectNumberFormat(["-1,234.56", "12.50", "$3,000.00"], generic)).toMatchObject({
      decimal_separator: ".",
      thousands_separator: ",",
      ambiguous: false,
    });
  });

  it("reads blank and apostrophe thousands", () => {
    expect(detectNumberFormat(["1 234,56", "-12,00"], generic)).toMatchObject({
      decimal_separator: ",",
      thousands_separator: " ",
    });
    expect(detectNumberFormat(["1'234.50"], generic)).toMatchObject({ decimal_separator: ".", thousands_separator: "'" });
  });

  it("takes three digits after one separator as thousands only without better evidence", () => {
    expect(numberVote("1.234")).toEqual({ decimal: ",", strong: false, thousands: "." });
    expect(detectNumberFormat(["1.234", "5,50"], generic)).toMatchObject({ decimal_separator: ",", ambiguous: false });
    expect(detectNumberFormat(["1.234", "2.500"], generic)).toMatchObject({ decimal_separator: ",", ambiguous: true });
  });

  it("keeps the fallback for whole numbers", () => {
    expect(detectNumberFormat(["-29", "1500"], { decimal_separator: ",", thousands_separator: "." })).toMatchObject({
      decimal_separator: ",",
      thousands_separator: ".",
      ambiguous: false,
    });
  });
});

describe("parseStatement with guessed formats", () => {
  const generic = findPreset("generic")!;

  it("imports a German export with the generic preset: ; separated, dd.mm.yyyy, 1.234,56, no currency column", () => {
    const text = [
      "Buchungstag;Verwendungszweck;Empfänger;Betrag",
      "01.03.2026;Miete März;Hausverwaltung;-1.234,56",
      "15.03.2026;Rechnung 12;Kunde GmbH;2.000,00",
      "20.03.2026;Kaffee;Café;-3,50",
    ].join("\n");
    const parsed = parseStatement(text, { preset: generic, currencyDefault: "EUR" });
    expect(parsed.rows).toMatchObject([
      { row: 1, occurred_on: "2026-03-01", amount_minor: -123456, currency: "EUR", description: "Miete März" },
      { row: 2, occurred_on: "2026-03-15", amount_minor: 200000 },
      { row: 3, occurred_on: "2026-03-20", amount_minor: -350 },
    ]);
    expect(parsed.mapping).toMatchObject({
      delimiter: ";",
      date_format: "dd.mm.yyyy",
      decimal_separator: ",",
      thousands_separator: ".",
      sign_convention: "signed",
      columns: { date: "Buchungstag", amount: "Betrag", description: "Verwendungszweck", currency: null },
    });
    expect(parsed.guesses.date).toMatchObject({ date_format: "dd.mm.yyyy", ambiguous: false });
    expect(parsed.header).toEqual(["Buchungstag", "Verwendungszweck", "Empfänger", "Betrag"]);
  });

  it("imports a US export (mm/dd/yyyy, 1,234.56) with the generic preset", () => {
    const text = ["Date,Description,Amount", "01/05/2026,Hosting,-29.00", '01/20/2026,Client,"1,500.00"'].join("\n");
    const parsed = parseStatement(text, { preset: generic, currencyDefault: "USD" });
    expect(parsed.rows).toMatchObject([
      { occurred_on: "2026-01-05", amount_minor: -2900, currency: "USD" },
      { occurred_on: "2026-01-20", amount_minor: 150000 },
    ]);
    expect(parsed.mapping).toMatchObject({ date_format: "mm/dd/yyyy", decimal_separator: "." });
  });

  it("keeps what the mapping names, and the effective mapping re-reads the file the same way", () => {
    const text = ["Date,Description,Amount", "03/04/2026,Hosting,-29.00", "04/04/2026,Other,-1.00"].join("\n");
    const asked = parseStatement(text, { preset: generic, mapping: { date_format: "mm/dd/yyyy" }, currencyDefault: "USD" });
    expect(asked.guesses.date).toBeUndefined();
    expect(asked.rows[0]).toMatchObject({ occurred_on: "2026-03-04" });
    const again = parseStatement(text, { preset: generic, mapping: asked.mapping, currencyDefault: "USD" });
    expect(again.rows).toEqual(asked.rows);
    expect(again.guesses).toEqual({});
  });

  it("keeps a rejected row's raw cells", () => {
    const text = ["Date,Description,Amount", "2026-03-01,Fine,-1.00", "2026-03-02,Broken,abc"].join("\n");
    const parsed = parseStatement(text, { preset: generic, currencyDefault: "EUR" });
    expect(parsed.rows[1]).toEqual({ row: 2, rejected: 'unparsable amount "abc"', raw: ["2026-03-02", "Broken", "abc"] });
  });

  it("reads the columns off the cells when the preset's names find none", () => {
    const text = [
      "Wann;Konto;Was;Summe;Saldo",
      "05.03.2026;DE1;Miete für März;-900,00;100,00",
      "06.03.2026;DE1;Kaffee;-3,50;96,50",
    ].join("\n");
    const parsed = parseStatement(text, { preset: generic, currencyDefault: "EUR" });
    expect(parsed.mapping.columns).toMatchObject({ date: "Wann", amount: "Summe", description: "Was" });
    expect(parsed.rows).toMatchObject([
      { occurred_on: "2026-03-05", amount_minor: -90000, description: "Miete für März" },
      { occurred_on: "2026-03-06", amount_minor: -350 },
    ]);
    // A column the owner named that the file lacks is still an error, never guessed around.
    expect(() => parseStatement(text, { preset: generic, mapping: { columns: { date: "Datum" } } })).toThrow(/Datum/);
  });

  it("reads the owner's account column only when the mapping names it, outside the external id", () => {
    const text = ["Date,Account,Description,Amount", "2026-03-01,DE-MAIN,Rent,-900.00"].join("\n");
    const plain = parseStatement(text, { preset: generic, currencyDefault: "EUR" });
    expect(plain.mapping.columns.account).toBeNull();
    expect(plain.rows[0]).not.toHaveProperty("account");
    const mapped = parseStatement(text, {
      preset: generic,
      currencyDefault: "EUR",
      mapping: { columns: { account: "Account" } },
    });
    expect(mapped.rows[0]).toMatchObject({ account: "DE-MAIN" });
    expect(mapped.rows[0]).toMatchObject({ external_id: (plain.rows[0] as { external_id: string }).external_id });
  });

  it("reads Debit and Credit columns as such with the one-column generic preset, never the balance as the amount", () => {
    const text = [
      "Date,Description,Debit,Credit,Balance",
      "14/03/2026,Rent,900.00,,100.00",
      "15/03/2026,Sale,,250.00,350.00",
    ].join("\n");
    const parsed = parseStatement(text, { preset: generic, currencyDefault: "GBP" });
    expect(parsed.mapping).toMatchObject({
      sign_convention: "debit_credit",
      date_format: "dd/mm/yyyy",
      columns: { debit: "Debit", credit: "Credit", amount: null },
    });
    expect(parsed.rows).toMatchObject([{ amount_minor: -90000 }, { amount_minor: 25000 }]);
  });

  it("guesses only what fits: no date column, no guess", () => {
    expect(guessColumns(["A", "B"], [["x", "1.00"]], ["date", "amount"], new Set())).toEqual({ amount: "B" });
  });
});
