// GET /v1/exports/ledger (pinned-wave3 §4) on both engines: a generated ledger in five
// currencies (two businesses, a project, personal entries, restatements, credits, planned and
// non-money events) and cash snapshots in several currencies, exported as Beancount and as
// hledger: Debian's bean-check and `hledger check` accept both files, and their balances per
// account and currency equal the service's own figures (each scope's profit and loss by type
// for the income and expense accounts, the counted events of GET /v1/events per currency for
// the cash accounts, the latest snapshot per bank account). Then the streaming in batches, the
// period, the 400s, owners only and the audit entry.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minorToMajor } from "../../lib/money";
import { moneyDirection } from "../../lib/money-direction";
import { createTestApi, type TApiResponse, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { businessGrant, seedAgent } from "../../test/helpers/seed";
import { LEDGER_FROM, ledgerItemArb, newLedgerOwner, writeLedger, type TLedgerOwner } from "../../test/helpers/generated-ledger";
import { countsInTotals } from "../ledger/counted-total";
import { fixedClock } from "../shared/clock";
import { LEDGER_BATCH } from "./ledger-export";

const NOW = new Date("2026-05-10T12:00:00Z");
const TODAY = "2026-05-10";
const clock = fixedClock(NOW);
let api: TTestApi;
let dir: string;

beforeAll(async () => {
  api = await createTestApi({ clock });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ledger-export-"));
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await api?.close();
});

type TBalances = Map<string, string>; // "account currency" → decimal

/**
 * The balances bean-query reads from a Beancount file, per account and currency. It sums
 * positions, not bare numbers: a bare number column is printed at the precision most of its
 * rows use, so 0.01 EUR beside four JPY rows would read as 0.
 */
function beancountBalances(file: string): TBalances {
  const csv = execFileSync(
    "bean-query",
    ["-f", "csv", file, "SELECT account, currency, sum(position) AS n GROUP BY account, currency"],
    { encoding: "utf8" },
  );
  return new Map(
    csv
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(",").map((cell) => cell.trim()))
      .map(([account, currency, position]) => [account, currency, position!.split(/\s+/)[0]!])
      .filter(([, , n]) => Number(n) !== 0)
      .map(([account, currency, n]) => [`${account} ${currency}`, normal(n!)]),
  );
}

