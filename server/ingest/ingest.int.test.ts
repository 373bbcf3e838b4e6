// The internal ingest paths (contract: Inbound events and signals, States and transitions):
// every transition of the events path, the signal path and the snapshot path, on PGlite and
// on PostgreSQL. Each test uses its own integration so keys never collide between tests.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { ingestItem } from "../../test/helpers/ingest-items";
import { seedBusiness, seedIntegration, seedOwner, staticOwner } from "../../test/helpers/seed";
import { countsInTotals } from "../ledger/counted-total";
import { convertAmount } from "../fx/fx-service";
import { createEcbProvider } from "../fx/providers/ecb";
import { isAppError } from "../errors/app-error";
import { STORED_BY_KEYS } from "./ingest-events";
import { ingestCashSnapshots, ingestDelivery, ingestEvents, ingestSignals } from "./ingest-service";
import type { TIntegrationSignal, TSignalCode } from "./ingest.schema";

let api: TTestApi;
let ownerId: string;
let businessId: string;

const DAY = "2026-11-02";

beforeAll(async () => {
  api = await createTestApi();
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
});
afterAll(async () => api?.close());

function newIntegration(provider = "payments_a", owner = ownerId, business: string | null = businessId) {
  return seedIntegration(api.db, { ownerId: owner, provider, businessId: business });
}

/** An event item of the integration on DAY (2026-11-02): see ingestItem. */
const event = ingestItem;

const rowsOf = (integrationId: string) =>
  api.db.financialEvent.findMany({ where: { integrationId }, orderBy: [{ createdAt: "asc" }, { externalId: "asc" }] });
const byKey = async (integrationId: string, externalId: string) =>
  api.db.financialEvent.findUniqueOrThrow({ where: { integrationId_externalId: { integrationId, externalId } } });

/** The test database with every statement it runs counted. */
function countingStatements() {
  let statements = 0;
  const db = api.db.$extends({
    query: {
      async $allOperations({ args, query }) {
        statements++;
        return query(args);
      },
    },
  });
  return { db: db as unknown as typeof api.db, statements: () => statements };
}

