// Imports that just work (issue 14) through the REST layer, on PGlite and on PostgreSQL: the
// formats guessed from the file, the default currency, rejected rows with their raw cells, the
// re-preview of the kept file with another mapping (POST /v1/imports/{id}/preview), and the
// mapping saved per business and header for the next upload.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayParts, todayUtc } from "../../lib/days";
import { callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedAgent, seedBusiness, seedOwner } from "../../test/helpers/seed";

let api: TTestApi;
let businessId: string;
let usdBusinessId: string;

beforeAll(async () => {
  api = await createTestApi();
  businessId = (await seedBusiness(api, { name: "Mapping EUR", currency: "EUR" })).id;
  usdBusinessId = (await seedBusiness(api, { name: "Mapping USD", currency: "USD" })).id;
});
afterAll(async () => api?.close());

const TODAY = todayUtc();
/** A recent day written mm/dd/yyyy and dd.mm.yyyy, its day of the month above 12 (unambiguous). */
function recentDay(offset: number): { iso: string; us: string; de: string } {
  let iso = addDays(TODAY, -offset);
  while (dayParts(iso)[2] <= 12) iso = addDays(iso, -1);
  const [y, m, d] = dayParts(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return { iso, us: `${pad(m)}/${pad(d)}/${y}`, de: `${pad(d)}.${pad(m)}.${y}` };
}

function upload(file: string, fields: Record<string, string> = {}, token?: string) {
  return callMultipart(
    api.handler,
    "/v1/imports",
    { fields: { business_id: businessId, ...fields }, file: { bytes: file } },
    { token },
  );
}
const repreview = (id: string, body: Record<string, unknown>, token?: string) =>
  api.call("POST", `/v1/imports/${id}/preview`, { body, token });
const confirm = (id: string, body: Record<string, unknown> = {}) => api.call("POST", `/v1/imports/${id}/confirm`, { body });

describe("formats guessed from the file", () => {
  it("reads a US export (mm/dd/yyyy, 1,234.56, no currency column) with the generic preset, in the business's currency", async () => {
    const tag = randomUUID().slice(0, 8);
    const [a, b] = [recentDay(20), recentDay(3)];
    const file = ["Date,Description,Amount", `${a.us},Hosting ${tag},-29.00`, `${b.us},Client ${tag},"1,500.00"`].join("\n");
    const response = await upload(file, {}, undefined);
    expect(response.status, response.text).toBe(200);
    const { preview } = response.body.data;
    expect(preview.rejected_count).toBe(0);
    expect(preview.rows).toMatchObject([
      { status: "new", occurred_on: a.iso, amount_minor: -2900, currency: "EUR" },
      { status: "new", occurred_on: b.iso, amount_minor: 150000, currency: "EUR" },
    ]);
    expect(preview).toMatchObject({
      header: ["Date", "Description", "Amount"],
      mapping_source: "preset",
      currency_default: "EUR",
      mapping: { date_format: "mm/dd/yyyy", decimal_separator: ".", delimiter: ",", columns: { date: "Date", currency: null } },
      format_guesses: { date: { date_format: "mm/dd/yyyy", ambiguous: false } },
    });
    // currency_default named in the request wins over the business's.
    const usd = await upload(file.replaceAll(tag, `${tag}u`), { currency_default: "USD" });
    expect(usd.body.data.preview.rows.map((r: { currency: string }) => r.currency)).toEqual(["USD", "USD"]);
    // And a USD business's statement is in USD without asking.
    const other = await upload(file.replaceAll(tag, `${tag}b`), { business_id: usdBusinessId });
    expect(other.body.data.preview.rows.map((r: { currency: string }) => r.currency)).toEqual(["USD", "USD"]);
  });

  it("reads a German export (; separated, dd.mm.yyyy, 1.234,56) with the generic preset", async () => {
    const tag = randomUUID().slice(0, 8);
    const [a, b] = [recentDay(25), recentDay(2)];
    const file = [
      "Buchungstag;Verwendungszweck;Betrag;Währung",
      `${a.de};Miete ${tag};-1.234,56;EUR`,
      `${b.de};Rechnung ${tag};2.000,00;EUR`,
    ].join("\r\n");
    const response = await upload(file);
    expect(response.status, response.text).toBe(200);
    const { preview } = response.body.data;
    expect(preview.rejected_count).toBe(0);
    expect(preview.rows).toMatchObject([
      { occurred_on: a.iso, amount_minor: -123456, currency: "EUR", description: `Miete ${tag}` },
      { occurred_on: b.iso, amount_minor: 200000 },
    ]);
    expect(preview.mapping).toMatchObject({
      delimiter: ";",
      date_format: "dd.mm.yyyy",
      decimal_separator: ",",
      thousands_separator: ".",
    });
  });
});

describe("POST /v1/imports/{id}/preview", () => {
  it("shows rejected rows with their raw cells, re-reads the kept file with a fixed mapping, and confirms what was previewed last", async () => {
    const tag = randomUUID().slice(0, 8);
    const [a, b] = [recentDay(15), recentDay(4)];
    const file = ["When,What,Sum", `${a.us},Rent ${tag},-900.00`, `${b.us},Sale ${tag},120.50`].join("\n");
    // The owner's first try reads the dates the wrong way round: every row rejected, with its cells.
    const wrong = { columns: { date: "When", description: "What", amount: "Sum" }, date_format: "dd/mm/yyyy" };
    const first = await upload(file, { mapping: JSON.stringify(wrong) });
    expect(first.status, first.text).toBe(200);
    const id = first.body.data.import_id;
    expect(first.body.data.preview).toMatchObject({ rejected_count: 2, would_insert: 0, mapping_source: "request" });
    expect(first.body.data.preview.rows[0]).toMatchObject({
      row: 1,
      status: "rejected",
      reject_reason: expect.stringContaining("unparsable date"),
      raw: [a.us, `Rent ${tag}`, "-900.00"],
    });
    const stored = await api.call("GET", `/v1/imports/${id}`);
    expect(stored.body.data.rows[1].raw).toEqual([b.us, `Sale ${tag}`, "120.50"]);

    // A column the header lacks: 400 naming the header; nothing changes.
    expectApiError(await repreview(id, { mapping: { columns: { date: "Nope" } } }), 400, "validation_error");

    // Fixed without uploading again.
    const fixed = { ...wrong, date_format: "mm/dd/yyyy" };
    const again = await repreview(id, { mapping: fixed, currency_default: "GBP" });
    expect(again.status, again.text).toBe(200);
    expect(again.body.data).toMatchObject({ import_id: id, expires_at: first.body.data.expires_at });
    expect(again.body.data.preview).toMatchObject({ rejected_count: 0, would_insert: 2, currency_default: "GBP" });
    expect(again.body.data.preview.rows).toMatchObject([
      { status: "new", occurred_on: a.iso, amount_minor: -90000, currency: "GBP" },
      { status: "new", occurred_on: b.iso, amount_minor: 12050, currency: "GBP" },
    ]);
    const got = await api.call("GET", `/v1/imports/${id}`);
    expect(got.body.data.rows).toEqual(again.body.data.preview.rows);
    expect(got.body.data.summary).toMatchObject({ rejected_count: 0, currency_default: "GBP" });

    // The confirm writes what was previewed last: the old mapping is refused, the new (or none) accepted.
    expectApiError(await confirm(id, { mapping: wrong }), 400, "validation_error");
    const done = await confirm(id, { mapping: again.body.data.preview.mapping });
    expect(done.status, done.text).toBe(201);
    expect(done.body.data).toMatchObject({ inserted: 2, rejected: [] });
    const events = await api.db.financialEvent.findMany({ where: { payload: { path: ["batch_id"], equals: id } } });
    expect(events.map((e) => e.currency)).toEqual(["GBP", "GBP"]);
    // The file is not kept once confirmed, and a confirmed import is not re-previewed.
    expect((await api.db.import.findUniqueOrThrow({ where: { id } })).source).toBeNull();
    expectApiError(await repreview(id, {}), 409, "state_conflict");
  });

  it("answers 409 once expired, 404 to another owner, 403 to an agent, and appears in the OpenAPI document", async () => {
    const file = ["Date,Description,Amount", `${recentDay(5).iso},Late ${randomUUID()},-3.00`].join("\n");
    const id = (await upload(file)).body.data.import_id;
    const bob = await seedOwner(api);
    expectApiError(await repreview(id, {}, bob.token), 404, "not_found");
    const agent = await seedAgent(api, { name: "Previewer" });
    expectApiError(await repreview(id, {}, agent.token), 403, "scope_denied");
    expectApiError(await repreview(id, { currency_default: "eur" }), 400, "validation_error");
    const ok = await repreview(id, {});
    expect(ok.status, ok.text).toBe(200);
    await api.db.import.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectApiError(await repreview(id, {}), 409, "state_conflict");

    const doc = await api.call("GET", "/v1/openapi.json", { token: null });
    expect(doc.body.paths["/v1/imports/{id}/preview"].post).toBeDefined();
    const preview = doc.body.components.schemas.ImportPreview.properties;
    expect(Object.keys(preview)).toEqual(expect.arrayContaining(["header", "mapping", "mapping_source", "format_guesses"]));
    expect(doc.body.components.schemas.ImportRow.properties.raw).toBeDefined();
  });
});

describe("the mapping saved for next time", () => {
  it("suggests the mapping confirmed last time for the same business and header, not for another business", async () => {
    const tag = randomUUID().slice(0, 8);
    const header = `Posted ${tag};Text;Value`;
    const mapping = { columns: { date: `Posted ${tag}`, description: "Text", amount: "Value" } };
    const first = await upload([header, `${recentDay(30).de};Power ${tag};-80,00`].join("\n"), {
      mapping: JSON.stringify(mapping),
    });
    expect(first.body.data.preview).toMatchObject({ rejected_count: 0, mapping_source: "request" });
    expect((await confirm(first.body.data.import_id)).status).toBe(201);

    // The next statement of the same layout, no mapping sent: the saved one reads it.
    const next = await upload([header, `${recentDay(1).de};Power ${tag};-81,00`].join("\n"));
    expect(next.status, next.text).toBe(200);
    expect(next.body.data.preview).toMatchObject({
      rejected_count: 0,
      mapping_source: "saved",
      mapping: { date_format: "dd.mm.yyyy", decimal_separator: ",", columns: { date: `Posted ${tag}` } },
    });
    expect(next.body.data.preview.rows[0]).toMatchObject({ amount_minor: -8100, currency: "EUR" });

    // Another business has no saved mapping for it: the preset's names find nothing, so the columns are read off the cells.
    const elsewhere = await upload([header, `${recentDay(1).de};Power ${tag};-81,00`].join("\n"), {
      business_id: usdBusinessId,
    });
    expect(elsewhere.status, elsewhere.text).toBe(200);
    expect(elsewhere.body.data.preview).toMatchObject({
      mapping_source: "preset",
      currency_default: "USD",
      mapping: { columns: { date: `Posted ${tag}`, amount: "Value", description: "Text" } },
      rejected_count: 0,
    });
    // Nor does another owner see it.
    expect(await api.db.importMapping.count({ where: { businessId } })).toBeGreaterThan(0);
  });
});
