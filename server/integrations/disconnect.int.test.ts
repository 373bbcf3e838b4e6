// POST /v1/integrations/{id}/disconnect (issue 14): webhooks refused afterwards (401), secrets
// wiped, history kept, audited; 409 twice and for the import's own integration; 404 for another
// owner's; a provider account connected again comes back. PGlite and PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, seedIntegration, seedOwner, staticOwner } from "../../test/helpers/seed";
import { serviceHeaders } from "../../test/helpers/webhook-signing";
import { deliveryEvent, postDelivery } from "../../test/helpers/webhooks";
import { decryptSecret } from "../crypto/secret-box";

let api: TTestApi;
let ownerId: string;
let businessId: string;

beforeAll(async () => {
  api = await createTestApi();
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api, { name: "Connections Co" })).id;
});
afterAll(async () => api?.close());

describe("POST /v1/integrations/{id}/disconnect", () => {
  it("stops a generic webhook (401 afterwards), wipes its secret, keeps its events, audits", async () => {
    const connected = await api.call("POST", "/v1/integrations/generic/connect", { body: { business_id: businessId } });
    const { integration_id: id, secret } = connected.body.data;
    const send = (externalId: string) => {
      const raw = JSON.stringify({ events: [deliveryEvent(externalId)] });
      return postDelivery(api, `/v1/webhooks/generic/${id}`, raw, serviceHeaders(secret, raw));
    };
    expect((await send(`before-${id}`)).status).toBe(200);

    const response = await api.call("POST", `/v1/integrations/${id}/disconnect`, { body: {} });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toMatchObject({ id, status: "disconnected", business_id: businessId });
    const row = await api.db.integration.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "disconnected", secretEncrypted: null, credentialsEncrypted: null });

    const refused = await send(`after-${id}`);
    expectApiError(refused, 401, "unauthenticated", { message: /disconnected/ });
    expect(await api.db.financialEvent.count({ where: { integrationId: id } })).toBe(1);
    const audit = await api.db.auditEntry.findFirst({ where: { targetId: id, action: "integration.disconnected" } });
    expect(audit).toMatchObject({ ownerId, actorType: "owner" });

    expectApiError(await api.call("POST", `/v1/integrations/${id}/disconnect`, { body: {} }), 409, "state_conflict");
    const list = await api.call("GET", "/v1/integrations?limit=200");
    expect(list.body.data.find((i: { id: string }) => i.id === id)).toMatchObject({ status: "disconnected" });
  });

  it("answers 404 for another owner's integration and 409 for the statement import's own", async () => {
    const bob = await seedOwner(api);
    const theirs = await seedBusiness(api, { name: "Bob's" }, bob.token);
    const theirId = await seedIntegration(api.db, {
      ownerId: bob.ownerId,
      provider: "generic",
      businessId: theirs.id,
      secret: "s",
    });
    expectApiError(await api.call("POST", `/v1/integrations/${theirId}/disconnect`, { body: {} }), 404, "not_found");
    expect((await api.db.integration.findUniqueOrThrow({ where: { id: theirId } })).status).toBe("active");
    const manual = await seedIntegration(api.db, { ownerId, provider: "manual_import", businessId, accountId: null });
    expectApiError(await api.call("POST", `/v1/integrations/${manual}/disconnect`, { body: {} }), 409, "state_conflict");
  });

  it("refuses a disconnected provider account's deliveries; connecting it again brings the same connection back", async () => {
    const accountId = `acct_${randomUUID().slice(0, 8)}`;
    const connected = await api.call("POST", "/v1/integrations/payments_a/connect", {
      body: { business_id: businessId, account_id: accountId, signing_secret: "first-platform-secret-0001" },
    });
    expect(connected.status, connected.text).toBe(201);
    const id = connected.body.data.id;
    expect((await api.call("POST", `/v1/integrations/${id}/disconnect`, { body: {} })).status).toBe(200);
    const sync = await api.call("POST", "/v1/integrations/payments_a/sync", { body: { integration_id: id } });
    expectApiError(sync, 409, "state_conflict");
    expect((await api.db.integration.findUniqueOrThrow({ where: { id } })).secretEncrypted).toBeNull();
    const again = await api.call("POST", "/v1/integrations/payments_a/connect", {
      body: { business_id: businessId, account_id: accountId, signing_secret: "second-platform-secret-0002" },
    });
    expect(again.status, again.text).toBe(201);
    expect(again.body.data).toMatchObject({ id, status: "active" });
    // It comes back with the secret given now.
    const row = await api.db.integration.findUniqueOrThrow({ where: { id } });
    expect(await decryptSecret(row.secretEncrypted!)).toBe("second-platform-secret-0002");
    expect(await api.db.auditEntry.count({ where: { targetId: id, action: "integration.reconnected" } })).toBe(1);
  });
});
