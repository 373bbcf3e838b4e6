// Bank statement formats through POST /v1/imports end to end (issue 35, pinned-wave3 §3): OFX
// 1.x and 2.x, CAMT.053 and .052, MT940 and QIF go through the same preview, dedupe and confirm
// as CSV: a round trip per format in 0-, 2- and 3-digit currencies (events with the bank's id
// in their external_id), a re-import dedupes, an overlapping statement in another format
// dedupes, a balance that does not add up is shown off by the exact amount, the closing balance
// becomes a cash snapshot (once per account and day), a malformed or truncated file is a 400
// naming where, writing nothing, and XLS or PDF stay 415. On PGlite and on PostgreSQL.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayUtc } from "../../lib/days";
import { callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { writeCamt, writeMt940, writeOfx, writeQif, type TLedger } from "../../test/helpers/bank-statements";
import { seedBusiness, seedOwner, staticOwner } from "../../test/helpers/seed";
import { bankExternalId } from "./formats/read-bank-file";

let api: TTestApi;
let ownerId: string;
let businessId: string;
/** An owner keeping their books in KWD (the test rates know no 3-digit currency: no conversion needed in base). */
let kwd: { token: string; businessId: string };

beforeAll(async () => {
  api = await createTestApi();
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
  const owner = await seedOwner(api);
  await api.db.owner.update({ where: { id: owner.ownerId }, data: { baseCurrency: "KWD", baseCurrencyConfirmed: true } });
  kwd = { token: owner.token, businessId: (await seedBusiness(api, { currency: "KWD" }, owner.token)).id };
});
afterAll(async () => api?.close());

const TODAY = todayUtc();
const daysAgo = (days: number) => addDays(TODAY, -days);

function upload(file: string | Uint8Array, fields: Record<string, string> = {}, name = "statement", token?: string) {
  return callMultipart(
    api.handler,
    "/v1/imports",
    { fields: { business_id: businessId, ...fields }, file: { bytes: file, name } },
    { token },
  );
}

const confirm = (id: string, token?: string) => api.call("POST", `/v1/imports/${id}/confirm`, { body: {}, token });

const eventsOfBatch = (importId: string) =>
  api.db.financialEvent.findMany({
    where: { payload: { path: ["batch_id"], equals: importId } },
    orderBy: { occurredOn: "asc" },
  });

/** A ledger of a fresh account: money out, in, out, in the currency's own precision. */
function ledger(currency: string, amounts: number[] = [-1250, 90000, -7]): TLedger {
  const tag = randomUUID().slice(0, 8);
  return {
    account: `DE${String(Math.floor(Math.random() * 1e12)).padStart(12, "0")}${tag.replace(/\D/g, "").padEnd(8, "0")}`.slice(
      0,
      22,
    ),
    currency,
    opening_minor: 100000,
    lines: amounts.map((amount_minor, i) => ({
      id: `${tag}-${i + 1}`,
      date: daysAgo(20 - i),
      amount_minor,
      description: `Line ${i + 1} ${tag}`,
      counterparty: `Party ${i + 1}`,
    })),
  };
}

const WRITERS: Record<string, { format: string; write: (l: TLedger) => string; bankIds: boolean }> = {
  "OFX 1.x": { format: "ofx", write: (l) => writeOfx([l], 1), bankIds: true },
  "OFX 2.x": { format: "ofx", write: (l) => writeOfx([l], 2), bankIds: true },
  "CAMT.053": { format: "camt053", write: (l) => writeCamt([l], { version: "02" }), bankIds: true },
  "CAMT.052": { format: "camt052", write: (l) => writeCamt([l], { kind: "052", version: "08" }), bankIds: true },
  MT940: { format: "mt940", write: (l) => writeMt940([l]), bankIds: true },
  QIF: { format: "qif", write: (l) => writeQif(l), bankIds: false },
};

describe("POST /v1/imports with bank statement formats", () => {
  for (const [name, writer] of Object.entries(WRITERS)) {
    for (const currency of ["JPY", "EUR", "KWD"]) {
      it(`${name} in ${currency}: preview, confirm, events with the bank's id, a re-import dedupes`, async () => {
        const l = ledger(currency);
        const as = currency === "KWD" ? kwd : { token: undefined, businessId };
        const fields = {
          business_id: as.businessId,
          ...(writer.format === "qif" ? { currency_default: currency, account: l.account } : {}),
        };
        const previewed = await upload(writer.write(l), fields, "statement", as.token);
        expect(previewed.status, previewed.text).toBe(200);
        const { import_id, preview } = previewed.body.data;
        expect(preview.format).toBe(writer.format);
        expect(preview.total_rows).toBe(3);
        expect(
          preview.rows.map((r: { status: string; amount_minor: number; currency: string }) => [
            r.status,
            r.amount_minor,
            r.currency,
          ]),
        ).toEqual([
          ["new", -1250, currency],
          ["new", 90000, currency],
          ["new", -7, currency],
        ]);
        if (writer.bankIds) {
          expect(preview.rows.map((r: { external_id: string }) => r.external_id)).toEqual(
            l.lines.map((line) => bankExternalId(l.account, line.id, 1)),
          );
        }

        const confirmed = await confirm(import_id, as.token);
        expect(confirmed.status, confirmed.text).toBe(201);
        expect(confirmed.body.data).toMatchObject({ inserted: 3, deduped: 0, rejected: [] });
        const events = await eventsOfBatch(import_id);
        expect(events.map((e) => [e.type, e.amountMinor, e.currency, e.description])).toEqual([
          ["expense", 1250n, currency, l.lines[0]!.description],
          ["revenue", 90000n, currency, l.lines[1]!.description],
          ["expense", 7n, currency, l.lines[2]!.description],
        ]);
        expect(events.map((e) => e.externalId)).toEqual(preview.rows.map((r: { external_id: string }) => r.external_id));

        const again = await upload(writer.write(l), fields, "statement", as.token);
        expect(again.status, again.text).toBe(200);
        expect(again.body.data.preview).toMatchObject({ would_insert: 0, would_dedupe: 3 });
        expect((await confirm(again.body.data.import_id, as.token)).body.data).toMatchObject({ inserted: 0, deduped: 3 });
      });
    }
  }

  it("an overlapping statement of the same account in another format dedupes by the bank's id", async () => {
    const whole = ledger("EUR", [-100, -200, 300, -400]);
    const first = { ...whole, lines: whole.lines.slice(0, 3) };
    const ofx = await upload(writeOfx([first], 1));
    expect((await confirm(ofx.body.data.import_id)).body.data).toMatchObject({ inserted: 3 });
    const later = { ...whole, opening_minor: whole.opening_minor - 100, lines: whole.lines.slice(1) };
    for (const file of [writeCamt([later]), writeMt940([later])]) {
      const previewed = await upload(file);
      expect(previewed.status, previewed.text).toBe(200);
      expect(previewed.body.data.preview.rows.map((r: { status: string }) => r.status)).toEqual(["already", "already", "new"]);
    }
  });

  it("shows a balance that does not add up off by the exact amount, and keeps each closing balance as one cash snapshot", async () => {
    const l = { ...ledger("EUR"), closing_minor: 100000 - 1250 + 90000 - 7 + 1234 };
    const ok = ledger("EUR");
    const previewed = await upload(writeCamt([l, ok]));
    expect(previewed.status, previewed.text).toBe(200);
    const { preview, import_id } = previewed.body.data;
    expect(preview.balance_check).toEqual([
      {
        account: l.account,
        currency: "EUR",
        opening_minor: 100000,
        closing_minor: 189977,
        closing_on: daysAgo(18),
        rows_sum_minor: 88743,
        difference_minor: 1234,
        ok: false,
      },
      expect.objectContaining({ account: ok.account, difference_minor: 0, ok: true }),
    ]);
    // A re-preview reads the stored file the same way (the mapping does not apply to a bank statement).
    const repreviewed = await api.call("POST", `/v1/imports/${import_id}/preview`, { body: {} });
    expect(repreviewed.status, repreviewed.text).toBe(200);
    expect(repreviewed.body.data.preview).toMatchObject({
      format: "camt053",
      balance_check: preview.balance_check,
      would_insert: 6,
    });
    const confirmed = await confirm(import_id);
    expect(confirmed.status, confirmed.text).toBe(201);
    expect(confirmed.body.data.cash_snapshots).toEqual([
      { account: l.account, currency: "EUR", amount_minor: 189977, as_of: `${daysAgo(18)}T00:00:00.000Z`, outcome: "created" },
      expect.objectContaining({ account: ok.account, outcome: "created" }),
    ]);
    const snapshot = await api.db.cashSnapshot.findMany({ where: { ownerId, accountId: l.account } });
    expect(snapshot).toHaveLength(1);
    expect(snapshot[0]).toMatchObject({
      businessId,
      amountMinor: 189977n,
      currency: "EUR",
      sourceType: "IMPORT",
      dataClass: "real",
    });
    expect(snapshot[0]!.asOf.toISOString()).toBe(`${daysAgo(18)}T00:00:00.000Z`);

    const again = await upload(writeMt940([l]));
    const reconfirmed = await confirm(again.body.data.import_id);
    expect(reconfirmed.body.data.cash_snapshots).toEqual([expect.objectContaining({ account: l.account, outcome: "kept" })]);
    expect(await api.db.cashSnapshot.count({ where: { ownerId, accountId: l.account } })).toBe(1);
  });

  it("reads the fixtures of several accounts (OFX bank and card) into one preview", async () => {
    const file = readFileSync(new URL("./formats/__fixtures__/ofx1-sgml-two-accounts.ofx", import.meta.url));
    const previewed = await upload(file);
    expect(previewed.status, previewed.text).toBe(200);
    expect(previewed.body.data.preview.rows.map((r: { account: string }) => r.account)).toEqual([
      "0123456789",
      "0123456789",
      "0123456789",
      "4111000011112222",
    ]);
  });

  it("answers 400 naming the line or element of a malformed or truncated file, storing nothing", async () => {
    const before = await api.db.import.count({ where: { ownerId } });
    const cases: Array<[string, RegExp]> = [
      ["ofx1-truncated.ofx", /<STMTTRN> \(line 20\)/],
      ["camt053-truncated.xml", /line \d+, column \d+/],
      ["mt940-truncated.txt", /line 1 \(:20:\)/],
      ["qif-truncated.qif", /line 6/],
    ];
    for (const [name, where] of cases) {
      const file = readFileSync(new URL(`./formats/__fixtures__/${name}`, import.meta.url));
      expectApiError(await upload(file, { currency_default: "EUR" }), 400, "validation_error", { message: where });
    }
    const badAmount = writeMt940([ledger("EUR")]).replace(/:61:(\d{10})D12,50/, ":61:$1D12,5X");
    expectApiError(await upload(badAmount), 400, "validation_error", { message: /line 5 \(:61:\)/ });
    expect(await api.db.import.count({ where: { ownerId } })).toBe(before);
  });

  it("still answers 415 for XLS and PDF", async () => {
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    const pdf = new TextEncoder().encode("%PDF-1.7\n1 0 obj\n");
    expectApiError(await upload(xls, {}, "statement.xls"), 415, "unsupported_media_type");
    expectApiError(await upload(pdf, {}, "statement.pdf"), 415, "unsupported_media_type");
  });
});
