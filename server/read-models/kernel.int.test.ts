// The read-model kernel on a real database (both engines): scope fragments and their 404s,
// the counted predicates against countsInTotals, cash positions (K6) and the display
// conversion with its errors (K5).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyTestEnv, createTestApi, type TTestApi } from "../../test/helpers/api";
import { insertEventRow, type TEventRow } from "../../test/helpers/event-rows";
import { seedBusiness, seedOwner, seedProject, staticOwner } from "../../test/helpers/seed";
import { Prisma } from "../db/generated/client";
import { AppError } from "../errors/app-error";
import { convertAmount } from "../fx/fx-service";
import { countsInTotals } from "../ledger/counted-total";
import { fixedClock } from "../shared/clock";
import { cashPosition, toCashDto } from "./cash";
import { actualCountedSql, commitmentCountedSql, directionSql, sumInSql, sumOutSql } from "./counted";
import { windowSums, windowsWhereSql } from "./burn-sums";
import { currentAmounts, snapshotConversions, toBigInt, toDisplay } from "./display";
import { actualFlows } from "./flows";
import { readOwnerDay, type TOwnerDay } from "./period";
import {
  cashScopeSql,
  eventScopeSql,
  OWNER_SCOPE,
  PERSONAL_SCOPE,
  resolveBusinessScope,
  resolveProjectScope,
  resolveReadScope,
  type TReadScope,
} from "./scope";

let api: TTestApi;
let ownerId: string;
let otherOwnerId: string;
let atlas: string;
let beacon: string;
let web: string;
let theirs: string;
const clock = fixedClock("2026-07-01T10:00:00Z");
let day: TOwnerDay;

async function refusal(run: () => Promise<unknown>): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

type TEventFields = TEventRow & { owner?: string };

/** An event row written directly: states the API cannot make in one call (voided, reconciled, fulfilled). */
const insertEvent = (f: TEventFields): Promise<string> => insertEventRow(api, f.owner ?? ownerId, f);

beforeAll(async () => {
  api = await createTestApi({ clock });
  ownerId = (await staticOwner(api)).ownerId;
  await api.db.owner.update({ where: { id: ownerId }, data: { baseCurrency: "EUR", timezone: "Europe/Berlin" } });
  atlas = (await seedBusiness(api, { name: "Atlas" })).id;
  beacon = (await seedBusiness(api, { name: "Beacon" })).id;
  web = (await seedProject(api, atlas, { name: "Web" })).id;
  const bob = await seedOwner(api);
  otherOwnerId = bob.ownerId;
  theirs = (await seedBusiness(api, { name: "Theirs" }, bob.token)).id;
  day = await readOwnerDay(api.db, ownerId, clock);
});
afterAll(async () => api?.close());

describe("K1: the owner's day", () => {
  it("today in the owner's timezone at the injected clock; rates of the UTC day", async () => {
    expect(day).toMatchObject({
      ownerId,
      baseCurrency: "EUR",
      timezone: "Europe/Berlin",
      today: "2026-07-01",
      ratesOn: "2026-07-01",
    });
    const late = await readOwnerDay(api.db, ownerId, fixedClock("2026-07-01T22:30:00Z"));
    expect(late).toMatchObject({ today: "2026-07-02", ratesOn: "2026-07-01" });
  });

  it("an unknown stored timezone counts as UTC", async () => {
    await api.db.owner.update({ where: { id: otherOwnerId }, data: { timezone: "Mars/Olympus" } });
    const other = await readOwnerDay(api.db, otherOwnerId, fixedClock("2026-07-01T22:30:00Z"));
    expect(other).toMatchObject({ timezone: "UTC", today: "2026-07-01" });
  });
});

