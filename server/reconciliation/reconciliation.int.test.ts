// The daily reconciliation of imported bank lines (contract: Import rules 7, the "import
// event" transitions, the `unreconciled` signal), on PGlite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TTestDatabase } from "../../test/helpers/database";
import type { TDb } from "../db/client";
import { countsInTotals } from "../ledger/counted-total";
import { cashCoverage } from "./cash-coverage";
import { createReconciliationOwner, type TReconciliationOwner } from "./reconciliation.fixtures";
import { reconcileImports } from "./reconciliation-service";

process.env.LOG_LEVEL = "silent";

let database: TTestDatabase;
let db: TDb;
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.prisma;
});
afterAll(async () => database?.close());

const NOW = new Date("2026-11-14T12:00:00Z");
const event = (id: string) => db.financialEvent.findUniqueOrThrow({ where: { id } });

async function owner(label = "owner"): Promise<TReconciliationOwner> {
  return createReconciliationOwner(db, label);
}

describe("matching", () => {
  it("matches an import event to an integration event within 3 days, marks it reconciled and audits it", async () => {
    const o = await owner();
    const line = await o.bankLine("bank_1", 5_000, "2026-11-10");
    const charge = await o.payment("ch_1", 5_000, "2026-11-13");

    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual({ matched: 1, signaled: 0 });

    const reconciled = await event(line);
    expect(reconciled.reconciled).toBe(true);
    expect(reconciled.status).toBe("confirmed");
    expect(reconciled.payload).toMatchObject({ batch_id: "imp_test", reconciled: true, reconciles_event_id: charge });
    expect(countsInTotals(reconciled)).toBe(false);
    const other = await event(charge);
    expect(other.reconciled).toBe(false);
    expect(countsInTotals(other)).toBe(true);

    const audits = await db.auditEntry.findMany({ where: { ownerId: o.ownerId, action: "import.reconciled" } });
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorType: "system", actorId: null, targetType: "event", targetId: line });
    expect(audits[0]!.details).toEqual({ reconciles_event_id: charge, amount_minor: 5_000, currency: "EUR" });

    // A second run changes nothing.
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual({ matched: 0, signaled: 0 });
  });

  it("matches money in with money in (revenue), and a refund by its direction", async () => {
    const o = await owner();
    const income = await o.bankLine("bank_in", 7_500, "2026-11-12", { type: "revenue" });
    await o.payment("ch_expense", 7_500, "2026-11-12"); // money out: not a match for money in
    const sale = await o.payment("ch_sale", 7_500, "2026-11-11", { type: "revenue" });
    const refundLine = await o.bankLine("bank_refund", 1_200, "2026-11-12", { type: "expense" });
    const refund = await o.payment("re_1", 1_200, "2026-11-12", { type: "refund", payload: { direction: "out" } });

    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual({ matched: 2, signaled: 0 });
    expect((await event(income)).payload).toMatchObject({ reconciles_event_id: sale });
    expect((await event(refundLine)).payload).toMatchObject({ reconciles_event_id: refund });
  });

  it("does not match at 4 days, in another currency, for another amount or another direction", async () => {
    const o = await owner();
    const lines = [
      await o.bankLine("bank_far", 1_000, "2026-11-09"),
      await o.bankLine("bank_usd", 2_000, "2026-11-10"),
      await o.bankLine("bank_amount", 3_000, "2026-11-10"),
      await o.bankLine("bank_direction", 4_000, "2026-11-10"),
    ];
    await o.payment("ch_far", 1_000, "2026-11-13"); // 4 days after
    await o.payment("ch_usd", 2_000, "2026-11-10", { currency: "USD" });
    await o.payment("ch_amount", 3_001, "2026-11-10");
    await o.payment("ch_direction", 4_000, "2026-11-10", { type: "revenue" });

    expect(await reconcileImports(db, { now: new Date("2026-11-12T12:00:00Z"), ownerId: o.ownerId })).toEqual({
      matched: 0,
      signaled: 0,
    });
    for (const id of lines) expect((await event(id)).reconciled).toBe(false);
  });

  it("leaves alone the lines of an import uploaded with reconcile=false: no match, no signal", async () => {
    const o = await owner();
    const line = await o.bankLine("bank_off", 5_500, "2026-11-01", { payload: { reconcile: false } });
    await o.payment("ch_off", 5_500, "2026-11-01");
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual({ matched: 0, signaled: 0 });
    expect((await event(line)).reconciled).toBe(false);
  });

  it("takes the closest date first, then the oldest created event", async () => {
    const o = await owner();
    const line = await o.bankLine("bank_1", 900, "2026-11-10");
    await o.payment("ch_two_days", 900, "2026-11-12", { createdAt: new Date("2026-11-12T08:00:00Z") });
    const dayBefore = await o.payment("ch_day_before", 900, "2026-11-09", { createdAt: new Date("2026-11-10T10:00:00Z") });
    await o.payment("ch_day_after", 900, "2026-11-11", { createdAt: new Date("2026-11-11T09:00:00Z") });
    // ch_day_before and ch_day_after are both one day away: the one created first wins.
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual({ matched: 1, signaled: 0 });
    expect((await event(line)).payload).toMatchObject({ reconciles_event_id: dayBefore });
  });

  it("never matches one integration event twice, nor one already claimed by an import", async () => {
    const o = await owner();
    const first = await o.bankLine("bank_1", 4_200, "2026-11-10");
    const second = await o.bankLine("bank_2", 4_200, "2026-11-11");
    const charge = await o.payment("ch_1", 4_200, "2026-11-11");

    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual({ matched: 1, signaled: 0 });
    const states = [await event(first), await event(second)];
    expect(states.filter((e) => e.reconciled)).toHaveLength(1);
    expect(states.find((e) => e.reconciled)!.payload).toMatchObject({ reconciles_event_id: charge });

    // An import stored already reconciled (payload.reconciles_event_id at import time) claims its event too.
    const claimed = await o.payment("ch_claimed", 6_100, "2026-11-12");
    await o.bankLine("bank_claiming", 6_100, "2026-11-12", { payload: { reconciles_event_id: claimed } });
    const third = await o.bankLine("bank_3", 6_100, "2026-11-12");
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual({ matched: 0, signaled: 0 });
    expect((await event(third)).reconciled).toBe(false);
    expect(await db.auditEntry.count({ where: { ownerId: o.ownerId, action: "import.reconciled" } })).toBe(1);
  });

  it("never matches another owner's events, when all owners are reconciled at once", async () => {
    const alice = await owner("alice");
    const bob = await owner("bob");
    const aliceLine = await alice.bankLine("bank_1", 3_300, "2026-11-12");
    await bob.payment("ch_1", 3_300, "2026-11-12");
    const bobLine = await bob.bankLine("bank_1", 3_300, "2026-11-12");

    const result = await reconcileImports(db, { now: NOW });
    expect(result.matched).toBeGreaterThanOrEqual(1);
    expect((await event(aliceLine)).reconciled).toBe(false);
    expect((await event(bobLine)).reconciled).toBe(true);
  });

  it("matches once when two runs start at the same time", async () => {
    const o = await owner();
    const lines: string[] = [];
    for (let n = 0; n < 5; n++) {
      lines.push(await o.bankLine(`bank_${n}`, 100 + n, "2026-11-12"));
      await o.payment(`ch_${n}`, 100 + n, "2026-11-12");
      await o.payment(`ch_dup_${n}`, 100 + n, "2026-11-12"); // a second candidate for each line
    }
    const runs = await Promise.all([
      reconcileImports(db, { now: NOW, ownerId: o.ownerId }),
      reconcileImports(db, { now: NOW, ownerId: o.ownerId }),
      reconcileImports(db, { now: NOW, ownerId: o.ownerId }),
    ]);
    expect(runs.reduce((sum, r) => sum + r.matched, 0)).toBe(5);
    expect(await db.auditEntry.count({ where: { ownerId: o.ownerId, action: "import.reconciled" } })).toBe(5);
    for (const id of lines) expect((await event(id)).reconciled).toBe(true);
  });
});

