import { describe, expect, it } from "vitest";
import { readStatement } from "./csv-reader";
import { normalizeRow, type TNormalizedRow } from "./normalize-row";
import { findPreset, IMPORT_PRESETS, mergeSettings, resolveMapping, ZImportMapping, type TImportMapping } from "./presets";

/** The whole pure path: read, resolve the mapping on the header, normalize each row. */
function importText(text: string, presetId: string, mapping?: TImportMapping, options = {}) {
  const preset = findPreset(presetId)!;
  let unmapped: string[] = [];
  let resolved: ReturnType<typeof resolveMapping>["mapping"] | undefined;
  const rows: TNormalizedRow[] = [];
  readStatement(
    text,
    {
      delimiter: mergeSettings(preset, mapping).delimiter,
      onHeader: (header) => {
        const resolution = resolveMapping(preset, mapping, header);
        resolved = resolution.mapping;
        unmapped = resolution.unmapped_columns;
      },
    },
    (cells) => rows.push(normalizeRow(cells, resolved!, options)),
  );
  return { rows, unmapped };
}

const SAMPLES: Record<string, { text: string; expected: Partial<TNormalizedRow>[]; unmapped: string[]; options?: object }> = {
  generic: {
    text: "Booking Date,Value Date,Payee,Memo,Amount,Currency,Balance\n2024-03-01,2024-03-02,ACME Ltd,Invoice 7,-1234.50,EUR,100.00\n",
    expected: [
      {
        status: "ok",
        occurred_on: "2024-03-01",
        amount_minor: -123450,
        currency: "EUR",
        description: "Invoice 7",
        counterparty: "ACME Ltd",
      },
    ],
    unmapped: ["Value Date", "Balance"],
  },
  bank_eu_semicolon: {
    text:
      "Buchungstag;Valuta;Beguenstigter/Zahlungspflichtiger;Verwendungszweck;IBAN;Betrag;Währung\n" +
      "01.03.2024;01.03.2024;Stadtwerke;Abschlag März;DE89 3704 0044 0532 0130 00;-1.234,56;EUR\n" +
      "15.03.2024;15.03.2024;Kunde GmbH;Rechnung 12;DE02120300000000202051;2.000,00;EUR\n",
    expected: [
      {
        status: "ok",
        occurred_on: "2024-03-01",
        amount_minor: -123456,
        currency: "EUR",
        description: "Abschlag März",
        counterparty: "Stadtwerke",
        counterparty_account: "DE89370400440532013000",
      },
      { status: "ok", occurred_on: "2024-03-15", amount_minor: 200000, counterparty: "Kunde GmbH" },
    ],
    unmapped: ["Valuta"],
  },
  bank_uk_debit_credit: {
    text:
      "Date,Description,Debit,Credit,Balance\n" +
      '05/03/2024,CARD PAYMENT TO TESCO,"1,024.10",,500.00\n' +
      "06/03/2024,SALARY,,2500.00,3000.00\n",
    expected: [
      { status: "ok", occurred_on: "2024-03-05", amount_minor: -102410, currency: "GBP", description: "CARD PAYMENT TO TESCO" },
      { status: "ok", occurred_on: "2024-03-06", amount_minor: 250000, currency: "GBP" },
    ],
    unmapped: ["Balance"],
    options: { currencyDefault: "GBP" },
  },
  bank_us_signed: {
    text:
      "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n" +
      'DEBIT,03/05/2024,"NETFLIX.COM",-15.49,ACH_DEBIT,"1,000.00",\n' +
      "CHECK,03/06/2024,CHECK 101,(250.00),CHECK_PAID,750.00,101\n",
    expected: [
      { status: "ok", occurred_on: "2024-03-05", amount_minor: -1549, currency: "USD", description: "NETFLIX.COM" },
      { status: "ok", occurred_on: "2024-03-06", amount_minor: -25000, reference: "101" },
    ],
    unmapped: ["Details", "Type", "Balance"],
    options: { currencyDefault: "USD" },
  },
  card_statement: {
    text:
      "Transaction Date,Posted Date,Description,Merchant,Category,Amount\n" +
      "2024-03-07,2024-03-08,Spotify P1234,Spotify,Entertainment,10.99\n" +
      "2024-03-09,2024-03-09,Refund,Shop,Shopping,-20.00\n",
    expected: [
      {
        status: "ok",
        occurred_on: "2024-03-07",
        amount_minor: -1099,
        currency: "EUR",
        counterparty: "Spotify",
        category: "Entertainment",
      },
      { status: "ok", amount_minor: 2000 },
    ],
    unmapped: ["Posted Date"],
    options: { currencyDefault: "EUR" },
  },
  bank_nordic_tab: {
    text: "Booking date\tText\tAmount\tCurrency\tBalance\n2024-03-10\tHyra mars\t-12\u00a0500,00\tSEK\t1 000,00\n",
    expected: [{ status: "ok", occurred_on: "2024-03-10", amount_minor: -1250000, currency: "SEK", description: "Hyra mars" }],
    unmapped: ["Balance"],
  },
  fintech_multi_currency: {
    text:
      "Type,Started Date,Completed Date,Description,Amount,Fee,Currency,State\n" +
      "CARD_PAYMENT,2024-03-11 09:00:01,2024-03-12 10:11:12,Hosting,-2500,0,JPY,COMPLETED\n",
    expected: [{ status: "ok", occurred_on: "2024-03-12", amount_minor: -2500, currency: "JPY", description: "Hosting" }],
    unmapped: ["Type", "Started Date", "Fee", "State"],
  },
};