describe("K2: scope", () => {
  it("resolves the owner's business and project; another owner's or an unknown id is 404", async () => {
    expect(await resolveBusinessScope(api.db, ownerId, atlas)).toEqual({ kind: "business", businessId: atlas });
    expect(await resolveProjectScope(api.db, ownerId, web)).toEqual({ kind: "project", projectId: web, businessId: atlas });
    expect(await resolveReadScope(api.db, ownerId, {})).toEqual(OWNER_SCOPE);
    expect(await resolveReadScope(api.db, ownerId, { personal: true })).toEqual(PERSONAL_SCOPE);
    for (const run of [
      () => resolveBusinessScope(api.db, ownerId, theirs),
      () => resolveReadScope(api.db, ownerId, { business_id: "5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00" }),
      () => resolveProjectScope(api.db, ownerId, theirs),
    ]) {
      expect((await refusal(run)).code).toBe("not_found");
    }
  });

  it("event fragments: business includes its projects; project, personal, owner; never another owner's rows", async () => {
    await insertEvent({ businessId: atlas, type: "revenue", amount: 1n, on: "2026-01-02" });
    await insertEvent({ businessId: atlas, projectId: web, type: "revenue", amount: 10n, on: "2026-01-02" });
    await insertEvent({ businessId: beacon, type: "revenue", amount: 100n, on: "2026-01-02" });
    await insertEvent({ personal: true, type: "revenue", amount: 1000n, on: "2026-01-02" });
    await insertEvent({ owner: otherOwnerId, businessId: theirs, type: "revenue", amount: 10000n, on: "2026-01-02" });
    const sum = async (scope: TReadScope, owner = ownerId) => {
      const [row] = await api.db.$queryRaw<{ total: unknown }[]>`
        SELECT COALESCE(SUM(e.amount_minor), 0)::text AS total FROM financial_events e
         WHERE ${eventScopeSql("e", owner, scope)} AND e.occurred_on = '2026-01-02'::date`;
      return toBigInt(row!.total);
    };
    expect(await sum({ kind: "business", businessId: atlas })).toBe(11n);
    expect(await sum({ kind: "project", projectId: web, businessId: atlas })).toBe(10n);
    expect(await sum(PERSONAL_SCOPE)).toBe(1000n);
    expect(await sum(OWNER_SCOPE)).toBe(1111n);
    // Another owner's business id under our owner: nothing.
    expect(await sum({ kind: "business", businessId: theirs })).toBe(0n);
  });

  it("cash fragments: a project counts its business's snapshots", () => {
    const project = cashScopeSql("cs", ownerId, { kind: "project", projectId: web, businessId: atlas });
    const business = cashScopeSql("cs", ownerId, { kind: "business", businessId: atlas });
    expect(project.sql).toBe(business.sql);
    expect(project.values).toEqual(business.values);
  });

  it("refuses an alias that is not a plain identifier", () => {
    expect(() => eventScopeSql("e; DROP TABLE x", ownerId, OWNER_SCOPE)).toThrow(/Not an SQL alias/);
  });
});

