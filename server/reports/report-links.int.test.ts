// Every figure of the Reports page leads to exactly the events behind it (issue 36): on
// generated ledgers (refunds both ways, restatements, planned and non-money events, events
// without a category or a project, personal entries), for every cell and total of the profit
// and loss by category, project, business and type in the scopes the page offers, the link's
// query (lib/report-links.ts, the Events page's address) asked of GET /v1/events/totals sums to
// the figure: its net for an in row, minus its net for an out row, and every matching event
// counted. And GET /v1/events with no_category / no_project lists exactly the events without one.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/days";
import { reportEventsQuery, type TReportLinkScope } from "../../lib/report-links";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import {
  LEDGER_DAYS,
  LEDGER_FROM,
  ledgerItemArb,
  newLedgerOwner,
  writeLedger,
  type TLedgerOwner,
} from "../../test/helpers/generated-ledger";
import { fixedClock } from "../shared/clock";

const NOW = new Date("2026-05-10T12:00:00Z");
const TODAY = "2026-05-10";
let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi({ clock: fixedClock(NOW) });
});
afterAll(async () => api?.close());

type TScopeChoice = "owner" | "a" | "b" | "personal";

function linkScope(o: TLedgerOwner, scope: TScopeChoice): TReportLinkScope {
  if (scope === "a") return { business_id: o.businessA };
  if (scope === "b") return { business_id: o.businessB };
  if (scope === "personal") return { personal: true };
  return {};
}

async function get(o: TLedgerOwner, path: string) {
  const response = await api.call("GET", path, { token: o.token });
  expect(response.status, `${path}: ${response.text}`).toBe(200);
  return response.body.data;
}

type TPnl = {
  periods: Array<{ start: string; end: string }>;
  rows: Array<{ key: string | null; direction: "in" | "out"; amounts_minor: number[] }>;
  totals: { in_minor: number[]; out_minor: number[]; net_minor: number[] };
};

describe("a figure's link asks for exactly its events (property)", () => {
  it("by category, project, business and type, in every scope the page offers; totals by side and net", async () => {
    let cells = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(ledgerItemArb, { minLength: 1, maxLength: 16 }),
        fc.record({
          start: fc.integer({ min: 0, max: LEDGER_DAYS }),
          length: fc.integer({ min: 0, max: 400 }),
          interval: fc.constantFrom("month", "quarter", "year"),
          groupBy: fc.constantFrom("category", "project", "business", "type"),
          scope: fc.constantFrom<TScopeChoice>("owner", "a", "b", "personal"),
        }),
        async (specs, q) => {
          const o = await newLedgerOwner(api);
          await writeLedger(api, o, specs);
          const from = addDays(LEDGER_FROM, q.start);
          const to = [addDays(from, q.length), TODAY].sort()[0]!;
          const scope = linkScope(o, q.scope);
          const scopeQuery = new URLSearchParams(
            scope.business_id ? { business_id: scope.business_id } : scope.personal ? { personal: "true" } : {},
          );
          const pnl = (await get(
            o,
            `/v1/reports/profit-and-loss?from=${from}&to=${to}&interval=${q.interval}&group_by=${q.groupBy}&${scopeQuery}`,
          )) as TPnl;
          const totalsOf = async (params: URLSearchParams) =>
            (await get(o, `/v1/events/totals?${params}`)) as { net_minor: number; not_counted: number };
          for (const [i, period] of pnl.periods.entries()) {
            for (const row of pnl.rows) {
              const totals = await totalsOf(reportEventsQuery(scope, period, q.groupBy, row));
              const figure = row.amounts_minor[i]!;
              expect(row.direction === "in" ? totals.net_minor : 0 - totals.net_minor, JSON.stringify({ row, period })).toBe(
                figure,
              );
              expect(totals.not_counted).toBe(0);
              cells++;
            }
            for (const [direction, amounts, sign] of [
              ["in", pnl.totals.in_minor, 1],
              ["out", pnl.totals.out_minor, -1],
              [null, pnl.totals.net_minor, 1],
            ] as const) {
              const totals = await totalsOf(reportEventsQuery(scope, period, q.groupBy, { direction }));
              expect(sign * totals.net_minor + 0, `${direction ?? "net"} ${period.start}`).toBe(amounts[i]);
            }
          }
        },
      ),
      { numRuns: 8, seed: 3601 },
    );
    expect(cells).toBeGreaterThan(0);
  }, 300_000);
});

describe("GET /v1/events?no_category=true and no_project=true", () => {
  it("list exactly the events without a category or without a project, and nothing else filters on false", async () => {
    const o = await newLedgerOwner(api);
    const specs = fc.sample(fc.array(ledgerItemArb, { minLength: 12, maxLength: 12 }), { numRuns: 1, seed: 3602 })[0]!;
    await writeLedger(api, o, specs);
    type TListed = { id: string; category: string | null; project_id: string | null };
    const list = async (query: string) => {
      const rows: TListed[] = [];
      for (let cursor: string | null = null, first = true; first || cursor; first = false) {
        const page: { status: number; text: string; body: any } = await api.call(
          "GET",
          `/v1/events?limit=100${query}${cursor ? `&cursor=${cursor}` : ""}`,
          {
            token: o.token,
          },
        );
        expect(page.status, page.text).toBe(200);
        rows.push(...(page.body.data as TListed[]));
        cursor = page.body.page.next_cursor;
      }
      return rows;
    };
    const all = await list("");
    const noCategory = await list("&no_category=true");
    const noProject = await list("&no_project=true");
    expect(noCategory.map((e) => e.id).sort()).toEqual(
      all
        .filter((e) => e.category === null)
        .map((e) => e.id)
        .sort(),
    );
    expect(noProject.map((e) => e.id).sort()).toEqual(
      all
        .filter((e) => e.project_id === null)
        .map((e) => e.id)
        .sort(),
    );
    expect((await list("&no_category=false&no_project=false&counted=false")).length).toBe(all.length);
    expect(noCategory.length + noProject.length).toBeGreaterThan(0);
  });
});
