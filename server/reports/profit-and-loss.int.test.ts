// GET /v1/reports/profit-and-loss (pinned-wave3 §4) on both engines. The property: on generated
// ledgers in five currencies (two businesses, a project, personal entries; restatements,
// planned and non-money events among them), for random ranges, intervals, groupings and scopes,
// each period's totals equal the financial summary's net_revenue, outflow and net of that
// period and scope (GET …/financial-summary for a business and personal, summaryValuesOver for
// a project and the whole owner), in the base and in a display currency; the rows add up to the
// totals in the base; display columns are the base ones converted once per period and row.
// Then the range's rules (400), tenants (404) and agents (finances:observe, 403).
import fc from "fast-check";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/days";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { businessGrant, seedAgent } from "../../test/helpers/seed";
import {
  LEDGER_DAYS,
  LEDGER_FROM,
  newLedgerOwner,
  writeLedger,
  ledgerItemArb,
  type TLedgerOwner,
} from "../../test/helpers/generated-ledger";
import { convertExact } from "../fx/money";
import { Prisma } from "../db/generated/client";
import { snapshotConversions } from "../read-models/display";
import { summaryValuesOver } from "../read-models/summary-values";
import { reportEventsSql } from "./profit-and-loss";
import { fixedClock } from "../shared/clock";

const NOW = new Date("2026-05-10T12:00:00Z");
const TODAY = "2026-05-10";
const clock = fixedClock(NOW);
let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi({ clock });
});
afterAll(async () => api?.close());

type TScopeChoice = "owner" | "a" | "b" | "project" | "personal";

function scopeQuery(o: TLedgerOwner, scope: TScopeChoice): string {
  switch (scope) {
    case "owner":
      return "";
    case "a":
      return `&business_id=${o.businessA}`;
    case "b":
      return `&business_id=${o.businessB}`;
    case "project":
      return `&project_id=${o.projectId}`;
    case "personal":
      return "&personal=true";
  }
}

function readScope(o: TLedgerOwner, scope: TScopeChoice) {
  switch (scope) {
    case "owner":
      return { kind: "owner" as const };
    case "a":
      return { kind: "business" as const, businessId: o.businessA };
    case "b":
      return { kind: "business" as const, businessId: o.businessB };
    case "project":
      return { kind: "project" as const, projectId: o.projectId, businessId: o.businessA };
    case "personal":
      return { kind: "personal" as const };
  }
}