describe("K3, K4: counted and direction", () => {
  it("the SQL predicates agree with countsInTotals on every status, reconciled flag and state", async () => {
    const on = "2026-02-03";
    const cases: Array<{ state: string; status: string; reconciled: boolean; fulfilled: boolean }> = [];
    for (const state of ["actual", "planned"])
      for (const status of ["confirmed", "voided"])
        for (const reconciled of [false, true])
          for (const fulfilled of [false, true]) cases.push({ state, status, reconciled, fulfilled });
    const fulfiller = await insertEvent({ businessId: beacon, type: "expense", amount: 1n, on: "2026-02-04" });
    const ids = new Map<string, (typeof cases)[number]>();
    for (const c of cases) {
      const id = await insertEvent({
        businessId: beacon,
        type: c.state === "planned" ? "planned_expense" : "expense",
        state: c.state,
        status: c.status,
        reconciled: c.reconciled,
        amount: 5n,
        on,
        fulfilledBy: c.fulfilled ? fulfiller : null,
      });
      ids.set(id, c);
    }
    const rows = await api.db.$queryRaw<{ id: string; actual: boolean; commitment: boolean }[]>`
      SELECT e.id::text AS id, (${actualCountedSql("e")}) AS actual, (${commitmentCountedSql("e")}) AS commitment
        FROM financial_events e WHERE e.owner_id = ${ownerId}::uuid AND e.occurred_on = ${on}::date`;
    expect(rows).toHaveLength(cases.length);
    for (const row of rows) {
      const c = ids.get(row.id)!;
      const counted = countsInTotals({ status: c.status, reconciled: c.reconciled });
      expect(row.actual, JSON.stringify(c)).toBe(c.state === "actual" && counted);
      expect(row.commitment, JSON.stringify(c)).toBe(c.state === "planned" && counted && !c.fulfilled);
    }
  });

  it("direction and the in/out sums follow lib/money-direction; credits sum as stored", async () => {
    const on = "2026-03-04";
    const events: Array<Pick<TEventFields, "type" | "direction" | "amount">> = [
      { type: "revenue", amount: 1000n },
      { type: "revenue", amount: -100n }, // a credit note: negative, summed as stored
      { type: "refund", direction: "in", amount: 30n },
      { type: "refund", direction: "out", amount: 40n },
      { type: "expense", amount: 200n },
      { type: "recurring_expense", amount: 300n },
      { type: "ad_spend", amount: 50n },
      { type: "subscription_change", amount: 7000n },
      { type: "agent_action", amount: 9000n },
    ];
    for (const e of events) await insertEvent({ businessId: beacon, ...e, on });
    const [row] = await api.db.$queryRaw<{ in_minor: unknown; out_minor: unknown; none: unknown }[]>`
      SELECT ${sumInSql("e")} AS in_minor, ${sumOutSql("e")} AS out_minor,
             COUNT(*) FILTER (WHERE ${directionSql("e")} IS NULL) AS none
        FROM financial_events e WHERE e.owner_id = ${ownerId}::uuid AND e.occurred_on = ${on}::date AND ${actualCountedSql("e")}`;
    expect(toBigInt(row!.in_minor)).toBe(930n);
    expect(toBigInt(row!.out_minor)).toBe(590n);
    expect(toBigInt(row!.none)).toBe(2n);
  });
});