describe("events: new, repeat, restatement", () => {
  it("stores a new pair confirmed, with a frozen base amount, an integration audit entry and last_sync_at", async () => {
    const integrationId = await newIntegration();
    const before = new Date();
    const result = await ingestEvents(api.db, ownerId, [event(integrationId, "ch_1", 10_000)], { requestId: "req_test" });
    expect(result).toEqual({ inserted: 1, deduped: 0, rejected: [] });

    const row = await byKey(integrationId, "ch_1");
    const expected = await convertAmount(api.db, { amountMinor: 10_000n, from: "EUR", to: "USD", on: DAY, kind: "snapshot" });
    expect(row).toMatchObject({
      status: "confirmed",
      state: "actual",
      type: "revenue",
      businessId,
      sourceType: "PAYMENTS_API",
      baseCurrency: "USD",
      baseAmountMinor: expected.amountMinor,
      fxSource: "mock",
      refundsEventId: null,
      supersedesEventId: null,
      reconciled: false,
    });
    expect(row.confidence.toNumber()).toBe(1);
    expect(row.provenance).toEqual({ source: { type: "PAYMENTS_API", integration_id: integrationId, external_id: "ch_1" } });

    const audit = await api.db.auditEntry.findFirstOrThrow({ where: { targetId: row.id } });
    expect(audit).toMatchObject({
      actorType: "integration",
      actorId: integrationId,
      action: "event.ingested",
      requestId: "req_test",
      targetType: "event",
    });
    expect(audit.details).toEqual({
      integration_id: integrationId,
      external_id: "ch_1",
      type: "revenue",
      state: "actual",
      amount_minor: 10_000,
      currency: "EUR",
    });
    const integration = await api.db.integration.findUniqueOrThrow({ where: { id: integrationId } });
    expect(integration.lastSyncAt!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 5);
  });

  it("with auditInserts none, leaves the batch's audit entry to the caller", async () => {
    const integrationId = await newIntegration("manual_import");
    const audits = await api.db.auditEntry.count();
    const result = await ingestEvents(api.db, ownerId, [event(integrationId, "quiet", 100, { source_type: "IMPORT" })], {
      auditInserts: "none",
    });
    expect(result.inserted).toBe(1);
    expect(await api.db.auditEntry.count()).toBe(audits);
  });

  it("dedupes a repeat with the same amount and currency, writing nothing", async () => {
    const integrationId = await newIntegration();
    await ingestEvents(api.db, ownerId, [event(integrationId, "ch_1", 500)]);
    const [events, audits] = [await api.db.financialEvent.count(), await api.db.auditEntry.count()];
    const result = await ingestEvents(api.db, ownerId, [event(integrationId, "ch_1", 500)]);
    expect(result).toEqual({ inserted: 0, deduped: 1, rejected: [] });
    expect(await api.db.financialEvent.count()).toBe(events);
    expect(await api.db.auditEntry.count()).toBe(audits);
  });

  it("restates a pair sent with another amount: the old version voided, <id>:v<n> linked, counted inserted", async () => {
    const integrationId = await newIntegration("social_ads");
    const spend = (amount: number) =>
      event(integrationId, "spend:c1:2026-11-02", amount, { type: "ad_spend", source_type: "SOCIAL_ADS_API" });
    await ingestEvents(api.db, ownerId, [spend(1_000)]);
    expect(await ingestEvents(api.db, ownerId, [spend(1_250)])).toEqual({ inserted: 1, deduped: 0, rejected: [] });
    expect(await ingestEvents(api.db, ownerId, [spend(1_300)])).toEqual({ inserted: 1, deduped: 0, rejected: [] });
    expect(await ingestEvents(api.db, ownerId, [spend(1_300)])).toEqual({ inserted: 0, deduped: 1, rejected: [] });

    const [v1, v2, v3] = await rowsOf(integrationId);
    expect(v1).toMatchObject({ externalId: "spend:c1:2026-11-02", status: "voided", amountMinor: 1_000n });
    expect(v2).toMatchObject({ externalId: "spend:c1:2026-11-02:v2", status: "voided", supersedesEventId: v1!.id });
    expect(v3).toMatchObject({ externalId: "spend:c1:2026-11-02:v3", status: "confirmed", supersedesEventId: v2!.id });
    expect(v3!.payload).toMatchObject({ supersedes_external_id: "spend:c1:2026-11-02" });
    const voidAudit = await api.db.auditEntry.findFirstOrThrow({ where: { targetId: v1!.id, action: "event.voided" } });
    expect(voidAudit.details).toEqual({ superseded_by: v2!.id });
    const v3Audit = await api.db.auditEntry.findFirstOrThrow({ where: { targetId: v3!.id, action: "event.ingested" } });
    expect(v3Audit.details).toMatchObject({
      external_id: "spend:c1:2026-11-02:v3",
      amount_minor: 1_300,
      supersedes_event_id: v2!.id,
    });
    // Only the newest version counts.
    expect((await rowsOf(integrationId)).filter((r) => countsInTotals(r)).map((r) => r.amountMinor)).toEqual([1_300n]);
  });

  it("treats a key repeated inside one batch as a later delivery", async () => {
    const integrationId = await newIntegration();
    const result = await ingestEvents(api.db, ownerId, [
      event(integrationId, "a", 100),
      event(integrationId, "a", 100),
      event(integrationId, "b", 100),
      event(integrationId, "b", 150),
    ]);
    expect(result).toEqual({ inserted: 3, deduped: 1, rejected: [] });
    const rows = await rowsOf(integrationId);
    expect(rows.map((r) => [r.externalId, r.status])).toEqual(
      expect.arrayContaining([
        ["a", "confirmed"],
        ["b", "voided"],
        ["b:v2", "confirmed"],
      ]),
    );
  });

  it("an explicit :v<n> with supersedes_external_id as an array voids the N events it replaces", async () => {
    const integrationId = await newIntegration();
    await ingestEvents(api.db, ownerId, [
      event(integrationId, "x1", 100),
      event(integrationId, "x2", 200),
      event(integrationId, "x3", 300),
    ]);
    const [x1, x2] = [await byKey(integrationId, "x1"), await byKey(integrationId, "x2")];
    const result = await ingestEvents(api.db, ownerId, [
      event(integrationId, "merged:v2", 300, { payload: { supersedes_external_id: ["x1", "x2"] } }),
    ]);
    expect(result).toEqual({ inserted: 1, deduped: 0, rejected: [] });
    const merged = await byKey(integrationId, "merged:v2");
    expect(merged.supersedesEventIds.sort()).toEqual([x1.id, x2.id].sort());
    const mergedAudit = await api.db.auditEntry.findFirstOrThrow({ where: { targetId: merged.id, action: "event.ingested" } });
    expect((mergedAudit.details as { supersedes_event_ids: string[] }).supersedes_event_ids.sort()).toEqual(
      [x1.id, x2.id].sort(),
    );
    expect((await byKey(integrationId, "x1")).status).toBe("voided");
    expect((await byKey(integrationId, "x2")).status).toBe("voided");
    expect((await byKey(integrationId, "x3")).status).toBe("confirmed");
    // A late redelivery of a replaced event is a repeat, not a new event.
    expect(await ingestEvents(api.db, ownerId, [event(integrationId, "x1", 100)])).toEqual({
      inserted: 0,
      deduped: 1,
      rejected: [],
    });
  });

  it("refuses an array correction without an explicit version, and one naming an unknown event", async () => {
    const integrationId = await newIntegration();
    await ingestEvents(api.db, ownerId, [event(integrationId, "y1", 100)]);
    const result = await ingestEvents(api.db, ownerId, [
      event(integrationId, "fix", 100, { payload: { supersedes_external_id: ["y1"] } }),
      event(integrationId, "fix:v2", 100, { payload: { supersedes_external_id: ["y1", "nope"] } }),
    ]);
    expect(result.inserted).toBe(0);
    expect(result.rejected.map((r) => [r.index, r.code])).toEqual([
      [0, "validation_error"],
      [1, "validation_error"],
    ]);
    expect(result.rejected[1]!.message).toContain("nope");
    expect((await byKey(integrationId, "y1")).status).toBe("confirmed");
  });

  it("a string supersedes_external_id on <key>:v<n> continues that key's chain", async () => {
    const integrationId = await newIntegration();
    await ingestEvents(api.db, ownerId, [event(integrationId, "inv", 100)]);
    const original = await byKey(integrationId, "inv");
    await ingestEvents(api.db, ownerId, [event(integrationId, "inv:v2", 90, { payload: { supersedes_external_id: "inv" } })]);
    const fixed = await byKey(integrationId, "inv:v2");
    expect(fixed.supersedesEventId).toBe(original.id);
    expect((await byKey(integrationId, "inv")).status).toBe("voided");
    // A later restatement of "inv" numbers after the explicit version.
    await ingestEvents(api.db, ownerId, [event(integrationId, "inv", 80)]);
    expect((await byKey(integrationId, "inv:v3")).supersedesEventId).toBe(fixed.id);
  });
});

