// The statements of a signed delivery, named in order: the replay memory shares its statement
// with the owner's base-currency lock (the first statement of the events path), so a delivery of
// new events runs four statements inside its transaction whatever its size. A platform's delivery
// finds the connections it may be for in one lookup (every owner's, by provider and account) and
// checks their secrets in memory.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { webhookItem } from "../../test/helpers/ingest-items";
import { seedBusiness, staticOwner } from "../../test/helpers/seed";
import { recordingStatements } from "../../test/helpers/statements";
import { encryptSecret } from "../crypto/secret-box";
import { nowSeconds, paymentsAHeaders, serviceHeaders } from "../../test/helpers/webhook-signing";
import { receiveGenericDelivery, receiveProviderDelivery } from "./webhook-service";

const SECRET = "generic-secret-statements-0123456789";

let api: TTestApi;
let ownerId: string;
let businessId: string;

beforeAll(async () => {
  api = await createTestApi();
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
});
afterAll(async () => api?.close());

async function genericIntegration(): Promise<string> {
  const row = await api.db.integration.create({
    data: { ownerId, provider: "generic", name: "generic", businessId, secretEncrypted: await encryptSecret(SECRET) },
  });
  return row.id;
}

const invoice = webhookItem;

/** Delivers `body` signed, counting the statements; answers the result and their names in order. */
async function deliver(integrationId: string, body: unknown) {
  const { db, names } = recordingStatements(api.db);
  const raw = JSON.stringify(body);
  const result = await receiveGenericDelivery(db, integrationId, {
    headers: new Headers(serviceHeaders(SECRET, raw)),
    rawBody: Buffer.from(raw),
    requestId: "req-statements",
    contentType: "application/json",
  });
  return { result, names };
}

const FIND = "Integration.findFirst";
const REMEMBER_AND_LOCK_OWNER = ".$queryRaw";

describe("statements of a generic delivery", () => {
  it("new events: the replay memory with the owner's lock, then the events path without a lock of its own", async () => {
    const id = await genericIntegration();
    const { result, names } = await deliver(id, { events: [invoice("a", 100), invoice("b", 200)] });
    expect(result.inserted).toBe(2);
    expect(names).toEqual([
      FIND,
      REMEMBER_AND_LOCK_OWNER,
      ".$queryRaw", // the integrations, row-locked and marked synced, with the businesses named
      "CategoryRule.findMany", // the owner's category rules (the events carry no category)
      ".$queryRawUnsafe", // the stored versions of the keys
      ".$executeRawUnsafe", // INSERT events and their audit entries
    ]);
  });

  it("a replay: the memory statement, then nothing", async () => {
    const id = await genericIntegration();
    const body = { events: [invoice("a", 100)] };
    await deliver(id, body);
    const { result, names } = await deliver(id, body);
    expect(result).toMatchObject({ inserted: 0, deduped: 1 });
    expect(names).toEqual([FIND, REMEMBER_AND_LOCK_OWNER]);
  });

  it("signals only: the memory alone, no owner lock", async () => {
    const id = await genericIntegration();
    const { result, names } = await deliver(id, {
      signals: [{ external_id: "s1", code: "payout_paid", occurred_at: "2026-11-02T10:00:00Z" }],
    });
    expect(result.signals_accepted).toBe(1);
    expect(names).toEqual([
      FIND,
      ".$queryRaw", // the replay memory
      "Integration.findMany",
      "IntegrationSignal.createManyAndReturn",
      "AuditEntry.createMany",
      "Alert.createMany",
      ".$queryRawUnsafe", // their notifications and outside deliveries, muted codes applied (one statement)
      "Integration.updateMany",
    ]);
  });
});

describe("statements of a platform delivery", () => {
  const PAYMENTS_SECRET = "payments-a-account-secret-statements";

  it("one lookup of the account's connections (another owner's included), then the generic path's statements", async () => {
    const account = `acct_statements_${Date.now().toString(36)}`;
    await api.db.integration.create({
      data: {
        ownerId,
        provider: "payments_a",
        name: "p",
        businessId,
        accountId: account,
        secretEncrypted: await encryptSecret(PAYMENTS_SECRET),
      },
    });
    // Someone else named the same account with another secret: checked in memory, no statement of its own.
    const other = await api.db.owner.create({ data: { email: "other-statements@example.test" } });
    await api.db.integration.create({
      data: {
        ownerId: other.id,
        provider: "payments_a",
        name: "p",
        accountId: account,
        secretEncrypted: await encryptSecret("someone-else-entirely-000"),
      },
    });
    const raw = JSON.stringify({
      id: "evt_statements",
      type: "charge.succeeded",
      account,
      created: nowSeconds(),
      data: { object: { id: "ch_statements", object: "charge", amount: 1999, currency: "eur", created: nowSeconds() } },
    });
    const { db, names } = recordingStatements(api.db);
    const result = await receiveProviderDelivery(db, "payments_a", {
      headers: new Headers(paymentsAHeaders(PAYMENTS_SECRET, raw)),
      rawBody: Buffer.from(raw),
      requestId: "req-statements",
      contentType: "application/json",
    });
    expect(result.inserted).toBe(1);
    expect(names).toEqual([
      "Integration.findMany", // the candidate connections of (payments_a, account), with their encrypted secrets
      REMEMBER_AND_LOCK_OWNER,
      ".$queryRaw", // the integrations, row-locked and marked synced, with the businesses named
      "CategoryRule.findMany",
      ".$queryRawUnsafe",
      ".$executeRawUnsafe",
    ]);
  });
});