describe("K6: cash", () => {
  let snapshots = 0;
  const snapshot = (fields: {
    businessId?: string | null;
    personal?: boolean;
    account: string;
    amount: bigint;
    currency?: string;
    asOf: string;
    owner?: string;
  }) =>
    api.db.cashSnapshot.create({
      data: {
        ownerId: fields.owner ?? ownerId,
        businessId: fields.businessId ?? null,
        personal: fields.personal ?? false,
        scope: fields.personal ? "personal" : `business:${fields.businessId}`,
        amountMinor: fields.amount,
        currency: fields.currency ?? "EUR",
        asOf: new Date(fields.asOf),
        accountId: fields.account,
        externalId: `snap-${++snapshots}`,
        dataClass: "manual",
        sourceType: "MANUAL",
      },
    });

  it("no snapshot → null", async () => {
    expect(await cashPosition(api.db, day, { kind: "business", businessId: beacon })).toBeNull();
    expect(toCashDto(null, undefined, "cash")).toBeNull();
  });

  it("the latest snapshot per account, each at today's rate, summed; as_of the oldest used", async () => {
    await snapshot({ businessId: atlas, account: "main", amount: 100_00n, asOf: "2026-06-01T08:00:00Z" });
    await snapshot({ businessId: atlas, account: "main", amount: 250_00n, asOf: "2026-06-28T08:00:00Z" });
    await snapshot({ businessId: atlas, account: "usd", amount: 108_42n, currency: "USD", asOf: "2026-06-20T08:00:00Z" });
    await snapshot({ personal: true, account: "main", amount: 7_00n, asOf: "2026-06-30T08:00:00Z" });
    await snapshot({ owner: otherOwnerId, businessId: theirs, account: "main", amount: 1n, asOf: "2026-06-30T08:00:00Z" });
    const usd = await convertAmount(api.db, { amountMinor: 108_42n, from: "USD", to: "EUR", on: "2026-07-01", kind: "current" });
    const atlasCash = await cashPosition(api.db, day, { kind: "business", businessId: atlas });
    expect(atlasCash).toMatchObject({ amountMinor: 250_00n + usd.amountMinor, accounts: 2 });
    expect(toCashDto(atlasCash, undefined, "cash")).toEqual({
      amount_minor: Number(250_00n + usd.amountMinor),
      as_of: "2026-06-20T08:00:00.000Z",
    });
    expect(atlasCash!.conversions.map((c) => c.fx.kind)).toEqual(["current", "current"]);
    // A project counts its business's cash; the owner counts every scope (never another owner's).
    expect((await cashPosition(api.db, day, { kind: "project", projectId: web, businessId: atlas }))!.amountMinor).toBe(
      atlasCash!.amountMinor,
    );
    expect((await cashPosition(api.db, day, PERSONAL_SCOPE))!.amountMinor).toBe(7_00n);
    expect((await cashPosition(api.db, day, OWNER_SCOPE))!.amountMinor).toBe(atlasCash!.amountMinor + 7_00n);
  });

  it("at the end of day D (owner timezone): only snapshots with as_of before D + 1 starts", async () => {
    // Europe/Berlin: 2026-06-28 ends at 2026-06-28T22:00Z.
    await snapshot({ businessId: beacon, account: "b", amount: 1_00n, asOf: "2026-06-28T21:59:59.999Z" });
    await snapshot({ businessId: beacon, account: "b", amount: 2_00n, asOf: "2026-06-28T22:00:00Z" });
    const beaconScope: TReadScope = { kind: "business", businessId: beacon };
    expect((await cashPosition(api.db, day, beaconScope, { endOf: "2026-06-28" }))!.amountMinor).toBe(1_00n);
    expect((await cashPosition(api.db, day, beaconScope, { endOf: "2026-06-29" }))!.amountMinor).toBe(2_00n);
    expect(await cashPosition(api.db, day, beaconScope, { endOf: "2026-06-27" })).toBeNull();
  });
});

describe("K5: display", () => {
  it("snapshot rates grouped in SQL, then converted once to the display currency", async () => {
    const groups = await snapshotConversions(
      api.db,
      Prisma.sql`financial_events e`,
      "e",
      Prisma.sql`${eventScopeSql("e", ownerId, { kind: "business", businessId: beacon })} AND e.occurred_on = '2026-03-04'::date`,
    );
    expect(groups).toEqual([
      {
        from: "EUR",
        fx: { rate: "1.00000000", as_of: "2026-03-04", source: "identity", kind: "snapshot", stale: false },
        amountMinor: 17_720n,
      },
    ]);
    const components = { in_minor: 930n, out_minor: 590n };
    const shown = await toDisplay(api.db, day, { displayCurrency: "USD", components, conversions: groups });
    const usd = await convertAmount(api.db, { amountMinor: 930n, from: "EUR", to: "USD", on: "2026-07-01", kind: "current" });
    expect(shown.amounts.in_minor).toBe(usd.amountMinor);
    expect(shown).toMatchObject({ currency: "USD", baseCurrency: "EUR" });
    expect(shown.fx).toMatchObject({
      base_currency: "EUR",
      display_currency: "USD",
      estimated_share: 1,
      stale: false,
      currencies: ["EUR"],
    });
    expect(shown.fxUsed).toEqual([
      { from: "EUR", to: "USD", rate: usd.fx.rate, as_of: "2026-07-01", source: "mock", stale: false },
    ]);
    // The base: no conversion at all.
    const base = await toDisplay(api.db, day, { components, conversions: groups });
    expect(base.amounts).toEqual(components);
    expect(base.fx).toMatchObject({ display_currency: "EUR", estimated_share: 0, source: "identity" });
  });

  it("a display currency the source does not cover → currency_unsupported (422); never 1:1", async () => {
    const error = await refusal(() => toDisplay(api.db, day, { displayCurrency: "BRL", components: { a: 1n }, conversions: [] }));
    expect(error.code).toBe("currency_unsupported");
    expect(error.status).toBe(422);
  });

  it("no rate for a current record or for the display currency → fx_unavailable (422)", async () => {
    applyTestEnv({ FX_SOURCE: "ecb" });
    try {
      expect((await refusal(() => currentAmounts(api.db, day, [{ amountMinor: 1n, currency: "USD" }]))).code).toBe(
        "fx_unavailable",
      );
      const error = await refusal(() =>
        toDisplay(api.db, day, { displayCurrency: "USD", components: { a: 1n }, conversions: [] }),
      );
      expect(error.code).toBe("fx_unavailable");
      // The base itself needs no rate.
      expect((await currentAmounts(api.db, day, [{ amountMinor: 5n, currency: "EUR" }])).amounts).toEqual([5n]);
    } finally {
      applyTestEnv({ FX_SOURCE: undefined });
    }
  });
});