async function report(o: TLedgerOwner, query: string, token = o.token) {
  const response = await api.call("GET", `/v1/reports/profit-and-loss?${query}`, { token });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const queryArb = fc.record({
  start: fc.integer({ min: 0, max: LEDGER_DAYS }),
  length: fc.integer({ min: 0, max: 500 }),
  interval: fc.constantFrom("month", "quarter", "year"),
  groupBy: fc.constantFrom("type", "category", "business", "project"),
  scope: fc.constantFrom<TScopeChoice>("owner", "a", "b", "project", "personal"),
  display: fc.constantFrom(undefined, "USD", "JPY"),
});

describe("each period is the financial summary of that period and scope (property, five currencies)", () => {
  it("in the base and in a display currency; rows add up in the base; display rows converted once each", async () => {
    const seen = { counted: 0, summaries: 0, displayed: 0, rates: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(ledgerItemArb, { minLength: 1, maxLength: 24 }),
        fc.array(queryArb, { minLength: 1, maxLength: 3 }),
        async (specs, queries) => {
          const o = await newLedgerOwner(api);
          await writeLedger(api, o, specs);
          for (const q of queries) {
            const from = addDays(LEDGER_FROM, q.start);
            const to = [addDays(from, q.length), TODAY].sort()[0]!;
            const base = `from=${from}&to=${to}&interval=${q.interval}&group_by=${q.groupBy}${scopeQuery(o, q.scope)}`;
            const body = await report(o, base);
            const data = body.data;
            seen.counted += data.events_counted;
            expect(data.currency).toBe("EUR");
            expect(data.periods[0].start).toBe(from);
            expect(data.periods.at(-1).end).toBe(to);

            // The summary's values of each period (the one home of its formulas).
            const expected = await summaryValuesOver(
              api.db,
              o.ownerId,
              readScope(o, q.scope),
              data.periods.map((p: any) => ({ from: p.start, to: p.end })),
            );
            data.periods.forEach((_: unknown, i: number) => {
              expect(data.totals.in_minor[i]).toBe(Number(expected[i]!.netRevenue));
              expect(data.totals.out_minor[i]).toBe(Number(expected[i]!.outflow));
              expect(data.totals.net_minor[i]).toBe(Number(expected[i]!.net));
              // Rows add up to the totals in the base.
              const side = (d: string) =>
                data.rows.filter((r: any) => r.direction === d).reduce((s: number, r: any) => s + r.amounts_minor[i], 0);
              expect(side("in")).toBe(data.totals.in_minor[i]);
              expect(side("out")).toBe(data.totals.out_minor[i]);
            });
            // The envelope's rates are the range's frozen rates, as snapshotConversions reads them.
            const conversions = await snapshotConversions(
              api.db,
              Prisma.sql`financial_events e`,
              "e",
              reportEventsSql(o.ownerId, readScope(o, q.scope), { from, to }),
            );
            seen.rates += data.fx_used.length;
            const rateKey = (f: { from: string; rate: string; as_of: string; source: string; stale: boolean }) =>
              `${f.from} ${f.rate} ${f.as_of} ${f.source} ${f.stale}`;
            expect(new Set(data.fx_used.map(rateKey))).toEqual(
              new Set(conversions.filter((c) => c.from !== "EUR").map((c) => rateKey({ from: c.from, ...c.fx }))),
            );
            expect(data.totals.net_total_minor).toBe(data.totals.net_minor.reduce((s: number, n: number) => s + n, 0));
            for (const row of data.rows) {
              expect(row.total_minor).toBe(row.amounts_minor.reduce((s: number, n: number) => s + n, 0));
            }

            // The REST summaries of a business and personal finances, period by period.
            const summaryPath =
              q.scope === "a" || q.scope === "b"
                ? `/v1/businesses/${q.scope === "a" ? o.businessA : o.businessB}/financial-summary`
                : q.scope === "personal"
                  ? "/v1/personal/financial-summary"
                  : null;
            const display = q.display ? `&display_currency=${q.display}` : "";
            const shown = q.display ? (await report(o, base + display)).data : data;
            if (summaryPath) {
              for (const [i, p] of data.periods.entries()) {
                const s = await api.call("GET", `${summaryPath}?from=${p.start}&to=${p.end}${display}`, { token: o.token });
                expect(s.status, s.text).toBe(200);
                expect(shown.totals.in_minor[i]).toBe(s.body.data.net_revenue_minor);
                expect(shown.totals.out_minor[i]).toBe(s.body.data.outflow_minor);
                expect(shown.totals.net_minor[i]).toBe(s.body.data.net_minor);
                seen.summaries += 1;
              }
            }
            if (q.display) {
              expect(shown.currency).toBe(q.display);
              seen.displayed += 1;
              const rate = shown.fx_used.find((f: any) => f.from === "EUR" && f.to === q.display).rate;
              const convert = (n: number) => Number(convertExact(BigInt(n), "EUR", q.display!, rate));
              expect(shown.rows.map((r: any) => r.key)).toEqual(data.rows.map((r: any) => r.key));
              shown.rows.forEach((row: any, r: number) => {
                expect(row.amounts_minor).toEqual(data.rows[r].amounts_minor.map(convert));
                expect(row.total_minor).toBe(convert(data.rows[r].total_minor));
              });
            }
          }
        },
      ),
      { numRuns: 8 },
    );
    // The property saw counted events, REST summaries and display currencies.
    expect(seen.counted).toBeGreaterThan(0);
    expect(seen.summaries).toBeGreaterThan(0);
    expect(seen.displayed).toBeGreaterThan(0);
    expect(seen.rates).toBeGreaterThan(0);
  }, 600_000);
});

