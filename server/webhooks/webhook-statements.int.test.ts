// The statements of a generic delivery, named in order: the replay memory shares its statement
// with the owner's base-currency lock (the first statement of the events path), so a delivery of
// new events runs four statements inside its transaction whatever its size.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { webhookItem } from "../../test/helpers/ingest-items";
import { seedBusiness, staticOwner } from "../../test/helpers/seed";
import { recordingStatements } from "../../test/helpers/statements";
import { encryptSecret } from "../crypto/secret-box";
import { serviceHeaders } from "../../test/helpers/webhook-signing";
import { receiveGenericDelivery } from "./webhook-service";

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
