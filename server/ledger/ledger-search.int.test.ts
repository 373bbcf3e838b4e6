// The ledger as an owner works it (issue 14): GET /v1/events searched (q), filtered by
// category and source, sorted by day or amount with a stable cursor per sort; the filtered
// totals (GET /v1/events/totals) counted as the Overview counts; the CSV export.
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { insertEventRow } from "../../test/helpers/event-rows";
import { walkPages } from "../../test/helpers/pages";
import { EXPORT_MAX_ROWS } from "./routes";
import { seedBusiness, seedEvent, seedOwner, type TSeedOwner } from "../../test/helpers/seed";

let api: TTestApi;
let owner: TSeedOwner;
let other: TSeedOwner;
let businessId: string;
const ids: Record<string, string> = {};

/** An owner whose base currency is EUR, so EUR amounts are their own base amounts. */
async function euroOwner(): Promise<TSeedOwner> {
  const seeded = await seedOwner(api);
  await api.db.owner.update({ where: { id: seeded.ownerId }, data: { baseCurrency: "EUR" } });
  return seeded;
}

async function get(path: string, token = owner.token) {
  return api.call("GET", path, { token });
}

beforeAll(async () => {
  api = await createTestApi();
  owner = await euroOwner();
  other = await euroOwner();
  businessId = (await seedBusiness(api, { name: "Atlas Studio", currency: "EUR" }, owner.token)).id;
  const expense = (body: Record<string, unknown>) => seedEvent(api, "expense", { business_id: businessId, ...body }, owner.token);
  const revenue = (body: Record<string, unknown>) => seedEvent(api, "revenue", { business_id: businessId, ...body }, owner.token);
  ids.figma = (
    await expense({ amount_minor: 1500, occurred_on: "2026-01-10", category: "Software", description: "Figma seat" })
  ).id;
  ids.rent = (
    await expense({ amount_minor: 90000, occurred_on: "2026-01-01", category: "Office", description: "Rent January" })
  ).id;
  ids.percent = (
    await expense({ amount_minor: 700, occurred_on: "2026-01-12", category: "Fees", description: "50% off_promo" })
  ).id;
  ids.client = (
    await revenue({ amount_minor: 250000, occurred_on: "2026-01-20", category: "Sales", description: "Invoice ACME" })
  ).id;
  ids.formula = (
    await expense({ amount_minor: 1234, occurred_on: "2026-01-05", description: '=HYPERLINK("http://x.test","click")' })
  ).id;
  ids.planned = (await seedEvent(api, "planned_expense", { business_id: businessId, amount_minor: 5000, occurred_on: "2026-02-01", category: "software", description: "Figma renewal" }, owner.token)).id; // prettier-ignore
  // An imported bank line with a counterparty, and a voided and a reconciled one that never count.
  ids.imported = await insertEventRow(api, owner.ownerId, {
    businessId,
    type: "expense",
    amount: 4200n,
    on: "2026-01-15",
    description: "CARD 1234",
  });
  await api.db.financialEvent.update({
    where: { id: ids.imported },
    data: { sourceType: "IMPORT", payload: { counterparty: "Hetzner Online GmbH" }, category: "Hosting" },
  });
  ids.voided = await insertEventRow(api, owner.ownerId, { businessId, type: "expense", amount: 999n, on: "2026-01-11", status: "voided", description: "Figma duplicate" }); // prettier-ignore
  ids.reconciled = await insertEventRow(api, owner.ownerId, { businessId, type: "revenue", amount: 777n, on: "2026-01-11", reconciled: true, description: "Figma refund line" }); // prettier-ignore
  // Another owner's Figma expense never shows.
  const otherBusiness = (await seedBusiness(api, { name: "Theirs" }, other.token)).id;
  await seedEvent(api, "expense", { business_id: otherBusiness, description: "Figma seat", category: "Software" }, other.token);
});
afterAll(async () => api?.close());