describe("the range, the scope and who may read", () => {
  it("defaults to the last 12 whole months and the current one, monthly by category", async () => {
    const o = await newLedgerOwner(api);
    const data = (await report(o, "")).data;
    expect(data).toMatchObject({
      from: "2025-05-01",
      to: TODAY,
      interval: "month",
      group_by: "category",
      scope: { owner: true },
    });
    expect(data.periods).toHaveLength(13);
    expect(data.periods[12]).toEqual({ start: "2026-05-01", end: TODAY });
    expect(data.rows).toEqual([]);
    expect(data.totals.in_minor).toEqual(Array(13).fill(0));
  });

  it("labels rows and sorts each side by its total", async () => {
    const o = await newLedgerOwner(api);
    await writeLedger(api, o, [
      { kind: "revenue", currency: "EUR", amount: 500, credit: false, day: 400, where: "a", category: "software", restate: null },
      { kind: "revenue", currency: "EUR", amount: 900, credit: false, day: 401, where: "b", category: undefined, restate: null },
      {
        kind: "refund-out",
        currency: "EUR",
        amount: 100,
        credit: false,
        day: 402,
        where: "b",
        category: undefined,
        restate: null,
      },
      { kind: "expense", currency: "EUR", amount: 300, credit: false, day: 403, where: "a", category: "ads", restate: null },
      {
        kind: "personal-expense",
        currency: "EUR",
        amount: 50,
        credit: false,
        day: 403,
        where: "a",
        category: undefined,
        restate: null,
      },
    ]);
    const range = `from=${addDays(LEDGER_FROM, 400)}&to=${addDays(LEDGER_FROM, 403)}&interval=year`;
    const byBusiness = (await report(o, `${range}&group_by=business`)).data;
    expect(byBusiness.rows.map((r: any) => [r.label, r.direction, r.total_minor])).toEqual([
      ["Studio", "in", 800],
      ["Shop", "in", 500],
      ["Shop", "out", 300],
      ["Personal", "out", 50],
    ]);
    const byType = (await report(o, `${range}&group_by=type`)).data;
    expect(byType.rows.map((r: any) => [r.key, r.direction, r.total_minor])).toEqual([
      ["revenue", "in", 1400],
      ["refunds_out", "in", -100],
      ["expense", "out", 350],
    ]);
    expect(byType.events_counted).toBe(5);
    const byCategory = (await report(o, `${range}&group_by=category`)).data;
    expect(byCategory.rows.map((r: any) => [r.key, r.label, r.direction])).toEqual([
      [null, "Uncategorized", "in"],
      ["software", "software", "in"],
      ["ads", "ads", "out"],
      [null, "Uncategorized", "out"],
    ]);
  });

  it("refuses a range over 36 months or backwards, several scopes, and another owner's ids", async () => {
    const o = await newLedgerOwner(api);
    expectApiError(
      await api.call("GET", "/v1/reports/profit-and-loss?from=2023-05-10&to=2026-05-10", { token: o.token }),
      400,
      "validation_error",
    );
    expectApiError(
      await api.call("GET", "/v1/reports/profit-and-loss?from=2026-05-10&to=2026-05-01", { token: o.token }),
      400,
      "validation_error",
    );
    expect((await api.call("GET", "/v1/reports/profit-and-loss?from=2023-05-11&to=2026-05-10", { token: o.token })).status).toBe(
      200,
    );
    expectApiError(
      await api.call("GET", `/v1/reports/profit-and-loss?business_id=${o.businessA}&personal=true`, { token: o.token }),
      400,
      "validation_error",
    );
    const other = await newLedgerOwner(api);
    expectApiError(
      await api.call("GET", `/v1/reports/profit-and-loss?business_id=${other.businessA}`, { token: o.token }),
      404,
      "not_found",
    );
    expectApiError(
      await api.call("GET", `/v1/reports/profit-and-loss?project_id=${other.projectId}`, { token: o.token }),
      404,
      "not_found",
    );
  });

  it("answers an agent whose finances:observe grant covers the scope, and 403 otherwise", async () => {
    const o = await newLedgerOwner(api);
    const agent = await seedAgent(api, { grants: [businessGrant(o.businessA, { scope: "finances:observe" })] }, o.token);
    const ok = await api.call("GET", `/v1/reports/profit-and-loss?business_id=${o.businessA}`, { token: agent.token });
    expect(ok.status, ok.text).toBe(200);
    const project = await api.call("GET", `/v1/reports/profit-and-loss?project_id=${o.projectId}`, { token: agent.token });
    expect(project.status, project.text).toBe(200);
    expectApiError(
      await api.call("GET", `/v1/reports/profit-and-loss?business_id=${o.businessB}`, { token: agent.token }),
      403,
      "scope_denied",
    );
    expectApiError(await api.call("GET", "/v1/reports/profit-and-loss", { token: agent.token }), 403, "scope_denied");
    expectApiError(
      await api.call("GET", "/v1/reports/profit-and-loss?personal=true", { token: agent.token }),
      403,
      "scope_denied",
    );
  });
});