describe("events: planned, reconciled, refunds", () => {
  it("fulfills a planned event and records the variance; a second fulfilment and another currency are refused", async () => {
    const integrationId = await newIntegration();
    const planned = await api.call("POST", "/v1/planned-expenses", {
      body: { business_id: businessId, amount_minor: 5_000, currency: "EUR", occurred_on: "2026-12-01" },
    });
    expect(planned.status).toBe(201);
    const plannedId = planned.body.data.id;
    const result = await ingestEvents(api.db, ownerId, [
      event(integrationId, "bill_1", 5_400, { type: "expense", payload: { fulfills_event_id: plannedId } }),
      event(integrationId, "bill_2", 5_000, { type: "expense", payload: { fulfills_event_id: plannedId } }),
      event(integrationId, "bill_3", 5_000, { type: "expense", currency: "USD", payload: { fulfills_event_id: randomUUID() } }),
    ]);
    expect(result.inserted).toBe(1);
    expect(result.rejected.map((r) => [r.external_id, r.code])).toEqual([
      ["bill_2", "validation_error"],
      ["bill_3", "validation_error"],
    ]);
    const fulfilled = await api.db.financialEvent.findUniqueOrThrow({ where: { id: plannedId } });
    const actual = await byKey(integrationId, "bill_1");
    expect(fulfilled).toMatchObject({ fulfilledByEventId: actual.id, varianceMinor: 400n, status: "confirmed" });

    const other = await api.call("POST", "/v1/planned-expenses", {
      body: { business_id: businessId, amount_minor: 5_000, currency: "EUR", occurred_on: "2026-12-01" },
    });
    const mismatch = await ingestEvents(api.db, ownerId, [
      event(integrationId, "bill_4", 5_000, {
        type: "expense",
        currency: "USD",
        payload: { fulfills_event_id: other.body.data.id },
      }),
    ]);
    expect(mismatch.rejected.map((r) => r.code)).toEqual(["currency_mismatch"]);
  });

  it("stores an import event that reconciles an integration's actual event as reconciled, out of totals, listed", async () => {
    const payments = await newIntegration();
    const imports = await newIntegration("manual_import");
    await ingestEvents(api.db, ownerId, [event(payments, "ch_r", 7_700)]);
    const charge = await byKey(payments, "ch_r");
    const result = await ingestEvents(api.db, ownerId, [
      event(imports, "imp_1", 7_700, { source_type: "IMPORT", payload: { reconciles_event_id: charge.id, batch_id: "b1" } }),
      event(imports, "imp_2", 7_600, { source_type: "IMPORT", payload: { reconciles_event_id: charge.id } }),
      event(imports, "imp_3", 7_700, { source_type: "IMPORT", currency: "USD", payload: { reconciles_event_id: charge.id } }),
    ]);
    expect(result.inserted).toBe(1);
    expect(result.rejected.map((r) => [r.external_id, r.code])).toEqual([
      ["imp_2", "validation_error"],
      ["imp_3", "currency_mismatch"],
    ]);
    const line = await byKey(imports, "imp_1");
    expect(line).toMatchObject({ status: "confirmed", reconciled: true, sourceType: "IMPORT" });
    expect(line.payload).toMatchObject({ reconciled: true, reconciles_event_id: charge.id, batch_id: "b1" });
    expect(countsInTotals(line)).toBe(false);
    const listed = await api.call("GET", `/v1/events/${line.id}`);
    expect(listed.body.data).toMatchObject({ reconciled: true, status: "confirmed" });
  });

  it("links a refund to its event in the same integration, inferring the direction", async () => {
    const integrationId = await newIntegration();
    // The refund comes first in the batch; it still finds the charge sent with it.
    const result = await ingestEvents(api.db, ownerId, [
      event(integrationId, "re_1", 2_000, { type: "refund", payload: { refunds_external_id: "ch_9" } }),
      event(integrationId, "ch_9", 9_000),
      event(integrationId, "cost_1", 3_000, { type: "expense" }),
      event(integrationId, "re_2", 1_000, { type: "refund", payload: { refunds_external_id: "cost_1" } }),
    ]);
    expect(result).toEqual({ inserted: 4, deduped: 0, rejected: [] });
    const [charge, cost] = [await byKey(integrationId, "ch_9"), await byKey(integrationId, "cost_1")];
    expect(await byKey(integrationId, "re_1")).toMatchObject({ refundsEventId: charge.id, direction: "out" });
    expect(await byKey(integrationId, "re_2")).toMatchObject({ refundsEventId: cost.id, direction: "in" });
    expect((await byKey(integrationId, "re_1")).confidence.toNumber()).toBe(1);
  });

  it("saves an unresolvable refund unlinked with confidence at most 0.9; another currency is currency_mismatch", async () => {
    const integrationId = await newIntegration();
    const otherIntegration = await newIntegration();
    await ingestEvents(api.db, ownerId, [event(otherIntegration, "ch_elsewhere", 100), event(integrationId, "ch_eur", 100)]);
    const result = await ingestEvents(api.db, ownerId, [
      event(integrationId, "re_a", 100, { type: "refund", payload: { refunds_external_id: "ch_elsewhere", direction: "out" } }),
      event(integrationId, "re_b", 100, { type: "refund", confidence: 0.5, payload: { direction: "in" } }),
      event(integrationId, "re_c", 100, { type: "refund", payload: { refunds_external_id: "unknown" } }),
      event(integrationId, "re_d", 100, { type: "refund", currency: "USD", payload: { refunds_external_id: "ch_eur" } }),
    ]);
    expect(result.inserted).toBe(2);
    expect(result.rejected.map((r) => [r.external_id, r.code])).toEqual([
      ["re_c", "validation_error"],
      ["re_d", "currency_mismatch"],
    ]);
    const unlinked = await byKey(integrationId, "re_a");
    expect(unlinked).toMatchObject({ refundsEventId: null, direction: "out" });
    expect(unlinked.confidence.toNumber()).toBe(0.9);
    expect((await byKey(integrationId, "re_b")).confidence.toNumber()).toBe(0.5);
  });
});