describe("GET /v1/events?q=", () => {
  it("finds description, category and counterparty, case-insensitively, only the owner's", async () => {
    const byQ = async (q: string) =>
      ((await get(`/v1/events?q=${encodeURIComponent(q)}`)).body.data as { id: string }[]).map((e) => e.id).sort();
    expect(await byQ("FIGMA")).toEqual([ids.figma, ids.planned, ids.voided, ids.reconciled].sort());
    expect(await byQ("software")).toEqual([ids.figma, ids.planned].sort());
    expect(await byQ("hetzner")).toEqual([ids.imported]);
    expect(await byQ("nothing like this")).toEqual([]);
  });

  it("matches % and _ literally, never as LIKE wildcards", async () => {
    const percent = await get(`/v1/events?q=${encodeURIComponent("50%")}`);
    expect(percent.body.data.map((e: { id: string }) => e.id)).toEqual([ids.percent]);
    const underscore = await get(`/v1/events?q=${encodeURIComponent("f_promo")}`);
    expect(underscore.body.data.map((e: { id: string }) => e.id)).toEqual([ids.percent]);
    const wildcard = await get(`/v1/events?q=${encodeURIComponent("%")}`);
    expect(wildcard.body.data.map((e: { id: string }) => e.id)).toEqual([ids.percent]);
    const backslash = await get(`/v1/events?q=${encodeURIComponent("\\")}`);
    expect(backslash.status).toBe(200);
    expect(backslash.body.data).toEqual([]);
  });

  it("an empty q is no search; a q over 200 characters is 400", async () => {
    expect((await get("/v1/events?q=%20")).body.data).toHaveLength(9);
    expectApiError(await get(`/v1/events?q=${"a".repeat(201)}`), 400, "validation_error", { issue: "q" });
  });
});

describe("GET /v1/events?category= and source_type=", () => {
  it("category is exact and case-insensitive; source_type picks where rows came from", async () => {
    const software = await get("/v1/events?category=SOFTWARE");
    expect(software.body.data.map((e: { id: string }) => e.id).sort()).toEqual([ids.figma, ids.planned].sort());
    expect((await get("/v1/events?category=Soft")).body.data).toEqual([]);
    expect((await get("/v1/events?category=")).body.data).toHaveLength(9);
    const imported = await get("/v1/events?source_type=IMPORT");
    expect(imported.body.data.map((e: { id: string }) => e.id)).toEqual([ids.imported]);
    expectApiError(await get("/v1/events?source_type=BANK"), 400, "validation_error", { issue: "source_type" });
  });
});

describe("GET /v1/events?sort=", () => {
  type TRow = { id: string; occurred_on: string; base_amount_minor: number | null; created_at: string };
  async function all(sort: string): Promise<TRow[]> {
    return (await get(`/v1/events?sort=${sort}&limit=200`)).body.data as TRow[];
  }

  it("sorts by day and by base amount, each direction, planned (no frozen base) last", async () => {
    const days = (await all("-occurred_on")).map((e) => e.occurred_on);
    expect(days).toEqual([...days].sort().reverse());
    const daysAsc = (await all("occurred_on")).map((e) => e.occurred_on);
    expect(daysAsc).toEqual([...daysAsc].sort());
    const amounts = await all("-amount");
    expect(amounts.at(-1)!.id).toBe(ids.planned);
    const frozen = amounts.slice(0, -1).map((e) => e.base_amount_minor!);
    expect(frozen).toEqual([...frozen].sort((a, b) => b - a));
    expect(amounts[0]!.id).toBe(ids.client);
    const ascending = await all("amount");
    expect(ascending.at(-1)!.id).toBe(ids.planned);
    expect(ascending[0]!.base_amount_minor).toBe(700);
  });

  it("walks every sort a row a page with neither gaps nor repeats, the same order as one page", async () => {
    for (const sort of ["-created_at", "-occurred_on", "occurred_on", "-amount", "amount"]) {
      const walked = await walkPages(api, `/v1/events?sort=${sort}`, { limit: 1, token: owner.token });
      expect(walked, sort).toEqual((await all(sort)).map((e) => e.id));
    }
    // Ties on the day and on the amount break by created_at and id: rows of the same day all come.
    const sameDay = await walkPages(api, "/v1/events?sort=-occurred_on&from=2026-01-11&to=2026-01-11", {
      limit: 1,
      token: owner.token,
    });
    expect(sameDay.sort()).toEqual([ids.voided, ids.reconciled].sort());
  });

  it("a cursor belongs to its sort; an unknown sort is 400", async () => {
    const first = await get("/v1/events?sort=-amount&limit=1");
    const cursor = first.body.page.next_cursor as string;
    expectApiError(await get(`/v1/events?sort=-occurred_on&cursor=${cursor}`), 400, "validation_error", { issue: "cursor" });
    expectApiError(await get(`/v1/events?cursor=${cursor}`), 400, "validation_error", { issue: "cursor" });
    expectApiError(await get("/v1/events?sort=description"), 400, "validation_error", { issue: "sort" });
    // Tampered keys PostgreSQL could not cast are 400 too, never 500.
    const forge = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString("base64url");
    const id = "00000000-0000-4000-8000-000000000000";
    const at = "2026-01-01T00:00:00.000Z";
    for (const [sort, cursor] of [
      ["-amount", forge(["-amount", "99999999999999999999", at, id])],
      ["-occurred_on", forge(["-occurred_on", "2026-13-45", at, id])],
      ["-occurred_on", forge(["-occurred_on", "2026-01-01", "not a time", id])],
      ["amount", forge(["amount", null, at, "not-a-uuid"])],
    ]) {
      expectApiError(await get(`/v1/events?sort=${sort}&cursor=${cursor}`), 400, "validation_error", { issue: "cursor" });
    }
    const nullKey = await get(`/v1/events?sort=amount&cursor=${forge(["amount", null, at, id])}`);
    expect(nullKey.status).toBe(200);
  });
});

