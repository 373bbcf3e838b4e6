// The daily reconciliation of imported bank lines (contract: Import rules 7, the "import
// event" transitions, the `unreconciled` signal), on PGlite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TTestDatabase } from "../../test/helpers/database";
import type { TDb } from "../db/client";
import { countsInTotals } from "../ledger/counted-total";
import { cashCoverage } from "./cash-coverage";
import { createReconciliationOwner, type TReconciliationOwner } from "../../test/helpers/reconciliation";
import { ingestSignals } from "../ingest/ingest-service";
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

/** A finished run: lines matched, signals raised and the lines they name. */
const done = (matched: number, signaled = 0, unreconciled = signaled) => ({ matched, signaled, unreconciled, complete: true });

describe("matching", () => {
  it("matches an import event to an integration event within 3 days, marks it reconciled and audits it", async () => {
    const o = await owner();
    const line = await o.bankLine("bank_1", 5_000, "2026-11-10");
    const charge = await o.payment("ch_1", 5_000, "2026-11-13");

    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual(done(1));

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
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual(done(0));
  });

  it("matches money in with money in (revenue), and a refund by its direction", async () => {
    const o = await owner();
    const income = await o.bankLine("bank_in", 7_500, "2026-11-12", { type: "revenue" });
    await o.payment("ch_expense", 7_500, "2026-11-12"); // money out: not a match for money in
    const sale = await o.payment("ch_sale", 7_500, "2026-11-11", { type: "revenue" });
    const refundLine = await o.bankLine("bank_refund", 1_200, "2026-11-12", { type: "expense" });
    const refund = await o.payment("re_1", 1_200, "2026-11-12", { type: "refund", payload: { direction: "out" } });

    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual(done(2));
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

    expect(await reconcileImports(db, { now: new Date("2026-11-12T12:00:00Z"), ownerId: o.ownerId })).toEqual(done(0));
    for (const id of lines) expect((await event(id)).reconciled).toBe(false);
  });

  it("leaves alone the lines of an import uploaded with reconcile=false: no match, no signal", async () => {
    const o = await owner();
    const line = await o.bankLine("bank_off", 5_500, "2026-11-01", { payload: { reconcile: false } });
    await o.payment("ch_off", 5_500, "2026-11-01");
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual(done(0));
    expect((await event(line)).reconciled).toBe(false);
  });

  it("takes the closest date first, then the oldest created event", async () => {
    const o = await owner();
    const line = await o.bankLine("bank_1", 900, "2026-11-10");
    await o.payment("ch_two_days", 900, "2026-11-12", { createdAt: new Date("2026-11-12T08:00:00Z") });
    const dayBefore = await o.payment("ch_day_before", 900, "2026-11-09", { createdAt: new Date("2026-11-10T10:00:00Z") });
    await o.payment("ch_day_after", 900, "2026-11-11", { createdAt: new Date("2026-11-11T09:00:00Z") });
    // ch_day_before and ch_day_after are both one day away: the one created first wins.
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual(done(1));
    expect((await event(line)).payload).toMatchObject({ reconciles_event_id: dayBefore });
  });

  it("never matches one integration event twice, nor one already claimed by an import", async () => {
    const o = await owner();
    const first = await o.bankLine("bank_1", 4_200, "2026-11-10");
    const second = await o.bankLine("bank_2", 4_200, "2026-11-11");
    const charge = await o.payment("ch_1", 4_200, "2026-11-11");

    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual(done(1));
    const states = [await event(first), await event(second)];
    expect(states.filter((e) => e.reconciled)).toHaveLength(1);
    expect(states.find((e) => e.reconciled)!.payload).toMatchObject({ reconciles_event_id: charge });

    // An import stored already reconciled (payload.reconciles_event_id at import time) claims its event too.
    const claimed = await o.payment("ch_claimed", 6_100, "2026-11-12");
    await o.bankLine("bank_claiming", 6_100, "2026-11-12", { payload: { reconciles_event_id: claimed } });
    const third = await o.bankLine("bank_3", 6_100, "2026-11-12");
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual(done(0));
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
  /** An event of the payments integration that matches no line: it shows the integration reports EUR money out up to `day`. */
  const reportsUpTo = (o: TReconciliationOwner, day: string, extra: { type?: string; currency?: string } = {}) =>
    o.payment(`ch_evidence_${day}_${extra.type ?? "expense"}_${extra.currency ?? "EUR"}`, 1, day, extra);
  const unreconciledAlerts = (o: TReconciliationOwner) =>
    db.alert.findMany({ where: { ownerId: o.ownerId, code: "integration.unreconciled" }, orderBy: { occurredAt: "asc" } });

  it("raises one warning alert per import and day naming the count, once, leaving cash coverage alone", async () => {
    const o = await owner();
    await reportsUpTo(o, "2026-11-12"); // connected since January, synced on 2026-11-12
    const stale = [
      await o.bankLine("bank_a", 8_800, "2026-11-09"),
      await o.bankLine("bank_b", 1_200, "2026-11-09"),
      await o.bankLine("bank_c", 100, "2026-11-09"),
    ];
    await o.bankLine("bank_d", 4_000, "2026-11-10");
    await o.bankLine("bank_in", 2_500, "2026-11-09", { type: "revenue" }); // payments here report no money in
    await o.bankLine("bank_recent", 9_900, "2026-11-11"); // 3 days: not yet

    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual(done(0, 2, 4));
    const alerts = await unreconciledAlerts(o);
    expect(alerts).toHaveLength(2);
    const ninth = alerts.find((a) => a.message.includes("2026-11-09"))!;
    expect(ninth).toMatchObject({
      code: "integration.unreconciled",
      severity: "warning",
      integrationId: o.importIntegrationId,
      businessId: o.businessId,
      amountMinor: 10_100n,
      currency: "EUR",
      refType: "audit_entry",
    });
    expect(ninth.message).toMatch(/^3 bank lines of 2026-11-09 \(import imp_test\) have no matching event after 3 days/);
    const signal = await db.integrationSignal.findFirstOrThrow({
      where: { ownerId: o.ownerId, externalId: "unreconciled:imp_test:2026-11-09" },
    });
    expect(signal).toMatchObject({ code: "unreconciled", severity: "warning", amountMinor: 10_100n });
    expect(signal.ref).toEqual({ type: "import", import_id: "imp_test", occurred_on: "2026-11-09", lines: "3" });
    expect(await db.auditEntry.count({ where: { ownerId: o.ownerId, action: "signal.unreconciled" } })).toBe(2);
    for (const id of stale) expect((await event(id)).reconciled).toBe(false);
    // A signal is not a bank import: cash coverage reads confirmed imports only.
    expect((await cashCoverage(db, o.ownerId, NOW)).last_import_at).toBeNull();

    // The next day: the groups already raised are not raised again; the 11th now is.
    const tomorrow = new Date("2026-11-15T12:00:00Z");
    expect(await reconcileImports(db, { now: tomorrow, ownerId: o.ownerId })).toEqual(done(0, 1));
    expect(await reconcileImports(db, { now: tomorrow, ownerId: o.ownerId })).toEqual(done(0));
    expect(await unreconciledAlerts(o)).toHaveLength(3);
  });

  it("raises nothing unless an active integration of that business reports that currency on that date", async () => {
    const o = await owner();
    await o.bankLine("bank_1", 7_700, "2026-11-05");
    const payments = { id: o.paymentsIntegrationId };
    const run = () => reconcileImports(db, { now: NOW, ownerId: o.ownerId });

    // The payments integration has reported nothing yet.
    expect(await run()).toEqual(done(0));
    // It reports USD only.
    await reportsUpTo(o, "2026-11-12", { currency: "USD" });
    expect(await run()).toEqual(done(0));
    // It reports EUR, but for another business.
    await reportsUpTo(o, "2026-11-12");
    const other = await db.business.create({ data: { ownerId: o.ownerId, name: "other", currency: "EUR" } });
    await db.integration.update({ where: payments, data: { businessId: other.id } });
    expect(await run()).toEqual(done(0));
    await db.integration.update({ where: payments, data: { businessId: o.businessId } });
    // It is disconnected.
    await db.integration.update({ where: payments, data: { status: "disconnected" } });
    expect(await run()).toEqual(done(0));
    await db.integration.update({ where: payments, data: { status: "active" } });
    // It was connected after the line's date.
    await db.integration.update({ where: payments, data: { createdAt: new Date("2026-11-06T09:00:00Z") } });
    expect(await run()).toEqual(done(0));
    await db.integration.update({ where: payments, data: { createdAt: new Date("2026-11-05T23:00:00Z") } });
    // It last reported before the line's date.
    await db.integration.update({ where: payments, data: { lastSyncAt: new Date("2026-11-04T23:59:00Z") } });
    expect(await run()).toEqual(done(0));
    expect(await unreconciledAlerts(o)).toHaveLength(0);

    // Covered from the day it was connected to the day of its last sync: now the line is raised.
    await db.integration.update({ where: payments, data: { lastSyncAt: new Date("2026-11-05T00:01:00Z") } });
    expect(await run()).toEqual(done(0, 1));
    expect(await unreconciledAlerts(o)).toHaveLength(1);
  });

  it("raises nothing for a line reconciled late, and still matches a line whose signal was raised", async () => {
    const o = await owner();
    await reportsUpTo(o, "2026-11-12");
    const line = await o.bankLine("bank_1", 1_500, "2026-11-05");
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual(done(0, 1));
    await o.payment("ch_late", 1_500, "2026-11-07", { createdAt: new Date("2026-11-14T13:00:00Z") });
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual(done(1));
    expect((await event(line)).reconciled).toBe(true);
  });

  it("does not count again a line named by a per-line signal of the previous scheme", async () => {
    const o = await owner();
    await reportsUpTo(o, "2026-11-12");
    const old = await o.bankLine("bank_old", 3_000, "2026-11-05");
    await o.bankLine("bank_new", 4_000, "2026-11-05");
    await ingestSignals(db, o.ownerId, [
      {
        integration_id: o.importIntegrationId,
        external_id: `unreconciled:${old}`,
        code: "unreconciled",
        occurred_at: "2026-11-09T02:30:00Z",
      },
    ]);
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId })).toEqual(done(0, 1, 1));
    const [alert] = await unreconciledAlerts(o).then((alerts) => alerts.filter((a) => a.message.startsWith("1 bank line")));
    expect(alert).toMatchObject({ amountMinor: 4_000n });
  });
});

