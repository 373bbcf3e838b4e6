// Each bank format's mapper on fixtures that follow the standards' published examples, one per
// quirk banks actually produce (pinned-wave3 §3), and the 400 naming the line or element of a
// malformed or truncated file. Pure: the mappers run here as they run in the parser thread.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AppError } from "../../errors/app-error";
import { decodeStatementOrRefuse } from "../parse-statement";
import { balanceChecks, bankExternalId, detectBankFormat, parseBankStatement, readBankFile } from "./read-bank-file";
import type { TBankFile } from "./bank-statement";
import { findPreset } from "../presets";

const fixture = (name: string) => decodeStatementOrRefuse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url)));

function read(name: string, currencyDefault = "USD"): TBankFile {
  const text = fixture(name);
  const format = detectBankFormat(text);
  if (!format) throw new Error(`${name} is not recognized`);
  return readBankFile(text, format, currencyDefault);
}

const lines = (file: TBankFile) =>
  file.statements.flatMap((s) =>
    s.entries.map((e) => [s.account, e.bank_id, e.occurred_on, e.amount_minor, e.currency, e.description, e.counterparty]),
  );

function refusal(name: string): AppError {
  try {
    read(name);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`${name} was read`);
}

describe("OFX", () => {
  it("1.x SGML: leaves without closing tags, an empty MEMO, a bank and a card account, entities, thousands separators, CHECKNUM", () => {
    const file = read("ofx1-sgml-two-accounts.ofx");
    expect(file.format).toBe("ofx");
    expect(lines(file)).toEqual([
      ["0123456789", "2025010500001", "2025-01-05", -123456, "USD", "Invoice 4411 & support", "ACME HOSTING"],
      ["0123456789", "2025011000002", "2025-01-10", 250000, "USD", "CLIENT CO", "CLIENT CO"],
      ["0123456789", "2025011500003", "2025-01-15", -4000, "USD", "CITY WATER", "CITY WATER"],
      ["4111000011112222", "CC-0001", "2025-01-20", -1999, "USD", "SAAS TOOL INC", "SAAS TOOL INC"],
    ]);
    expect(file.statements[0]!.entries[2]!.reference).toBe("1042");
    // OFX gives a closing (ledger) balance and no opening one: nothing to check, the closing kept.
    expect(balanceChecks(file, "")[0]).toMatchObject({
      closing_minor: 522544,
      closing_on: "2025-01-31",
      opening_minor: null,
      ok: null,
    });
  });

  it("2.x XML / QFX: the <?OFX?> instruction, closed leaves, PAYEE aggregate, time zones, a 0-digit currency", () => {
    const file = read("ofx2-xml.qfx");
    expect(lines(file)).toEqual([
      ["1234567", "JP-20250203-1", "2025-02-03", -12000, "JPY", "February <rent>", "Tokyo Office Rent"],
      // The day as the bank wrote it, whatever its time zone.
      ["1234567", "JP-20250225-7", "2025-02-25", 150000, "JPY", "Customer KK", "Customer KK"],
    ]);
  });

  it("a truncated file is a 400 naming the element never closed", () => {
    const error = refusal("ofx1-truncated.ofx");
    expect(error.code).toBe("validation_error");
    expect(error.message).toContain("<STMTTRN> (line 20)");
  });
});