/** The balances hledger reads from a journal, per account and commodity. */
function hledgerBalances(file: string): TBalances {
  const csv = execFileSync("hledger", ["-f", file, "bal", "-N", "--flat", "-O", "csv", "--layout=bare"], { encoding: "utf8" });
  return new Map(
    csv
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(",").map((cell) => cell.replace(/"/g, "")))
      .filter(([, , n]) => Number(n) !== 0)
      .map(([account, currency, n]) => [`${account} ${currency}`, normal(n!)]),
  );
}

/** A decimal without trailing zeros ("-12.50" → "-12.5", "3.00" → "3"). */
function normal(decimal: string): string {
  const text = decimal.trim();
  const negative = text.startsWith("-");
  const [whole, fraction = ""] = text.replace(/^[-+]/, "").split(".");
  const f = fraction.replace(/0+$/, "");
  const w = whole!.replace(/^0+(?=\d)/, "");
  const digits = f ? `${w}.${f}` : w;
  return negative && /[1-9]/.test(digits) ? `-${digits}` : digits;
}

async function exportFile(o: TLedgerOwner, format: "beancount" | "hledger", query = ""): Promise<TApiResponse> {
  const response = await api.call("GET", `/v1/exports/ledger?format=${format}${query}`, { token: o.token });
  expect(response.status, response.text).toBe(200);
  return response;
}

/** Every event of the owner through GET /v1/events (all pages). */
async function listEvents(o: TLedgerOwner): Promise<any[]> {
  const events: any[] = [];
  let cursor: string | null = null;
  do {
    const page: TApiResponse = await api.call("GET", `/v1/events?limit=200${cursor ? `&cursor=${cursor}` : ""}`, {
      token: o.token,
    });
    expect(page.status, page.text).toBe(200);
    events.push(...page.body.data);
    cursor = page.body.page.next_cursor;
  } while (cursor);
  return events;
}

/** What the files must say, from the service's own figures. */
async function expectedBalances(
  o: TLedgerOwner,
  snapshots: Array<{ root: string; account: string; currency: string; minor: number }>,
) {
  const expectedMinor = new Map<string, bigint>();
  const add = (account: string, minor: bigint, currency: string) => {
    const id = `${account} ${currency}`;
    expectedMinor.set(id, (expectedMinor.get(id) ?? 0n) + minor);
  };
  const scopes = [
    { root: "Business:Shop", query: `&business_id=${o.businessA}`, business: o.businessA as string | null },
    { root: "Business:Studio", query: `&business_id=${o.businessB}`, business: o.businessB as string | null },
    { root: "Personal", query: "&personal=true", business: null },
  ];
  for (const scope of scopes) {
    const pnl = await api.call(
      "GET",
      `/v1/reports/profit-and-loss?from=${LEDGER_FROM}&to=${TODAY}&interval=year&group_by=type${scope.query}`,
      { token: o.token },
    );
    expect(pnl.status, pnl.text).toBe(200);
    const row = (key: string) => BigInt(pnl.body.data.rows.find((r: any) => r.key === key)?.total_minor ?? 0);
    add(`Income:${scope.root}:Revenue`, -row("revenue"), "EUR");
    add(`Income:${scope.root}:Refunds`, -row("refunds_out"), "EUR");
    add(`Expenses:${scope.root}:Advertising`, row("ad_spend"), "EUR");
    add(`Expenses:${scope.root}:Refunds`, row("refunds_in"), "EUR");
    add(`Expenses:${scope.root}:Costs`, row("expense") + row("recurring_expense"), "EUR");
  }
  // Cash: the counted events that move money, each in its own currency, signed by direction.
  for (const e of await listEvents(o)) {
    const direction = moneyDirection(e.type, e.direction);
    if (e.state !== "actual" || !countsInTotals({ status: e.status, reconciled: e.reconciled }) || direction === null) continue;
    const root = e.business_id === o.businessA ? "Business:Shop" : e.business_id === o.businessB ? "Business:Studio" : "Personal";
    add(`Assets:${root}:Cash`, BigInt(direction === "in" ? e.amount_minor : -e.amount_minor), e.currency);
  }
  for (const s of snapshots) {
    add(`Assets:${s.root}:Bank:${s.account}`, BigInt(s.minor), s.currency);
    add(`Equity:${s.root}:Snapshots`, BigInt(-s.minor), s.currency);
  }
  return new Map(
    [...expectedMinor]
      .filter(([, minor]) => minor !== 0n)
      .map(([key, minor]) => [key, normal(minorToMajor(minor, key.split(" ")[1]!))]),
  );
}

/** The files' balances with the cost accounts summed (the service has no per-category figure by type). */
function withCostsSummed(balances: TBalances): TBalances {
  const out = new Map<string, bigint>();
  const scale = 10n ** 6n;
  for (const [key, value] of balances) {
    const [account, currency] = key.split(" ");
    const target = account!.replace(/^(Expenses:(?:Business:[^:]+|Personal):Costs):.*$/, "$1");
    const [w, f = ""] = value.replace("-", "").split(".");
    const micro = (BigInt(w!) * scale + BigInt(f.padEnd(6, "0"))) * (value.startsWith("-") ? -1n : 1n);
    out.set(`${target} ${currency}`, (out.get(`${target} ${currency}`) ?? 0n) + micro);
  }
  return new Map(
    [...out]
      .filter(([, micro]) => micro !== 0n)
      .map(([key, micro]) => {
        const negative = micro < 0n;
        const a = negative ? -micro : micro;
        const text = `${negative ? "-" : ""}${a / scale}.${String(a % scale).padStart(6, "0")}`;
        return [key, normal(text)];
      }),
  );
}

const snapshotArb = fc.record({
  where: fc.constantFrom("a", "b", "personal"),
  account: fc.constantFrom("main", "Savings €", "usd"),
  currency: fc.constantFrom("EUR", "USD", "JPY", "GBP", "CHF"),
  minor: fc.integer({ min: -500_000, max: 5_000_000 }),
  day: fc.integer({ min: 0, max: 430 }),
  hour: fc.integer({ min: 0, max: 23 }),
});

describe("bean-check and hledger check accept the export of a generated ledger", () => {
  it("and its balances per account and currency are the service's own figures", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(ledgerItemArb, { minLength: 1, maxLength: 30 }),
        fc.array(snapshotArb, { maxLength: 6 }),
        async (specs, snapshotSpecs) => {
          const o = await newLedgerOwner(api);
          await writeLedger(api, o, specs);
          // Snapshots: one account one currency (a bank account's currency does not change), the latest of a day counts.
          const written: Array<{ root: string; account: string; currency: string; minor: number; at: string }> = [];
          const currencyOf = new Map<string, string>();
          for (const s of snapshotSpecs) {
            const scopeBody =
              s.where === "a"
                ? { business_id: o.businessA }
                : s.where === "b"
                  ? { business_id: o.businessB }
                  : { personal: true };
            const root = s.where === "a" ? "Business:Shop" : s.where === "b" ? "Business:Studio" : "Personal";
            const key = `${root}/${s.account}`;
            const currency = currencyOf.get(key) ?? s.currency;
            currencyOf.set(key, currency);
            const at = new Date(Date.parse(`${LEDGER_FROM}T00:00:00Z`) + s.day * 86_400_000 + s.hour * 3_600_000).toISOString();
            const response = await api.call("POST", "/v1/cash-snapshots", {
              token: o.token,
              body: { ...scopeBody, amount_minor: s.minor, currency, as_of: at, payload: { account_id: s.account } },
            });
            expect([200, 201], response.text).toContain(response.status);
            written.push({
              root,
              account: s.account === "Savings €" ? "Savings" : s.account === "main" ? "Main" : "Usd",
              currency,
              minor: s.minor,
              at,
            });
          }
          // The latest snapshot of each account is its balance.
          const latest = new Map<string, (typeof written)[number]>();
          for (const w of written) {
            const key = `${w.root}/${w.account}`;
            if (!latest.has(key) || latest.get(key)!.at <= w.at) latest.set(key, w);
          }
          const expected = await expectedBalances(o, [...latest.values()]);

          for (const format of ["beancount", "hledger"] as const) {
            const response = await exportFile(o, format);
            expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
            const file = path.join(dir, `${o.ownerId}.${format === "beancount" ? "beancount" : "journal"}`);
            fs.writeFileSync(file, response.text);
            if (format === "beancount") {
              execFileSync("bean-check", [file], { encoding: "utf8" });
              expect(withCostsSummed(beancountBalances(file))).toEqual(expected);
            } else {
              execFileSync("hledger", ["-f", file, "check"], { encoding: "utf8" });
              expect(withCostsSummed(hledgerBalances(file))).toEqual(expected);
            }
          }
        },
      ),
      {
        numRuns: 6,
        // A CI counterexample: one cent of EUR beside four JPY postings (bean-query's precision).
        examples: [
          [
            [
              {
                kind: "revenue",
                currency: "EUR",
                amount: 1,
                credit: false,
                day: 0,
                where: "a",
                category: undefined,
                restate: null,
              },
            ],
            [
              { where: "a", account: "main", currency: "JPY", minor: 1, day: 0, hour: 0 },
              { where: "b", account: "main", currency: "JPY", minor: 1, day: 0, hour: 0 },
            ],
          ],
        ],
      },
    );
  }, 600_000);
});