describe("bounded runs", () => {
  it("walks the backlog in batches and, cut by its budget, continues at the next run without redoing or signalling twice", async () => {
    const o = await owner();
    await o.payment("ch_evidence", 1, "2026-11-12");
    for (const day of ["2026-11-01", "2026-11-02", "2026-11-03"]) {
      for (let n = 0; n < 3; n++) await o.bankLine(`bank_${day}_${n}`, 1_000 + n, day);
      await o.payment(`ch_${day}`, 1_000, day); // matches the first line of each day
    }
    const sizes = { batchLines: 2, batchDays: 1 };
    // A budget that allows one batch per run: every run stops, and the next one continues.
    const runs = [];
    for (let n = 0; n < 20; n++) {
      const result = await reconcileImports(db, { now: NOW, ownerId: o.ownerId, ...sizes, budgetBatches: 1 });
      runs.push(result);
      if (result.complete) break;
    }
    // 5 match batches (9 lines, 2 at a time), 3 signal batches (one day each) and an empty one.
    expect(runs.length).toBe(9);
    expect(runs.reduce((sum, r) => sum + r.matched, 0)).toBe(3);
    expect(runs.reduce((sum, r) => sum + r.signaled, 0)).toBe(3);
    expect(runs.reduce((sum, r) => sum + r.unreconciled, 0)).toBe(6);
    expect(await db.auditEntry.count({ where: { ownerId: o.ownerId, action: "import.reconciled" } })).toBe(3);
    const alerts = await db.alert.findMany({ where: { ownerId: o.ownerId, code: "integration.unreconciled" } });
    expect(alerts.map((a) => a.message.slice(0, 26)).sort()).toEqual([
      "2 bank lines of 2026-11-01",
      "2 bank lines of 2026-11-02",
      "2 bank lines of 2026-11-03",
    ]);
    // A new walk finds nothing more to do.
    expect(await reconcileImports(db, { now: NOW, ownerId: o.ownerId, ...sizes })).toEqual(done(0));
  });
});
