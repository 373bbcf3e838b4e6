// A generated ledger for the reports' tests (issue 36): an owner with two businesses (EUR base),
// a project, and items in five currencies: business events ingested (refunds both ways, ad
// spend, recurring and planned expenses, subscription changes, credits, restatements), personal
// ones entered by hand. Days fall in [LEDGER_FROM, LEDGER_FROM + LEDGER_DAYS].
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { expect } from "vitest";
import { addDays } from "../../lib/days";
import { ingestEvents } from "../../server/ingest/ingest-service";
import { openOwnerSession } from "../../server/sessions/session-service";
import type { TTestApi } from "./api";
import { createdData, seedIntegration } from "./seed";

/** The ingestion's clock (the reports' tests read at 2026-05-10 12:00 UTC). */
const NOW = new Date("2026-05-10T12:00:00Z");

export type TLedgerOwner = {
  ownerId: string;
  token: string;
  businessA: string;
  businessB: string;
  projectId: string;
};

export const CURRENCIES = ["EUR", "USD", "GBP", "JPY", "CHF"] as const;
/** The generated ledger's first day: events fall in [LEDGER_FROM, TODAY]. */
export const LEDGER_FROM = "2025-03-01";
export const LEDGER_DAYS = 435;

const KINDS = [
  "revenue",
  "refund-in",
  "refund-out",
  "ad_spend",
  "expense",
  "recurring_expense",
  "subscription_change",
  "planned",
  "personal-revenue",
  "personal-expense",
] as const;

export const ledgerItemArb = fc.record({
  kind: fc.constantFrom(...KINDS),
  currency: fc.constantFrom(...CURRENCIES),
  amount: fc.integer({ min: 1, max: 5_000_000 }),
  credit: fc.boolean(),
  day: fc.integer({ min: 0, max: LEDGER_DAYS }),
  where: fc.constantFrom("a", "a-project", "b"),
  category: fc.constantFrom(undefined, "software", "ads", "=SUM(A1)", "+cmd"),
  restate: fc.option(fc.integer({ min: 1, max: 900_000 }), { freq: 5 }),
});
export type TLedgerItem = ReturnType<typeof ledgerItemArb.generate>["value"];

export async function newLedgerOwner(testApi: TTestApi): Promise<TLedgerOwner> {
  const owner = await testApi.db.owner.create({
    data: { email: `pnl-${randomUUID()}@example.test`, baseCurrency: "EUR", baseCurrencyConfirmed: true },
  });
  const { token } = await openOwnerSession(testApi.db, { ownerId: owner.id, channel: "api" });
  const business = async (name: string) =>
    createdData(await testApi.call("POST", "/v1/businesses", { token, body: { name, currency: "EUR" } }), "a business");
  const a = await business("Shop");
  const b = await business("Studio");
  const project = createdData(
    await testApi.call("POST", `/v1/businesses/${a.id}/projects`, { token, body: { name: "Web" } }),
    "a project",
  );
  return { ownerId: owner.id, token, businessA: a.id, businessB: b.id, projectId: project.id };
}

/** Writes a generated ledger: business events by ingestion (restatements re-ingested), personal ones by hand. */
export async function writeLedger(testApi: TTestApi, o: TLedgerOwner, specs: TLedgerItem[]): Promise<void> {
  const integrations = {
    a: await seedIntegration(testApi.db, { ownerId: o.ownerId, provider: "payments_a", businessId: o.businessA }),
    b: await seedIntegration(testApi.db, { ownerId: o.ownerId, provider: "payments_a", businessId: o.businessB }),
  };
  const items = specs.flatMap((s, i) => {
    if (s.kind.startsWith("personal-")) return [];
    const [type, direction] =
      s.kind === "refund-in"
        ? ["refund", "in"]
        : s.kind === "refund-out"
          ? ["refund", "out"]
          : s.kind === "planned"
            ? ["expense", undefined]
            : [s.kind, undefined];
    const negative = s.credit && ["revenue", "expense"].includes(type!) && i % 3 === 0;
    return [
      {
        integration_id: s.where === "b" ? integrations.b : integrations.a,
        external_id: `ev_${i}`,
        type: type as "revenue",
        state: s.kind === "planned" ? ("planned" as const) : ("actual" as const),
        amount_minor: negative ? -s.amount : s.amount,
        currency: s.currency,
        occurred_on: addDays(LEDGER_FROM, s.day),
        source_type: "PAYMENTS_API" as const,
        ...(s.where === "a-project" ? { project_id: o.projectId } : {}),
        ...(s.category ? { category: s.category } : {}),
        payload: direction ? { direction: direction as "in" | "out" } : {},
      },
    ];
  });
  if (items.length > 0) {
    const result = await ingestEvents(testApi.db, o.ownerId, items, { now: NOW });
    expect(result.rejected, JSON.stringify(result.rejected)).toEqual([]);
    const restated = specs.flatMap((s, i) => {
      const item = items.find((it) => it.external_id === `ev_${i}`);
      return s.restate !== null && item && item.state === "actual" ? [{ ...item, amount_minor: s.restate }] : [];
    });
    if (restated.length > 0) await ingestEvents(testApi.db, o.ownerId, restated, { now: NOW });
  }
  for (const s of specs.filter((x) => x.kind.startsWith("personal-"))) {
    const path = s.kind === "personal-revenue" ? "/v1/revenues" : "/v1/expenses";
    createdData(
      await testApi.call("POST", path, {
        token: o.token,
        body: {
          personal: true,
          amount_minor: s.amount,
          currency: s.currency,
          occurred_on: addDays(LEDGER_FROM, s.day),
          ...(s.category ? { category: s.category } : {}),
        },
      }),
      "a personal event",
    );
  }
}