describe("the file, the period and who may export", () => {
  it("streams more than one batch, keeps the original currencies with @@ prices, cuts a period", async () => {
    const o = await newLedgerOwner(api);
    const specs = Array.from({ length: LEDGER_BATCH + 5 }, (_, i) => ({
      kind: "revenue" as const,
      currency: i % 2 === 0 ? ("USD" as const) : ("EUR" as const),
      amount: 100 + i,
      credit: false,
      day: i % 400,
      where: "a" as const,
      category: undefined,
      restate: null,
    }));
    await writeLedger(api, o, specs);
    const response = await exportFile(o, "beancount");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="ledger-${TODAY}.beancount"`);
    expect(response.text.match(/^\d{4}-\d{2}-\d{2} \* /gm)).toHaveLength(LEDGER_BATCH + 5);
    expect(response.text).toMatch(/Assets:Business:Shop:Cash {2}1\.00 USD @@ 0\.\d{2} EUR\n/);
    const file = path.join(dir, "batches.beancount");
    fs.writeFileSync(file, response.text);
    execFileSync("bean-check", [file]);
    const days = (await exportFile(o, "hledger", `&from=${LEDGER_FROM}&to=${LEDGER_FROM}`)).text.match(
      /^\d{4}-\d{2}-\d{2}(?= )/gm,
    );
    expect(new Set(days)).toEqual(new Set([LEDGER_FROM]));
    const audit = await api.db.auditEntry.findFirst({
      where: { ownerId: o.ownerId, action: "ledger.exported" },
      orderBy: { createdAt: "desc" },
    });
    expect(audit?.details).toMatchObject({ format: "hledger", from: LEDGER_FROM, to: LEDGER_FROM });
  }, 120_000);

  it("refuses a bad format or period, and agents", async () => {
    const o = await newLedgerOwner(api);
    expectApiError(await api.call("GET", "/v1/exports/ledger", { token: o.token }), 400, "validation_error");
    expectApiError(await api.call("GET", "/v1/exports/ledger?format=ledger", { token: o.token }), 400, "validation_error");
    expectApiError(
      await api.call("GET", "/v1/exports/ledger?format=hledger&from=2026-05-02&to=2026-05-01", { token: o.token }),
      400,
      "validation_error",
    );
    const empty = await exportFile(o, "hledger");
    const file = path.join(dir, "empty.journal");
    fs.writeFileSync(file, empty.text);
    execFileSync("hledger", ["-f", file, "check"]);
    const agent = await seedAgent(api, { grants: [businessGrant(o.businessA, { scope: "finances:observe" })] }, o.token);
    expectApiError(await api.call("GET", "/v1/exports/ledger?format=beancount", { token: agent.token }), 403, "scope_denied");
  });
});