describe("GET /v1/events/totals", () => {
  it("sums counted actuals by direction in the base currency; voided, reconciled and planned rows are not counted", async () => {
    const totals = await get("/v1/events/totals");
    expect(totals.status).toBe(200);
    const out = 1500 + 90000 + 700 + 1234 + 4200;
    expect(totals.body.data).toEqual({
      base_currency: "EUR",
      in_minor: 250000,
      out_minor: out,
      net_minor: 250000 - out,
      counted: 6,
      not_counted: 3,
    });
  });

  it("takes the list's filters, search included", async () => {
    const figma = await get("/v1/events/totals?q=figma");
    expect(figma.body.data).toMatchObject({ in_minor: 0, out_minor: 1500, net_minor: -1500, counted: 1, not_counted: 3 });
    const revenue = await get("/v1/events/totals?type=revenue&from=2026-01-01&to=2026-01-31");
    expect(revenue.body.data).toMatchObject({ in_minor: 250000, out_minor: 0, counted: 1, not_counted: 1 });
    expectApiError(await get("/v1/events/totals?from=2026-02-01&to=2026-01-01"), 400, "validation_error", { issue: "from" });
  });

  it("agrees with the business's financial summary over the same days", async () => {
    const summary = await get(`/v1/businesses/${businessId}/financial-summary?from=2026-01-01&to=2026-01-31`);
    expect(summary.status, summary.text).toBe(200);
    const totals = await get(`/v1/events/totals?business_id=${businessId}&from=2026-01-01&to=2026-01-31`);
    expect(totals.body.data.net_minor).toBe(summary.body.data.net_minor);
  });

  it("another owner sees only their own totals; a filter on another owner's business is empty", async () => {
    const theirs = await get("/v1/events/totals", other.token);
    expect(theirs.body.data).toMatchObject({ out_minor: 4200, counted: 1, not_counted: 0 });
    const mine = await get(`/v1/events/totals?business_id=${businessId}`, other.token);
    expect(mine.body.data).toMatchObject({ in_minor: 0, out_minor: 0, counted: 0, not_counted: 0 });
  });
});