describe("unreconciled signal", () => {
  it("raises one warning alert for a line without a match after 3 days, once, leaving cash coverage alone", async () => {
    const o = await owner();
    const stale = await o.bankLine("bank_stale", 8_800, "2026-11-10"); // 4 days before NOW
    await o.bankLine("bank_recent", 9_900, "2026-11-11"); // 3 days: not yet

    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual({ matched: 0, signaled: 1 });
    const alerts = await db.alert.findMany({ where: { ownerId: o.ownerId } });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      code: "integration.unreconciled",
      severity: "warning",
      integrationId: o.importIntegrationId,
      businessId: o.businessId,
      amountMinor: 8_800n,
      currency: "EUR",
      refType: "audit_entry",
    });
    const signal = await db.integrationSignal.findFirstOrThrow({ where: { ownerId: o.ownerId } });
    expect(signal).toMatchObject({ externalId: `unreconciled:${stale}`, code: "unreconciled", severity: "warning" });
    expect(signal.ref).toMatchObject({ event_id: stale });
    expect(await db.auditEntry.count({ where: { ownerId: o.ownerId, action: "signal.unreconciled" } })).toBe(1);
    // A signal is not a bank import: cash coverage reads confirmed imports only.
    expect((await cashCoverage(db, o.ownerId, NOW)).last_import_at).toBeNull();

    // The next day: the stale line is not raised again; the other one now is.
    const tomorrow = new Date("2026-11-15T12:00:00Z");
    expect(await reconcileImports(db, { now: tomorrow, ownerId: o.ownerId })).toEqual({ matched: 0, signaled: 1 });
    expect(await reconcileImports(db, { now: tomorrow, ownerId: o.ownerId })).toEqual({ matched: 0, signaled: 0 });
    expect(await db.alert.count({ where: { ownerId: o.ownerId, code: "integration.unreconciled" } })).toBe(2);
  });

  it("raises nothing for a line reconciled late, and still matches a line whose signal was raised", async () => {
    const o = await owner();
    const line = await o.bankLine("bank_1", 1_500, "2026-11-05");
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual({ matched: 0, signaled: 1 });
    await o.payment("ch_late", 1_500, "2026-11-07", { createdAt: new Date("2026-11-14T13:00:00Z") });
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual({ matched: 1, signaled: 0 });
    expect((await event(line)).reconciled).toBe(true);
  });
});