describe("events: rejections and errors", () => {
  it("rejects bad items one by one and keeps the good ones (partial success)", async () => {
    const integrationId = await newIntegration();
    const stranger = await seedOwner(api);
    const strangerBusiness = await seedBusiness(api, { name: "Theirs" }, stranger.token);
    const strangerIntegration = await newIntegration("payments_a", stranger.ownerId, strangerBusiness.id);
    const result = await ingestEvents(api.db, ownerId, [
      event(integrationId, "ok", 100),
      event(integrationId, "float", 1.5),
      event(integrationId, "xyz", 100, { currency: "XYZ" }),
      event(strangerIntegration, "theirs", 100),
      event(integrationId, "their-business", 100, { business_id: strangerBusiness.id }),
      event(integrationId, "future", 100, { occurred_on: "2099-01-01" }),
      "not an object",
      event(integrationId, "planned-future", 100, { state: "planned", occurred_on: "2099-01-01" }),
    ]);
    expect(result.inserted).toBe(2);
    expect(result.rejected).toEqual([
      { index: 1, external_id: "float", code: "validation_error", message: expect.stringContaining("amount_minor") },
      { index: 2, external_id: "xyz", code: "currency_unsupported", message: expect.any(String) },
      { index: 3, external_id: "theirs", code: "validation_error", message: "integration_id: no such integration" },
      { index: 4, external_id: "their-business", code: "validation_error", message: "business_id: no such business" },
      { index: 5, external_id: "future", code: "validation_error", message: expect.stringContaining("future") },
      { index: 6, external_id: null, code: "validation_error", message: expect.any(String) },
    ]);
    expect(await api.db.financialEvent.count({ where: { integrationId: strangerIntegration } })).toBe(0);
    const planned = await byKey(integrationId, "planned-future");
    expect(planned).toMatchObject({ state: "planned", baseAmountMinor: null });
  });

  it("raises fx_unavailable for the whole batch when no rate exists at all, writing nothing", async () => {
    const integrationId = await newIntegration();
    const ecb = createEcbProvider({ url: "http://127.0.0.1:9/unused" });
    const before = await api.db.financialEvent.count();
    const error = await ingestEvents(
      api.db,
      ownerId,
      [event(integrationId, "fx1", 100), event(integrationId, "fx2", 200, { currency: "GBP" })],
      {
        fx: { provider: ecb },
      },
    ).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe("fx_unavailable");
    expect(await api.db.financialEvent.count()).toBe(before);

    // With a rate for one currency only, the other event alone is rejected.
    await api.db.fxRate.create({
      data: { source: "ecb", day: new Date(`${DAY}T00:00:00Z`), base: "EUR", quote: "USD", rate: "1.08000000" },
    });
    const partial = await ingestEvents(
      api.db,
      ownerId,
      [event(integrationId, "fx1", 100), event(integrationId, "fx2", 200, { currency: "GBP" })],
      {
        fx: { provider: ecb },
      },
    );
    expect(partial.inserted).toBe(1);
    expect(partial.rejected.map((r) => [r.external_id, r.code])).toEqual([["fx2", "fx_unavailable"]]);
    expect((await byKey(integrationId, "fx1")).fxRate!.toFixed(8)).toBe("1.08000000");
    await api.db.fxRate.deleteMany({ where: { source: "ecb" } });
  });

  it("looks up a batch's keys through the unique index, even before the table is analysed", async () => {
    // Written as `integration_id = $1 AND external_id = ANY($2)`, an unanalysed table was read
    // through every row of the integration (12 ms at 32,500 rows, growing with them).
    const integrationId = await newIntegration();
    const events = Array.from({ length: 1_500 }, (_, i) => event(integrationId, `plan-${i}`, 100 + i));
    for (let i = 0; i < events.length; i += 500) await ingestEvents(api.db, ownerId, events.slice(i, i + 500));
    const keys = Array.from({ length: 500 }, (_, i) => `absent-${i}`);
    const plan = await api.db.$queryRawUnsafe<Array<{ "QUERY PLAN": string }>>(
      `EXPLAIN ${STORED_BY_KEYS}`,
      keys.map(() => integrationId),
      keys,
    );
    const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
    expect(text).toContain("financial_events_integration_id_external_id_key");
    expect(text).not.toMatch(/Seq Scan on financial_events|Bitmap Heap Scan on financial_events/);
  });

  it("writes a batch in a fixed number of statements, whatever its size", async () => {
    const count = async (n: number) => {
      const integrationId = await newIntegration();
      const counting = countingStatements();
      const events = Array.from({ length: n }, (_, i) => event(integrationId, `bulk-${i}`, 100 + i));
      const result = await ingestEvents(counting.db, ownerId, events);
      expect(result.inserted).toBe(n);
      return counting.statements();
    };
    const small = await count(3);
    const large = await count(300);
    expect(large).toBe(small);
    expect(small).toBeLessThanOrEqual(10);
  });

  it("fulfils any number of planned events in a fixed number of statements", async () => {
    const count = async (n: number) => {
      const integrationId = await newIntegration();
      const planned: string[] = [];
      for (let i = 0; i < n; i++) {
        const created = await api.call("POST", "/v1/planned-expenses", {
          body: { business_id: businessId, amount_minor: 1_000, currency: "EUR", occurred_on: "2026-12-01" },
        });
        planned.push(created.body.data.id);
      }
      const counting = countingStatements();
      const events = planned.map((id, i) =>
        event(integrationId, `pay-${i}`, 1_000 + i, { type: "expense", payload: { fulfills_event_id: id } }),
      );
      const result = await ingestEvents(counting.db, ownerId, events);
      expect(result.inserted).toBe(n);
      const rows = await api.db.financialEvent.findMany({ where: { id: { in: planned } }, orderBy: { varianceMinor: "asc" } });
      expect(rows.map((r) => r.varianceMinor)).toEqual(planned.map((_, i) => BigInt(i)));
      expect(rows.every((r) => r.fulfilledByEventId !== null)).toBe(true);
      return counting.statements();
    };
    expect(await count(12)).toBe(await count(2));
  });

  it("concurrent deliveries of the same new events insert them once", async () => {
    const integrationId = await newIntegration();
    const batch = Array.from({ length: 20 }, (_, i) => event(integrationId, `dup-${i}`, 100));
    const results = await Promise.all([1, 2, 3].map(() => ingestEvents(api.db, ownerId, batch)));
    expect(results.reduce((n, r) => n + r.inserted, 0)).toBe(20);
    expect(results.reduce((n, r) => n + r.deduped, 0)).toBe(40);
    expect(await api.db.financialEvent.count({ where: { integrationId } })).toBe(20);
  });
});

