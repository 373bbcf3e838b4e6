// The statements of the events path, counted and named, per batch and per round. A round (the
// keys of a batch seen once each) runs a fixed set of statements whatever its size; the ingest
// benchmark depends on it, so a change to how a round is planned or written must keep them.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { ingestItem } from "../../test/helpers/ingest-items";
import { seedBusiness, staticOwner } from "../../test/helpers/seed";
import { recordingStatements } from "../../test/helpers/statements";
import { ingestEvents } from "./ingest-service";

let api: TTestApi;
let ownerId: string;
let businessId: string;

beforeAll(async () => {
  api = await createTestApi();
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
});
afterAll(async () => api?.close());

async function newIntegration(): Promise<string> {
  const row = await api.db.integration.create({
    data: { ownerId, provider: "payments_a", name: "payments_a", businessId, accountId: `acct_${randomUUID()}` },
  });
  return row.id;
}

const event = ingestItem;

/** The batch's statements, named model.operation in the order they ran. */
async function statementsOf(events: unknown[]): Promise<string[]> {
  const { db, names } = recordingStatements(api.db);
  await ingestEvents(db, ownerId, events);
  return names;
}

async function plannedExpense(amount: number): Promise<string> {
  const created = await api.call("POST", "/v1/planned-expenses", {
    body: { business_id: businessId, amount_minor: amount, currency: "EUR", occurred_on: "2026-12-01" },
  });
  return created.body.data.id;
}

// Before any round: the owner's base (share lock); then one statement for the integrations (row
// locks, last_sync_at) and the businesses, projects and subscriptions the batch names (the FX
// rates of these days are in the rate cache by then), and the owner's category rules (the events
// carry no category; with no rules, one query). Nothing runs after the last round.
const BEFORE = [".$queryRaw", ".$queryRaw", "CategoryRule.findMany"];
// A round: the stored versions of its keys; their chains (when some are stored); the events
// fulfilled or reconciled (when named); INSERT events + event.ingested audits; UPDATE voided;
// UPDATE fulfilled; INSERT void/fulfil audits.
const STORED = ".$queryRawUnsafe";
const CHAINS = "FinancialEvent.findMany";
const REFERENCED = "FinancialEvent.findMany";
const INSERT = ".$executeRawUnsafe";
const VOID = "FinancialEvent.updateMany";
const FULFIL = ".$executeRaw";
const AUDIT = ".$executeRawUnsafe";

describe("statements of a batch, round by round", () => {
  it("new keys: the stored versions looked up, one INSERT", async () => {
    const integrationId = await newIntegration();
    const names = await statementsOf([event(integrationId, "a", 100), event(integrationId, "b", 200)]);
    expect(names).toEqual([...BEFORE, STORED, INSERT]);
  });

  it("repeats only: stored versions and their chains, nothing written", async () => {
    const integrationId = await newIntegration();
    await ingestEvents(api.db, ownerId, [event(integrationId, "a", 100), event(integrationId, "b", 200)]);
    const names = await statementsOf([event(integrationId, "a", 100), event(integrationId, "b", 200)]);
    expect(names).toEqual([...BEFORE, STORED, CHAINS]);
  });

  it("a restatement and a new key: INSERT, UPDATE voided, INSERT their audits", async () => {
    const integrationId = await newIntegration();
    await ingestEvents(api.db, ownerId, [event(integrationId, "a", 100)]);
    const names = await statementsOf([event(integrationId, "a", 150), event(integrationId, "c", 300)]);
    expect(names).toEqual([...BEFORE, STORED, CHAINS, INSERT, VOID, AUDIT]);
  });

  it("fulfilments: the planned events read, INSERT, UPDATE fulfilled, INSERT their audits", async () => {
    const integrationId = await newIntegration();
    const planned = [await plannedExpense(1_000), await plannedExpense(2_000)];
    const names = await statementsOf(
      planned.map((id, i) => event(integrationId, `pay-${i}`, 1_100, { type: "expense", payload: { fulfills_event_id: id } })),
    );
    expect(names).toEqual([...BEFORE, STORED, REFERENCED, INSERT, FULFIL, AUDIT]);
  });

  it("every statement of a round at once", async () => {
    const integrationId = await newIntegration();
    await ingestEvents(api.db, ownerId, [event(integrationId, "a", 100)]);
    const planned = await plannedExpense(1_000);
    const names = await statementsOf([
      event(integrationId, "a", 150),
      event(integrationId, "pay", 900, { type: "expense", payload: { fulfills_event_id: planned } }),
      event(integrationId, "r", -50, { type: "refund", payload: { refunds_external_id: "a" } }),
    ]);
    expect(names).toEqual([...BEFORE, STORED, CHAINS, REFERENCED, INSERT, VOID, FULFIL, AUDIT]);
  });

  it("a key repeated inside the batch: one round per repeat", async () => {
    const integrationId = await newIntegration();
    const names = await statementsOf([
      event(integrationId, "a", 100),
      event(integrationId, "b", 100),
      event(integrationId, "a", 120),
      event(integrationId, "a", 130),
    ]);
    const first = [STORED, INSERT];
    const restatement = [STORED, CHAINS, INSERT, VOID, AUDIT];
    expect(names).toEqual([...BEFORE, ...first, ...restatement, ...restatement]);
  });

  it("a batch rejected before any round: no round runs", async () => {
    const integrationId = await newIntegration();
    const names = await statementsOf([event(integrationId, "a", 1.5)]);
    expect(names).toEqual([".$queryRaw"]); // the owner's base: no integration to lock or touch
  });

  it("a round's statements do not grow with its size", async () => {
    const integrationId = await newIntegration();
    const small = await statementsOf([event(integrationId, "s-0", 100)]);
    const large = await statementsOf(Array.from({ length: 200 }, (_, i) => event(integrationId, `l-${i}`, 100 + i)));
    expect(large).toEqual(small);
  });
});