describe("IMPORT_PRESETS", () => {
  it("has a generic preset and at least four bank presets, with unique ids", () => {
    const ids = IMPORT_PRESETS.map((preset) => preset.id);
    expect(ids[0]).toBe("generic");
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(5);
  });

  it.each(IMPORT_PRESETS.map((preset) => preset.id))("%s parses its sample", (id) => {
    const sample = SAMPLES[id];
    expect(sample, `a sample for ${id}`).toBeDefined();
    const { rows, unmapped } = importText(sample!.text, id, undefined, sample!.options);
    expect(rows).toHaveLength(sample!.expected.length);
    sample!.expected.forEach((expected, i) => expect(rows[i]).toMatchObject(expected));
    expect(unmapped).toEqual(sample!.unmapped);
  });
});

describe("resolveMapping", () => {
  const generic = findPreset("generic")!;

  it("matches header names trimmed and case-insensitively", () => {
    const { mapping } = resolveMapping(generic, undefined, ["  DATE ", "amount", "Description"]);
    expect(mapping.columns).toEqual({ date: 0, amount: 1, description: 2 });
  });

  it("never gives one guessed column to two fields", () => {
    // "Payee" is the last description guess and a counterparty guess: description takes it.
    const { mapping } = resolveMapping(generic, undefined, ["Date", "Payee", "Amount"]);
    expect(mapping.columns).toEqual({ date: 0, description: 1, amount: 2 });
  });

  it("does not guess a bare Account column (it is often the owner's own)", () => {
    const { mapping, unmapped_columns } = resolveMapping(generic, undefined, ["Account", "Date", "Amount", "Details"]);
    expect(mapping.columns.counterparty_account).toBeUndefined();
    expect(unmapped_columns).toEqual(["Account"]);
  });

  it("applies the owner's mapping: columns, null to drop one, formats", () => {
    const mapping = ZImportMapping.parse({
      date_format: "dd.mm.yyyy",
      decimal_separator: ",",
      thousands_separator: null,
      columns: { date: "Datum", amount: "Summe", description: "Text", category: null },
    });
    const result = resolveMapping(generic, mapping, ["Datum", "Summe", "Text", "Category"]);
    expect(result.mapping).toMatchObject({
      date_format: "dd.mm.yyyy",
      decimal_separator: ",",
      thousands_separator: null,
      columns: { date: 0, amount: 1, description: 2 },
    });
    expect(result.unmapped_columns).toEqual(["Category"]);
  });

  it("switches the sign convention when the mapping names the other amount columns", () => {
    const uk = findPreset("bank_uk_debit_credit")!;
    const toSigned = resolveMapping(uk, { columns: { amount: "Value" } }, ["Date", "Description", "Value"]);
    expect(toSigned.mapping.sign_convention).toBe("signed");
    const toDebitCredit = resolveMapping(generic, { columns: { debit: "Out", credit: "In" } }, ["Date", "Details", "Out", "In"]);
    expect(toDebitCredit.mapping).toMatchObject({ sign_convention: "debit_credit", columns: { debit: 2, credit: 3 } });
  });

  it("names every missing required column, the names tried and the header", () => {
    const uk = findPreset("bank_uk_debit_credit")!;
    let error: any;
    try {
      resolveMapping(uk, undefined, ["Date", "Description", "Amount"]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: "validation_error" });
    expect(error.message).toMatch(/no column for debit \(looked for "Debit", "Debit Amount".*\); credit/);
    expect(error.message).toContain('Header: ["Date","Description","Amount"]');
    expect(error.details.issues.map((issue: any) => issue.path)).toEqual(["mapping.columns.debit", "mapping.columns.credit"]);
  });

  it("refuses an explicit column the header lacks, and a required column removed", () => {
    expect(() => resolveMapping(generic, { columns: { category: "Kategorie" } }, ["Date", "Amount", "Memo"])).toThrow(
      /category \(looked for "Kategorie"\)/,
    );
    expect(() => resolveMapping(generic, { columns: { date: null } }, ["Date", "Amount", "Memo"])).toThrow(
      /date \(required, but the mapping removed it\)/,
    );
  });

  it("refuses a column the sign convention does not read", () => {
    expect(() =>
      resolveMapping(generic, { sign_convention: "signed", columns: { debit: "Out" } }, ["Date", "Amount", "Memo", "Out"]),
    ).toThrow(/mapping.columns.debit: is not read with sign_convention signed/);
  });

  it("refuses equal decimal and thousands separators", () => {
    expect(() => resolveMapping(generic, { thousands_separator: "." }, ["Date", "Amount", "Memo"])).toThrow(/must differ/);
  });

  it("ZImportMapping refuses unknown keys and values", () => {
    expect(ZImportMapping.safeParse({ columns: { dat: "Date" } }).success).toBe(false);
    expect(ZImportMapping.safeParse({ date_format: "yyyy.mm.dd" }).success).toBe(false);
    expect(ZImportMapping.safeParse({ extra: 1 }).success).toBe(false);
    expect(ZImportMapping.safeParse({}).success).toBe(true);
  });
});