describe("CAMT", () => {
  it("053.001.02: a batch as one row per transaction, CdtDbtInd, a reversal, pending entries left out", () => {
    const file = read("camt053-v02-batch-reversal.xml");
    expect(file.format).toBe("camt053");
    expect(lines(file)).toEqual([
      [
        "DE89370400440532013000",
        "2025030300012/2025030300012-1",
        "2025-03-03",
        -12000,
        "EUR",
        "Design work March",
        "Anna Freelancer",
      ],
      [
        "DE89370400440532013000",
        "2025030300012/2025030300012-2",
        "2025-03-03",
        -18000,
        "EUR",
        "Backend work March",
        "Ben Developer",
      ],
      ["DE89370400440532013000", "2025031000044", "2025-03-10", 80000, "EUR", "Invoice 2025-031", "Client GmbH"],
      ["DE89370400440532013000", "2025031500007", "2025-03-15", -1950, "EUR", "Mobile plan", "Telco AG"],
      ["DE89370400440532013000", "2025031700003", "2025-03-17", 1950, "EUR", "Reversal: Mobile plan returned", "Telco AG"],
    ]);
    expect(file.statements[0]!.entries[0]).toMatchObject({
      counterparty_account: "DE02120300000000202051",
      reference: "PAYROLL-03-A",
    });
    // The fixture's closing balance misses the reversal: off by exactly 19.50.
    expect(balanceChecks(file, "")).toEqual([
      {
        account: "DE89370400440532013000",
        currency: "EUR",
        opening_minor: 100000,
        closing_minor: 148050,
        closing_on: "2025-03-31",
        rows_sum_minor: 50000,
        difference_minor: -1950,
        ok: false,
      },
    ]);
  });

  it("053.001.08 with a namespace prefix, two statements (one Othr account, a 3-digit currency), Sts/Cd, Pty, DtTm", () => {
    const file = read("camt053-v08-prefixed-two-statements.xml");
    expect(lines(file)).toEqual([
      ["CH9300762011623852957", "CH-1", "2025-04-14", 500000, "CHF", "RF18539007547034", "Kunde AG"],
      ["KW-000111222", "KW-REF-9", "2025-04-20", -12345, "KWD", "Card purchase Kuwait City", ""],
    ]);
    expect(balanceChecks(file, "").map((c) => [c.account, c.opening_minor, c.closing_minor, c.difference_minor, c.ok])).toEqual([
      ["CH9300762011623852957", -25000, 475000, 0, true],
      ["KW-000111222", 100000, 87655, 0, true],
    ]);
  });

  it("052.001.04: a report's booked entries, its information entries left out", () => {
    const file = read("camt052-v04-report.xml");
    expect(file.format).toBe("camt052");
    expect(lines(file)).toEqual([["NL91ABNA0417164300", "NL-0602-01", "2025-06-02", -7525, "EUR", "Servers June", "Cloud BV"]]);
  });

  it("a truncated file is a 400 naming the line and column", () => {
    const error = refusal("camt053-truncated.xml");
    expect(error.code).toBe("validation_error");
    expect(error.message).toMatch(/line \d+, column \d+/);
  });
});

describe("MT940", () => {
  it("SWIFT blocks, two pages (:60M:/:62M:), :86: structured subfields over several lines, a reversal RD", () => {
    const file = read("mt940-structured-two-pages.sta");
    expect(lines(file)).toEqual([
      ["37040044/0532013000", "2025030300012", "2025-03-03", -30000, "EUR", "Freelancer payment March", "Anna Freelancer"],
      ["37040044/0532013000", "2025031000044", "2025-03-10", 80000, "EUR", "Invoice 2025-031", "Client GmbH"],
      ["37040044/0532013000", "2025031500007", "2025-03-15", -1950, "EUR", "Mobile plan", "Telco AG"],
      ["37040044/0532013000", "2025031700003", "2025-03-17", 1950, "EUR", "Reversal: Mobile plan returned", "Telco AG"],
    ]);
    expect(file.statements[0]!.entries[0]).toMatchObject({
      counterparty_account: "DE02120300000000202051",
      reference: "PAYROLL-03",
    });
    // The pages of one account are one check: the first opening, the last closing.
    expect(balanceChecks(file, "")).toEqual([
      expect.objectContaining({ opening_minor: 100000, closing_minor: 150000, ok: true }),
    ]);
  });

  it("bare fields, free-text :86: over two lines, supplementary details, the customer reference", () => {
    const file = read("mt940-plain-multiline.txt");
    expect(lines(file)).toEqual([
      ["GB29NWBK60161331926819", "BANK-0402-1", "2025-04-02", -4599, "GBP", "ELECTRICITY SUPPLIER LTD ACCOUNT 99812 APRIL", ""],
      ["GB29NWBK60161331926819", "BANK-0415-2", "2025-04-15", 125000, "GBP", "CLIENT LTD INVOICE 77", ""],
    ]);
    expect(file.statements[0]!.entries[0]!.reference).toBe("REF123");
  });

  it("a statement without its closing balance is a 400 naming its line", () => {
    expect(refusal("mt940-truncated.txt").message).toContain("line 1 (:20:)");
  });
});