describe("GET /v1/events/export", () => {
  function parse(text: string): string[][] {
    expect(text.endsWith("\r\n")).toBe(true);
    return Papa.parse<string[]>(text, { skipEmptyLines: true, newline: "\r\n" }).data;
  }

  it("answers the filtered rows as CSV: a header, exact decimal amounts, a download name", async () => {
    const response = await get("/v1/events/export?category=software&sort=occurred_on");
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="events-\d{4}-\d\d-\d\d\.csv"$/);
    const rows = parse(response.text);
    const header = rows[0]!;
    expect(header.slice(0, 8)).toEqual(["id", "occurred_on", "type", "state", "status", "direction", "amount", "currency"]);
    const at = (row: string[], name: string) => row[header.indexOf(name)];
    expect(rows.slice(1).map((r) => at(r, "id"))).toEqual([ids.figma, ids.planned]);
    expect(at(rows[1]!, "amount")).toBe("15.00");
    expect(at(rows[1]!, "base_amount")).toBe("15.00");
    expect(at(rows[1]!, "direction")).toBe("out");
    expect(at(rows[1]!, "business")).toBe("Atlas Studio");
    const audit = await api.db.auditEntry.findFirst({ where: { ownerId: owner.ownerId, action: "events.exported" } });
    expect(audit?.details).toMatchObject({ rows: 2 });
  });

  it("neutralises formula cells (=HYPERLINK) and keeps the search and counterparty", async () => {
    const response = await get(`/v1/events/export?q=${encodeURIComponent("hyperlink")}`);
    const rows = parse(response.text);
    expect(rows).toHaveLength(2);
    const description = rows[1]![rows[0]!.indexOf("description")]!;
    expect(description).toBe(`'=HYPERLINK("http://x.test","click")`);
    expect(response.text).not.toMatch(/(^|,)=HYPERLINK/m);
    const hetzner = parse((await get("/v1/events/export?q=hetzner")).text);
    expect(hetzner[1]![hetzner[0]!.indexOf("counterparty")]).toBe("Hetzner Online GmbH");
    expect(hetzner[1]![hetzner[0]!.indexOf("source_type")]).toBe("IMPORT");
  });

  it("walks every page (more rows than a batch), only the owner's, and is owner-only", async () => {
    const all = parse((await get("/v1/events/export")).text);
    expect(all).toHaveLength(1 + 9);
    const theirs = parse((await get("/v1/events/export", other.token)).text);
    expect(theirs).toHaveLength(2);
    expect(theirs[1]![theirs[0]!.indexOf("description")]).toBe("Figma seat");
    expectApiError(await api.call("GET", "/v1/events/export", { token: null }), 401, "unauthenticated");
    expectApiError(await get("/v1/events/export?sort=nope"), 400, "validation_error", { issue: "sort" });
  });

  it("is listed in the OpenAPI document with the new operations and parameters", async () => {
    const doc = (await api.call("GET", "/v1/openapi.json", { token: null })).body;
    expect(Object.keys(doc.paths["/v1/events/export"])).toEqual(["get"]);
    expect(doc.paths["/v1/events/totals"].get).toBeDefined();
    expect(doc.paths["/v1/events/{id}/void"].post).toBeDefined();
    expect(doc.paths["/v1/events/{id}/correct"].post).toBeDefined();
    const params = (doc.paths["/v1/events"].get.parameters as { name: string }[]).map((p) => p.name);
    expect(params).toEqual(expect.arrayContaining(["q", "sort", "category", "source_type"]));
  });
});

describe("export bounds", () => {
  it("exports more rows than one batch in order", async () => {
    const bulk = await euroOwner();
    await api.db.financialEvent.createMany({
      data: Array.from({ length: 1203 }, (_, i) => ({
        ownerId: bulk.ownerId,
        personal: true,
        type: "expense",
        state: "actual",
        amountMinor: BigInt(i + 1),
        currency: "EUR",
        baseAmountMinor: BigInt(i + 1),
        baseCurrency: "EUR",
        fxRate: "1",
        fxAsOf: new Date("2026-01-01T00:00:00Z"),
        fxSource: "identity",
        occurredOn: new Date("2026-01-01T00:00:00Z"),
        sourceType: "MANUAL",
      })),
    });
    const text = (await get("/v1/events/export?sort=-amount", bulk.token)).text;
    const lines = text.trimEnd().split("\r\n");
    expect(lines).toHaveLength(1204);
    expect(lines[1]).toContain(",12.03,EUR,");
    expect(lines.at(-1)).toContain(",0.01,EUR,");
  });

  it(`refuses more than ${EXPORT_MAX_ROWS} rows (400 naming from) before reading any; narrower dates export`, async () => {
    const bulk = await euroOwner();
    await api.db.$executeRaw`
      INSERT INTO financial_events (id, owner_id, personal, type, state, status, amount_minor, currency, base_amount_minor,
                                    base_currency, fx_rate, fx_as_of, fx_source, occurred_on, source_type, updated_at)
      SELECT gen_random_uuid(), ${bulk.ownerId}::uuid, true, 'expense', 'actual', 'confirmed', 1, 'EUR', 1, 'EUR', 1,
             DATE '2025-01-01', 'identity', DATE '2025-01-01' + (n % 2), 'MANUAL', now()
        FROM generate_series(1, ${EXPORT_MAX_ROWS + 1}) AS n`;
    const refused = await get("/v1/events/export", bulk.token);
    expectApiError(refused, 400, "validation_error", { issue: "from", message: /narrow it/ });
    const narrower = await get("/v1/events/export?from=2025-01-02&to=2025-01-02&sort=-created_at", bulk.token);
    expect(narrower.status).toBe(200);
    expect(narrower.text.trimEnd().split("\r\n")).toHaveLength(1 + Math.ceil((EXPORT_MAX_ROWS + 1) / 2));
  });
});
