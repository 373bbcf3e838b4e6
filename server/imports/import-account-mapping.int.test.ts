// The mapping saved per bank account (issue 14: "a mapping is saved PER BANK ACCOUNT for next
// time"), through the REST layer on PGlite and on PostgreSQL: the upload's account field, the
// lookup order (the request's mapping, the account's, the header's, the preset's), the confirm
// keeping both, the re-preview keeping the account, GET /v1/imports/accounts, tenant isolation
// and the refusals of a malformed account.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayParts, todayUtc } from "../../lib/days";
import { callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, seedOwner } from "../../test/helpers/seed";

let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => api?.close());

/** A recent day written dd.mm.yyyy, its day of the month above 12 (unambiguous). */
function recentDay(offset: number): { iso: string; de: string } {
  let iso = addDays(todayUtc(), -offset);
  while (dayParts(iso)[2] <= 12) iso = addDays(iso, -1);
  const [y, m, d] = dayParts(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return { iso, de: `${pad(d)}.${pad(m)}.${y}` };
}

function upload(businessId: string, file: string, fields: Record<string, string> = {}, token?: string) {
  return callMultipart(
    api.handler,
    "/v1/imports",
    { fields: { business_id: businessId, ...fields }, file: { bytes: file } },
    { token },
  );
}
const confirm = (id: string) => api.call("POST", `/v1/imports/${id}/confirm`, { body: {} });

/**
 * A statement whose column names no preset knows, with a column that looks like an amount
 * before the real one: the preset's guess reads "Saldo" (the balance), the owner's mapping "Betrag".
 */
function statement(tag: string, day: number, extraColumn = false) {
  const header = ["Tag", "Text", "Saldo", "Betrag", ...(extraColumn ? ["Notiz"] : [])].join(";");
  const row = [recentDay(day).de, `Strom ${tag}`, "1.000,00", "-80,00", ...(extraColumn ? ["x"] : [])].join(";");
  return [header, row].join("\n");
}
const MAPPING = { columns: { date: "Tag", description: "Text", amount: "Betrag" }, date_format: "dd.mm.yyyy" };

/** Confirms a first statement read with MAPPING, for this account (if any); answers the import. */
async function confirmFirst(businessId: string, tag: string, account?: string) {
  const first = await upload(businessId, statement(tag, 40), {
    mapping: JSON.stringify(MAPPING),
    currency_default: "CHF",
    ...(account ? { account } : {}),
  });
  expect(first.status, first.text).toBe(200);
  expect(first.body.data.preview).toMatchObject({ mapping_source: "request", mapping_saved_for: null, account: account ?? null });
  expect((await confirm(first.body.data.import_id)).status).toBe(201);
  return first.body.data;
}

describe("the mapping saved per bank account", () => {
  it("reads the next statement of the same account with its mapping, even when the header changed; another account does not", async () => {
    const tag = randomUUID().slice(0, 8);
    const businessId = (await seedBusiness(api, { name: `Accounts ${tag}` })).id;
    await confirmFirst(businessId, tag, "DE89 3704 0044 0532 0130 00");

    // The same account written another way, the same file layout: the account's mapping (tried before the header's).
    const same = await upload(businessId, statement(tag, 20), { account: "de89370400440532013000" });
    expect(same.status, same.text).toBe(200);
    expect(same.body.data.preview).toMatchObject({
      mapping_source: "saved",
      mapping_saved_for: "account",
      account: "de89370400440532013000",
      currency_default: "CHF",
      rejected_count: 0,
      mapping: { columns: { date: "Tag", amount: "Betrag" } },
    });
    expect(same.body.data.preview.rows[0]).toMatchObject({ amount_minor: -8000, currency: "CHF" });

    // The bank added a column: a new layout, no header's mapping for it, but the account's still fits.
    const changed = await upload(businessId, statement(tag, 19, true), { account: "DE89-3704-0044-0532-0130-00" });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.preview).toMatchObject({
      mapping_source: "saved",
      mapping_saved_for: "account",
      mapping: { columns: { amount: "Betrag" } },
    });
    // Without the account, that layout is the preset's guess; with another account too.
    for (const fields of [{}, { account: "Main card" }] as Array<Record<string, string>>) {
      const guessed = await upload(businessId, statement(tag, 19, true), fields);
      expect(guessed.status, guessed.text).toBe(200);
      expect(guessed.body.data.preview).toMatchObject({
        mapping_source: "preset",
        mapping_saved_for: null,
        currency_default: "EUR",
      });
    }
    // Another account, the first layout: the header's mapping (saved by the same confirm).
    const other = await upload(businessId, statement(tag, 18), { account: "Main card" });
    expect(other.body.data.preview).toMatchObject({ mapping_source: "saved", mapping_saved_for: "layout", account: "Main card" });
    // A mapping sent with the upload wins over both.
    const sent = await upload(businessId, statement(tag, 17), {
      account: "DE89 3704 0044 0532 0130 00",
      mapping: JSON.stringify({ ...MAPPING, columns: { ...MAPPING.columns, amount: "Saldo" } }),
    });
    expect(sent.body.data.preview).toMatchObject({ mapping_source: "request", mapping_saved_for: null });

    // GET /v1/imports/{id} keeps it in the summary.
    const got = await api.call("GET", `/v1/imports/${same.body.data.import_id}`);
    expect(got.body.data.summary).toMatchObject({
      mapping_source: "saved",
      mapping_saved_for: "account",
      account: "de89370400440532013000",
    });
  });

  it("skips an account's mapping that no longer fits the file: the header's mapping, else the preset's", async () => {
    const tag = randomUUID().slice(0, 8);
    const businessId = (await seedBusiness(api, { name: `Fallback ${tag}` })).id;
    await confirmFirst(businessId, tag, "Savings");

    // A layout without the "Betrag" column the account's mapping reads, with a mapping saved for its header.
    const header = `Datum ${tag},Zweck,Summe`;
    const line = (day: number) => `${recentDay(day).de},Miete ${tag},"-900,00"`;
    const layoutMapping = {
      columns: { date: `Datum ${tag}`, description: "Zweck", amount: "Summe" },
      decimal_separator: ",",
      thousands_separator: null,
    };
    const first = await upload(businessId, [header, line(30)].join("\n"), { mapping: JSON.stringify(layoutMapping) });
    expect((await confirm(first.body.data.import_id)).status).toBe(201);

    const next = await upload(businessId, [header, line(10)].join("\n"), { account: "savings" });
    expect(next.status, next.text).toBe(200);
    expect(next.body.data.preview).toMatchObject({
      mapping_source: "saved",
      mapping_saved_for: "layout",
      rejected_count: 0,
      mapping: { columns: { amount: "Summe" } },
    });
    expect(next.body.data.preview.rows[0]).toMatchObject({ amount_minor: -90000 });

    // Neither fits a third layout: the preset's names (with the columns read off the cells).
    const third = await upload(businessId, [`When ${tag},What,How much`, `${recentDay(9).de},Gas ${tag},"-12,00"`].join("\n"), {
      account: "Savings",
    });
    expect(third.status, third.text).toBe(200);
    expect(third.body.data.preview).toMatchObject({ mapping_source: "preset", mapping_saved_for: null, account: "Savings" });
  });

  it("keeps the account through a re-preview, and the confirm saves the mapping previewed last for it", async () => {
    const tag = randomUUID().slice(0, 8);
    const businessId = (await seedBusiness(api, { name: `Repreview ${tag}` })).id;
    const first = await upload(businessId, statement(tag, 30), { account: "Card 4411" });
    expect(first.body.data.preview).toMatchObject({ mapping_source: "preset", account: "Card 4411" });
    const id = first.body.data.import_id;
    const again = await api.call("POST", `/v1/imports/${id}/preview`, { body: { mapping: MAPPING } });
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.preview).toMatchObject({ mapping_source: "request", account: "Card 4411" });
    expect((await confirm(id)).status).toBe(201);

    const stored = await api.db.importMapping.findMany({ where: { businessId }, orderBy: { kind: "asc" } });
    expect(stored.map((row) => [row.kind, row.account])).toEqual([
      ["account", "Card 4411"],
      ["layout", null],
    ]);
    expect(stored[0]).toMatchObject({ key: "CARD4411", mapping: { columns: { amount: "Betrag" } } });
    const audit = await api.db.auditEntry.findFirst({ where: { action: "import.confirmed", targetId: id } });
    expect(audit?.details).toMatchObject({ mapping_saved: true, mapping_saved_for_account: true });

    // A re-preview of the next upload keeps where its saved mapping came from.
    const next = await upload(businessId, statement(tag, 5, true), { account: "card 4411" });
    expect(next.body.data.preview).toMatchObject({ mapping_source: "saved", mapping_saved_for: "account" });
    const kept = await api.call("POST", `/v1/imports/${next.body.data.import_id}/preview`, { body: { currency_default: "USD" } });
    expect(kept.body.data.preview).toMatchObject({ mapping_source: "saved", mapping_saved_for: "account", account: "card 4411" });
  });

  it("lists the accounts in GET /v1/imports/accounts, and another owner sees none of them nor their mappings", async () => {
    const tag = randomUUID().slice(0, 8);
    const businessId = (await seedBusiness(api, { name: `Listed ${tag}` })).id;
    const otherBusinessId = (await seedBusiness(api, { name: `Unlisted ${tag}` })).id;
    await confirmFirst(businessId, tag, `Joint ${tag}`);

    const listed = await api.call("GET", `/v1/imports/accounts?business_id=${businessId}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toMatchObject({ data: [{ account: `Joint ${tag}`, business_id: businessId }], truncated: false });
    expect(listed.body.data[0].updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const all = await api.call("GET", "/v1/imports/accounts");
    expect(all.body.data.map((a: { account: string }) => a.account)).toContain(`Joint ${tag}`);
    expect((await api.call("GET", `/v1/imports/accounts?business_id=${otherBusinessId}`)).body.data).toEqual([]);
    // The mapping is the business's: the owner's other business does not read with it.
    const elsewhere = await upload(otherBusinessId, statement(tag, 3), { account: `Joint ${tag}` });
    expect(elsewhere.body.data.preview).toMatchObject({ mapping_source: "preset" });

    const bob = await seedOwner(api);
    const bobBusiness = (await seedBusiness(api, { name: `Bob ${tag}` }, bob.token)).id;
    const bobs = await upload(bobBusiness, statement(tag, 3), { account: `Joint ${tag}` }, bob.token);
    expect(bobs.status, bobs.text).toBe(200);
    expect(bobs.body.data.preview).toMatchObject({ mapping_source: "preset", mapping_saved_for: null });
    expect((await api.call("GET", "/v1/imports/accounts", { token: bob.token })).body.data).toEqual([]);
    const peek = await api.call("GET", `/v1/imports/accounts?business_id=${businessId}`, { token: bob.token });
    expect(peek.status).toBe(200);
    expect(peek.body.data).toEqual([]);
    // Nor can Bob upload into the owner's business to reach it.
    expectApiError(await upload(businessId, statement(tag, 3), { account: `Joint ${tag}` }, bob.token), 404, "not_found");
  });

  it("refuses a malformed account with 400 naming the field, and writes nothing", async () => {
    const tag = randomUUID().slice(0, 8);
    const businessId = (await seedBusiness(api, { name: `Refused ${tag}` })).id;
    const before = await api.db.import.count({ where: { businessId } });
    for (const [what, account] of [
      ["65 characters", "A".repeat(65)],
      ["no letter or digit", " - - "],
      ["a line break", "Main\ncard"],
      ["a tab", "Main\tcard"],
      ["a NUL", "Main\u0000card"],
    ] as const) {
      expectApiError(await upload(businessId, statement(tag, 3), { account }), 400, "validation_error", {
        issue: "account",
        what,
      });
    }
    expect(await api.db.import.count({ where: { businessId } })).toBe(before);
    expect(await api.db.importMapping.count({ where: { businessId } })).toBe(0);
    // Blank is no account; 64 characters (after trimming) are one.
    const blank = await upload(businessId, statement(tag, 3), { account: "   " });
    expect(blank.body.data.preview.account).toBeNull();
    const longest = await upload(businessId, statement(tag, 3), { account: ` ${"B".repeat(64)} ` });
    expect(longest.status, longest.text).toBe(200);
    expect(longest.body.data.preview.account).toBe("B".repeat(64));
  });

  it("is documented in the OpenAPI document", async () => {
    const doc = await api.call("GET", "/v1/openapi.json", { token: null });
    expect(doc.body.components.schemas.CreateImportForm.properties.account.description).toContain("bank account");
    expect(doc.body.components.schemas.ImportPreview.properties).toHaveProperty("mapping_saved_for");
    expect(doc.body.components.schemas.ImportPreview.properties).toHaveProperty("account");
    expect(doc.body.paths["/v1/imports/accounts"].get).toBeDefined();
  });
});