describe("?format=csv and xlsx", () => {
  it("answers the same report as a formula-safe CSV and as an XLSX with real numbers and dates", async () => {
    const o = await newLedgerOwner(api);
    await writeLedger(api, o, [
      {
        kind: "revenue",
        currency: "EUR",
        amount: 123_456,
        credit: false,
        day: 400,
        where: "a",
        category: "=SUM(A1)",
        restate: null,
      },
      { kind: "expense", currency: "EUR", amount: 705, credit: false, day: 401, where: "b", category: "+cmd", restate: null },
    ]);
    const range = `from=${addDays(LEDGER_FROM, 390)}&to=${addDays(LEDGER_FROM, 430)}&interval=month&group_by=category`;
    const json = (await report(o, range)).data;

    const csv = await api.call("GET", `/v1/reports/profit-and-loss?${range}&format=csv`, { token: o.token });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="profit-and-loss-${json.from}-${json.to}.csv"`);
    const lines = csv.text.split("\r\n");
    expect(lines[0]).toBe(`label,key,direction,currency,${json.periods.map((p: any) => p.start).join(",")},total`);
    expect(lines).toContain(
      `'=SUM(A1),'=SUM(A1),in,EUR,${json.rows[0].amounts_minor.map((a: number) => (a / 100).toFixed(2)).join(",")},1234.56`,
    );
    expect(lines).toContain(
      `'+cmd,'+cmd,out,EUR,${json.rows[1].amounts_minor.map((a: number) => (a / 100).toFixed(2)).join(",")},7.05`,
    );
    expect(lines.at(-2)).toMatch(/^Net,,,EUR,.*,1227\.51$/);
    expect(lines.at(-1)).toBe("");

    const response = await api.handler(
      new Request(`http://localhost/v1/reports/profit-and-loss?${range}&format=xlsx`, {
        headers: { authorization: `Bearer ${o.token}` },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([
      "[Content_Types].xml",
      "_rels/.rels",
      "xl/_rels/workbook.xml.rels",
      "xl/styles.xml",
      "xl/workbook.xml",
      "xl/worksheets/sheet1.xml",
    ]);
    const sheet = strFromU8(files["xl/worksheets/sheet1.xml"]!);
    // The first period's first day as a date serial (days since 1899-12-30), styled as a date.
    const serial = Math.round(
      (Date.parse(`${json.periods[0].start}T00:00:00Z`) - Date.parse("1899-12-30T00:00:00Z")) / 86_400_000,
    );
    expect(sheet).toContain(`<c r="E1" s="1"><v>${serial}</v></c>`);
    // Amounts are numbers (no t attribute), text is an inline string and never a formula.
    expect(sheet).toContain("<v>1234.56</v>");
    expect(sheet).toContain('<is><t xml:space="preserve">=SUM(A1)</t></is>');
    expect(sheet).not.toContain("<f>");
  });

  it("answers the cash history as CSV and XLSX", async () => {
    const o = await newLedgerOwner(api);
    await api.call("POST", "/v1/cash-snapshots", {
      token: o.token,
      body: {
        business_id: o.businessA,
        amount_minor: 150_000,
        currency: "JPY",
        as_of: "2026-05-08T09:00:00Z",
        payload: { account_id: "jp" },
      },
    });
    const range = `business_id=${o.businessA}&from=2026-05-07&to=2026-05-09`;
    const json = (await api.call("GET", `/v1/reports/cash-history?${range}`, { token: o.token })).body.data;
    const csv = await api.call("GET", `/v1/reports/cash-history?${range}&format=csv`, { token: o.token });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.text).toBe(
      [
        "date,cash,currency,source",
        "2026-05-07,,EUR,none",
        `2026-05-08,${(json.days[1].cash_minor / 100).toFixed(2)},EUR,snapshot`,
        `2026-05-09,${(json.days[2].cash_minor / 100).toFixed(2)},EUR,derived`,
        "",
      ].join("\r\n"),
    );
    const xlsx = await api.call("GET", `/v1/reports/cash-history?${range}&format=xlsx&display_currency=JPY`, { token: o.token });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get("content-disposition")).toBe('attachment; filename="cash-history-2026-05-07-2026-05-09.xlsx"');
  });
});
