// One ledger, every format (issue 35): a generated ledger written as OFX (1.x and 2.x), CAMT.053,
// CAMT.052, MT940, QIF and CSV reads back as the same rows (day, signed amount, currency,
// description, counterparty) in 0-, 2- and 3-digit currencies, and the bank formats give every
// row the same external_id (the account and the bank's own id), so an overlapping statement in
// another format dedupes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { writeCamt, writeCsv, writeMt940, writeOfx, writeQif, type TLedger } from "../../../test/helpers/bank-statements";
import { parseStatement, type TParsedStatement } from "../parse-statement";
import { findPreset } from "../presets";
import { detectBankFormat, parseBankStatement } from "./read-bank-file";

const preset = findPreset("generic")!;
const word = fc.stringMatching(/^[A-Za-z0-9]{1,12}$/);
const text = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(" "));

const ledgerArb = fc
  .record({
    currency: fc.constantFrom("JPY", "EUR", "KWD", "USD"),
    account: fc.stringMatching(/^[A-Z]{2}[0-9]{10,20}$/),
    opening_minor: fc.integer({ min: -10_000_000, max: 10_000_000 }),
    lines: fc.array(
      fc.record({
        date: fc.date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2025-12-31T00:00:00Z"), noInvalidDate: true }),
        amount_minor: fc.integer({ min: -99_999_999, max: 99_999_999 }).filter((n) => n !== 0),
        description: text,
        // MT940 holds a name in ?32 and ?33: 54 characters.
        counterparty: text.map((t) => t.slice(0, 54).trim()),
      }),
      { minLength: 1, maxLength: 25 },
    ),
  })
  .map((raw): TLedger => ({
    ...raw,
    lines: raw.lines.map((line, i) => ({
      ...line,
      date: line.date.toISOString().slice(0, 10),
      id: `TX${i + 1}-${raw.account.slice(-4)}`,
    })),
  }));

function bank(text: string, ledger: TLedger): TParsedStatement {
  const format = detectBankFormat(text);
  if (!format) throw new Error("not recognized");
  return parseBankStatement(text, format, { preset, currencyDefault: ledger.currency, account: ledger.account });
}

const events = (parsed: TParsedStatement) =>
  parsed.rows.map((row) => {
    if (!("external_id" in row)) throw new Error(`row ${row.row} rejected: ${row.rejected}`);
    return [row.occurred_on, row.amount_minor, row.currency, row.description, row.counterparty];
  });
const ids = (parsed: TParsedStatement) => parsed.rows.map((row) => ("external_id" in row ? row.external_id : null));

describe("a generated ledger in every format", () => {
  it("imports to the same events, and the bank formats to the same external ids", () => {
    fc.assert(
      fc.property(ledgerArb, (ledger) => {
        const expected = ledger.lines.map((l) => [l.date, l.amount_minor, ledger.currency, l.description, l.counterparty]);
        const ofx1 = bank(writeOfx([ledger], 1), ledger);
        const written = [
          ofx1,
          bank(writeOfx([ledger], 2), ledger),
          bank(writeCamt([ledger], { version: "02" }), ledger),
          bank(writeCamt([ledger], { version: "08" }), ledger),
          bank(writeCamt([ledger], { kind: "052", version: "05" }), ledger),
          bank(writeMt940([ledger]), ledger),
        ];
        for (const parsed of written) {
          expect(events(parsed)).toEqual(expected);
          expect(ids(parsed)).toEqual(ids(ofx1));
        }
        for (const parsed of written.slice(2)) expect(parsed.balance_check?.[0]).toMatchObject({ difference_minor: 0, ok: true });
        expect(events(bank(writeQif(ledger), ledger))).toEqual(expected);
        const csv = parseStatement(writeCsv(ledger), {
          preset,
          mapping: { decimal_separator: ".", thousands_separator: null, date_format: "yyyy-mm-dd" },
        });
        expect(events(csv)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});