describe("signals", () => {
  it("turns each new signal into an audit entry and an alert; repeats are deduped; no event is created", async () => {
    const integrationId = await newIntegration();
    const events = await api.db.financialEvent.count();
    const signal = (externalId: string, code: TSignalCode, extra: Partial<TIntegrationSignal> = {}): TIntegrationSignal => ({
      integration_id: integrationId,
      external_id: externalId,
      code,
      occurred_at: "2026-11-02T10:00:00Z",
      ...extra,
    });
    const first = await ingestSignals(api.db, ownerId, [
      signal("po_1", "payout_failed", { amount_minor: 12_345, currency: "EUR" }),
      signal("po_2", "payout_paid"),
      signal("cp_1", "campaign_paused", { severity: "critical", message: "Paused by the platform", ref: { campaign_id: "c1" } }),
      signal("po_1", "payout_failed"),
    ]);
    expect(first).toEqual({ accepted: 3, deduped: 1 });
    expect(await ingestSignals(api.db, ownerId, [signal("po_2", "payout_paid")])).toEqual({ accepted: 0, deduped: 1 });
    expect((await api.db.integration.findUniqueOrThrow({ where: { id: integrationId } })).lastSyncAt).not.toBeNull();
    expect(await api.db.financialEvent.count()).toBe(events);

    const alerts = await api.db.alert.findMany({ where: { integrationId }, orderBy: { code: "asc" } });
    expect(alerts.map((a) => [a.code, a.severity])).toEqual([
      ["integration.campaign_paused", "critical"],
      ["integration.payout_failed", "critical"],
      ["integration.payout_paid", "info"],
    ]);
    const failed = alerts.find((a) => a.code === "integration.payout_failed")!;
    expect(failed).toMatchObject({ refType: "audit_entry", businessId, amountMinor: 12_345n, currency: "EUR" });
    const audit = await api.db.auditEntry.findUniqueOrThrow({ where: { id: failed.refId } });
    expect(audit).toMatchObject({ action: "signal.payout_failed", actorType: "integration", actorId: integrationId });
    expect(alerts.find((a) => a.code === "integration.campaign_paused")!.message).toBe("Paused by the platform");
  });

  it("refuses a signal for another owner's integration, writing nothing", async () => {
    const stranger = await seedOwner(api);
    const theirs = await newIntegration("payments_a", stranger.ownerId, null);
    const alerts = await api.db.alert.count();
    const error = await ingestSignals(api.db, ownerId, [
      { integration_id: theirs, external_id: "x", code: "payment_failed", occurred_at: "2026-11-02T10:00:00Z" },
    ]).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe("validation_error");
    expect(await api.db.alert.count()).toBe(alerts);
  });

  it("a delivery writes events and signals in one transaction", async () => {
    const integrationId = await newIntegration();
    const result = await ingestDelivery(api.db, ownerId, {
      events: [event(integrationId, "d1", 100)],
      signals: [
        { integration_id: integrationId, external_id: "s1", code: "dispute_opened", occurred_at: "2026-11-02T10:00:00Z" },
      ],
    });
    expect(result).toEqual({ inserted: 1, deduped: 0, rejected: [], signals_accepted: 1, signals_deduped: 0 });
    const stranger = await seedOwner(api);
    const theirs = await newIntegration("payments_a", stranger.ownerId, null);
    // A signal naming another owner's integration is rejected alone (index after the events).
    const alerts = await api.db.alert.count();
    const mixed = await ingestDelivery(api.db, ownerId, {
      events: [event(integrationId, "d2", 100)],
      signals: [{ integration_id: theirs, external_id: "s2", code: "dispute_opened", occurred_at: "2026-11-02T10:00:00Z" }],
    });
    expect(mixed).toMatchObject({ inserted: 1, signals_accepted: 0 });
    expect(mixed.rejected).toEqual([
      { index: 1, external_id: "s2", code: "validation_error", message: "integration_id: no such integration" },
    ]);
    expect(await api.db.alert.count()).toBe(alerts);
  });
});