describe("QIF", () => {
  it("month-first dates with apostrophe years and blank padding, thousands commas, an !Account name, other sections skipped", () => {
    const file = read("qif-us-apostrophe-years.qif");
    expect(lines(file)).toEqual([
      ["Checking 4411", null, "2025-01-05", -123456, "USD", "Invoice 4411", "ACME HOSTING"],
      ["Checking 4411", null, "2025-01-10", 250000, "USD", "CLIENT CO", "CLIENT CO"],
      ["Checking 4411", null, "2025-01-15", -4000, "USD", "CITY WATER", "CITY WATER"],
    ]);
  });

  it("day-first dates (dotted, and a day above 12) and decimal commas, in the upload's currency", () => {
    const file = read("qif-day-first.qif", "EUR");
    expect(lines(file)).toEqual([
      ["", null, "2025-03-25", -1950, "EUR", "Mobile plan", "Telco AG"],
      ["", null, "2025-03-31", 148050, "EUR", "Client GmbH", "Client GmbH"],
    ]);
  });

  it("a record cut before its ^ is a 400 naming its line", () => {
    expect(refusal("qif-truncated.qif").message).toContain("line 6");
  });
});

describe("rows of a bank statement", () => {
  const preset = findPreset("generic")!;

  it("take their external_id from the account and the bank's id; a QIF row the hash rule; the upload's account fills in", () => {
    const camt = parseBankStatement(fixture("camt053-v02-batch-reversal.xml"), "camt053", { preset });
    expect(camt.format).toBe("camt053");
    const first = camt.rows[0]!;
    expect("external_id" in first && first.external_id).toBe(
      bankExternalId("DE89 3704 0044 0532 0130 00", "2025030300012/2025030300012-1", 1),
    );
    const qif = parseBankStatement(fixture("qif-day-first.qif"), "qif", { preset, currencyDefault: "EUR", account: "Main" });
    expect(qif.rows.map((r) => ("external_id" in r ? [r.account, r.external_id.startsWith("imp_")] : r))).toEqual([
      ["Main", true],
      ["Main", true],
    ]);
  });

  it("skip transfers to the owner's own accounts and reject future days", () => {
    const parsed = parseBankStatement(fixture("camt053-v02-batch-reversal.xml"), "camt053", {
      preset,
      ownAccounts: ["DE02 1203 0000 0000 2020 51"],
      latestDay: "2025-03-12",
    });
    expect(parsed.skipped_transfers).toBe(1);
    expect(parsed.rows.filter((r) => "rejected" in r).map((r) => r.row)).toEqual([4, 5]);
  });

  it("are recognized by content, not by name; a CSV is none of them", () => {
    expect(detectBankFormat("Date,Amount\n2025-01-01,1\n")).toBeNull();
    expect(detectBankFormat(":20:X\n:25:Y\n:60F:C250101EUR1,00\n")).toBe("mt940");
    expect(detectBankFormat("!Type:Bank\nD1/1/25\nT1\n^\n")).toBe("qif");
  });
});

describe("the examples of docs/imports.md", () => {
  it("are each recognized as the format the page lists them under, and read", () => {
    const examples: Array<[string, string | null]> = [
      ["statement.csv", null],
      ["ofx1-sgml.ofx", "ofx"],
      ["ofx2.qfx", "ofx"],
      ["camt053.xml", "camt053"],
      ["camt052.xml", "camt052"],
      ["mt940.sta", "mt940"],
      ["bank.qif", "qif"],
    ];
    for (const [name, format] of examples) {
      const text = decodeStatementOrRefuse(readFileSync(new URL(`../../../docs/examples/statements/${name}`, import.meta.url)));
      expect(detectBankFormat(text), name).toBe(format);
      if (format) expect(readBankFile(text, format as never, "USD").statements.length, name).toBeGreaterThan(0);
    }
  });
});