describe("K8: flows, one scan", () => {
  // actualFlows answers the spans' sums and their frozen rates from one grouped scan; windowSums
  // and snapshotConversions (the financial summary's) answer them one query each. Same rows,
  // same answers, stale rates included.
  it("agrees with windowSums and snapshotConversions on every span, direction and rate", async () => {
    const carol = await seedOwner(api);
    await api.db.owner.update({ where: { id: carol.ownerId }, data: { baseCurrency: "EUR" } });
    const shop = (await seedBusiness(api, { name: "Shop" }, carol.token)).id;
    const row = (f: {
      type: string;
      amount: bigint;
      on: string;
      direction?: string;
      state?: string;
      status?: string;
      currency?: string;
      rate?: { value: string; asOf: string; source: string } | null;
      createdAt?: string;
      personal?: boolean;
    }) => ({
      ownerId: carol.ownerId,
      businessId: f.personal ? null : shop,
      personal: f.personal ?? false,
      type: f.type,
      state: f.state ?? "actual",
      status: f.status ?? "confirmed",
      direction: f.direction ?? null,
      amountMinor: f.amount,
      currency: f.currency ?? "USD",
      baseAmountMinor: f.amount * 2n,
      baseCurrency: "EUR",
      fxRate: f.rate === null ? null : new Prisma.Decimal(f.rate?.value ?? "2"),
      fxAsOf: f.rate === null ? null : new Date(`${f.rate?.asOf ?? f.on}T00:00:00Z`),
      fxSource: f.rate === null ? null : (f.rate?.source ?? "mock"),
      occurredOn: new Date(`${f.on}T00:00:00Z`),
      sourceType: "MANUAL",
      createdAt: new Date(f.createdAt ?? `${f.on}T12:00:00Z`),
    });
    await api.db.financialEvent.createMany({
      data: [
        row({ type: "revenue", amount: 10_00n, on: "2026-06-01" }),
        row({ type: "revenue", amount: -3_00n, on: "2026-06-20" }), // a credit sums as stored
        row({ type: "expense", amount: 4_00n, on: "2026-06-02" }),
        row({ type: "ad_spend", amount: 5_00n, on: "2026-06-25" }),
        row({ type: "recurring_expense", amount: 6_00n, on: "2026-06-26" }),
        row({ type: "refund", direction: "out", amount: 7_00n, on: "2026-06-27" }),
        row({ type: "refund", direction: "in", amount: 8_00n, on: "2026-06-28" }),
        row({ type: "agent_action", amount: 9_00n, on: "2026-06-28" }), // no direction
        row({ type: "expense", amount: 11_00n, on: "2026-06-29", status: "voided" }), // never counts
        row({ type: "planned_expense", amount: 12_00n, on: "2026-06-29", state: "planned" }), // a commitment
        row({ type: "expense", amount: 13_00n, on: "2026-06-30", personal: true }),
        row({ type: "revenue", amount: 14_00n, on: "2026-06-30", currency: "EUR", rate: null }), // no frozen rate
        // ecb rates of 2026-06-10: used and recorded 10 days late → stale; used late but recorded in time → not.
        row({ type: "expense", amount: 15_00n, on: "2026-06-20", rate: { value: "1.1", asOf: "2026-06-10", source: "ecb" } }),
        row({
          type: "expense",
          amount: 16_00n,
          on: "2026-06-20",
          rate: { value: "1.2", asOf: "2026-06-10", source: "ecb" },
          createdAt: "2026-06-11T09:00:00Z",
        }),
        row({ type: "revenue", amount: 17_00n, on: "2026-05-01" }), // before every span
      ],
    });
    const carolDay = await readOwnerDay(api.db, carol.ownerId, clock);
    const spans = [
      { from: "2026-06-01", to: "2026-06-30" },
      { from: "2026-06-20", to: "2026-06-28" },
      { from: "2026-06-30", to: "2026-06-30" },
    ];
    for (const scope of [OWNER_SCOPE, { kind: "business", businessId: shop } as TReadScope, PERSONAL_SCOPE]) {
      const one = await actualFlows(api.db, carolDay, scope, spans, { byBusiness: true });
      const sums = await windowSums(api.db, carol.ownerId, scope, spans);
      const asFlows = (list: typeof sums) =>
        list.map((s) => ({ inMinor: s.in90, outMinor: s.out90, runRateOutMinor: s.runRateOut }));
      expect(one.flows).toEqual(asFlows(sums));
      // Each business's flows are its own scope's (personal rows belong to none).
      const business = await windowSums(api.db, carol.ownerId, { kind: "business", businessId: shop }, spans);
      expect(one.byBusiness.get(shop)).toEqual(scope.kind === "personal" ? undefined : asFlows(business));
      expect([...one.byBusiness.keys()]).toEqual(scope.kind === "personal" ? [] : [shop]);
      const rates = await snapshotConversions(
        api.db,
        Prisma.sql`financial_events e`,
        "e",
        windowsWhereSql(carol.ownerId, scope, spans),
      );
      const key = (c: { from: string; fx: { rate: string; as_of: string } }) => `${c.from} ${c.fx.rate} ${c.fx.as_of}`;
      const sorted = <T extends { from: string; fx: { rate: string; as_of: string } }>(list: T[]) =>
        [...list].sort((a, b) => key(a).localeCompare(key(b)));
      expect(sorted(one.conversions)).toEqual(sorted(rates));
    }
    const owner = await actualFlows(api.db, carolDay, OWNER_SCOPE, spans);
    // June: in 10 − 3 + 8 + 14 = 29; out 4 + 5 + 6 + 7 + 13 + 15 + 16 = 66 (×2 in the base).
    expect(owner.flows[0]).toEqual({
      inMinor: 2n * 29_00n,
      outMinor: 2n * 66_00n,
      runRateOutMinor: 2n * (4_00n + 5_00n + 7_00n + 13_00n + 15_00n + 16_00n),
    });
    expect(owner.flows[2]).toEqual({ inMinor: 2n * 14_00n, outMinor: 2n * 13_00n, runRateOutMinor: 2n * 13_00n });
    const ecb = owner.conversions.filter((c) => c.fx.source === "ecb").map((c) => [c.fx.rate, c.fx.stale]);
    expect(ecb.sort()).toEqual([
      ["1.10000000", true],
      ["1.20000000", false],
    ]);
  });
});