describe("cash snapshots", () => {
  it("writes real snapshots keyed <provider>:<account_id>:<day>; a same-day repeat overwrites only with a later as_of", async () => {
    const integrationId = await newIntegration("bank_provider_a");
    const snapshot = (amount: number, asOf: string, extra: Record<string, unknown> = {}) => ({
      business_id: businessId,
      amount_minor: amount,
      currency: "EUR",
      as_of: asOf,
      provenance: { source: { type: "IMPORT", integration_id: integrationId } },
      payload: { account_id: "main", iban_last4: "1234" },
      ...extra,
    });
    expect(await ingestCashSnapshots(api.db, ownerId, [snapshot(100_000, "2026-11-02T08:00:00Z")])).toEqual({
      inserted: 1,
      deduped: 0,
      rejected: [],
    });
    const row = await api.db.cashSnapshot.findFirstOrThrow({ where: { integrationId } });
    expect(row).toMatchObject({ externalId: "bank_provider_a:main:2026-11-02", dataClass: "real", amountMinor: 100_000n });
    const audit = await api.db.auditEntry.findFirstOrThrow({ where: { targetId: row.id } });
    expect(audit).toMatchObject({ action: "cash_snapshot.created", actorType: "integration", actorId: integrationId });
    expect((await api.db.integration.findUniqueOrThrow({ where: { id: integrationId } })).lastSyncAt).not.toBeNull();

    const again = await ingestCashSnapshots(api.db, ownerId, [
      snapshot(90_000, "2026-11-02T07:00:00Z"),
      snapshot(110_000, "2026-11-02T09:00:00Z"),
      snapshot(1, "not a time"),
    ]);
    expect(again.inserted).toBe(1);
    expect(again.deduped).toBe(1);
    expect(again.rejected.map((r) => [r.index, r.code])).toEqual([[2, "validation_error"]]);
    expect((await api.db.cashSnapshot.findFirstOrThrow({ where: { integrationId } })).amountMinor).toBe(110_000n);
  });
  it("keeps two businesses' snapshots of one account label apart on the snapshot path", async () => {
    const integrationId = await newIntegration("bank_provider_b");
    const second = (await seedBusiness(api, { name: "Boreal" })).id;
    const snapshot = (business: string | null, amount: number, asOf: string) => ({
      ...(business ? { business_id: business } : { personal: true }),
      amount_minor: amount,
      currency: "EUR",
      as_of: asOf,
      provenance: { source: { type: "IMPORT", integration_id: integrationId } },
      payload: { account_id: "shared" },
    });
    expect(await ingestCashSnapshots(api.db, ownerId, [snapshot(businessId, 100, "2026-11-03T08:00:00Z")])).toMatchObject({
      inserted: 1,
    });
    const other = await ingestCashSnapshots(api.db, ownerId, [
      snapshot(second, 200, "2026-11-03T09:00:00Z"),
      snapshot(null, 300, "2026-11-03T10:00:00Z"),
    ]);
    expect(other).toEqual({ inserted: 2, deduped: 0, rejected: [] });
    const rows = await api.db.cashSnapshot.findMany({ where: { integrationId }, orderBy: { asOf: "asc" } });
    expect(rows.map((r) => [r.businessId, r.personal, r.amountMinor, r.externalId])).toEqual([
      [businessId, false, 100n, "bank_provider_b:shared:2026-11-03"],
      [second, false, 200n, "bank_provider_b:shared:2026-11-03"],
      [null, true, 300n, "bank_provider_b:shared:2026-11-03"],
    ]);
    expect(await ingestCashSnapshots(api.db, ownerId, [snapshot(businessId, 150, "2026-11-03T11:00:00Z")])).toEqual({
      inserted: 1,
      deduped: 0,
      rejected: [],
    });
    expect((await api.db.cashSnapshot.findFirstOrThrow({ where: { integrationId, businessId } })).amountMinor).toBe(150n);
    expect((await api.db.cashSnapshot.findFirstOrThrow({ where: { integrationId, businessId: second } })).amountMinor).toBe(200n);
  });
});
