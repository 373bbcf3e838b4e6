// A provider account is connected by whoever controls it (issue #32 item 7, pinned-wave3 §1.6):
// naming an account id proves nothing, the platform's signing secret does. End to end through
// the REST layer with real HMAC signatures, two owners with their own sessions.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { applyTestEnv, createTestApi, type TApiResponse, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, seedIntegration, seedOwner, type TSeedOwner } from "../../test/helpers/seed";
import { nowSeconds, paymentsAHeaders } from "../../test/helpers/webhook-signing";
import { postDelivery } from "../../test/helpers/webhooks";
import { decryptSecret } from "../crypto/secret-box";

// The server-wide secret of development and tests; connections hold their own.
const SERVER_SECRET = "server-wide-payments-secret-0001";
// Not shaped like our own tokens (whsec_…), so the log's redaction cannot hide a leak.
const ALICE_SECRET = "alice-platform-secret-7f3a9c1e55";
const BOB_WRONG_SECRET = "bob-guessed-secret-0000000000";

let api: TTestApi;
let alice: TSeedOwner & { businessId: string };
let bob: TSeedOwner & { businessId: string };

beforeAll(async () => {
  api = await createTestApi({ env: { WEBHOOK_SECRET_PAYMENTS_A: SERVER_SECRET } });
  const a = await seedOwner(api, "alice-claims@example.test");
  const b = await seedOwner(api, "bob-claims@example.test");
  alice = { ...a, businessId: (await seedBusiness(api, { name: "Alice Ltd" }, a.token)).id };
  bob = { ...b, businessId: (await seedBusiness(api, { name: "Bob Ltd" }, b.token)).id };
});
afterAll(async () => api?.close());

let accountSeq = 0;
const newAccount = () => `acct_claims_${Date.now().toString(36)}_${++accountSeq}`;

function connect(owner: { token: string; businessId: string }, body: Record<string, unknown>, provider = "payments_a") {
  return api.call("POST", `/v1/integrations/${provider}/connect`, {
    token: owner.token,
    body: { business_id: owner.businessId, ...body },
  });
}

let chargeSeq = 0;
/** A payments_a charge for `account`, as the platform sends it. */
function charge(account: string, amount = 1999) {
  const id = `ch_claims_${++chargeSeq}`;
  return {
    id: `evt_claims_${chargeSeq}`,
    type: "charge.succeeded",
    account,
    created: nowSeconds(),
    data: { object: { id, object: "charge", amount, currency: "eur", created: nowSeconds() - 60 } },
  };
}

function deliver(body: unknown, secret: string): Promise<TApiResponse> {
  const raw = JSON.stringify(body);
  return postDelivery(api, "/v1/webhooks/payments_a", raw, paymentsAHeaders(secret, raw));
}

const ledgerOf = (ownerId: string) => api.db.financialEvent.findMany({ where: { ownerId }, select: { externalId: true } });
const tableCounts = async () => ({
  events: await api.db.financialEvent.count(),
  signals: await api.db.integrationSignal.count(),
  audit: await api.db.auditEntry.count(),
  deliveries: await api.db.webhookDelivery.count(),
});

/** The shape of an answer: its keys and the type of each value, recursively. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value === null || typeof value !== "object") return value === null ? "null" : typeof value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeOf(item)]));
}

describe("an account named by another owner first", () => {
  it("is still connected by its holder without a 409, and its deliveries reach only the holder's ledger", async () => {
    const account = newAccount();
    // Bob names Alice's account first, with a secret he guessed.
    const bobs = await connect(bob, { account_id: account, signing_secret: BOB_WRONG_SECRET });
    expect(bobs.status).toBe(201);
    // Alice connects it with the secret her platform shows her: no 409, nothing about Bob.
    const alices = await connect(alice, { account_id: account, signing_secret: ALICE_SECRET });
    expect(alices.status).toBe(201);
    expect(alices.text).not.toContain(bob.ownerId);
    expect(alices.text).not.toContain(bob.businessId);

    // Both answers have the shape of any connect, and neither carries a secret.
    const normal = await connect(alice, { account_id: newAccount(), signing_secret: ALICE_SECRET });
    expect(shapeOf(bobs.body)).toEqual(shapeOf(normal.body));
    expect(shapeOf(alices.body)).toEqual(shapeOf(normal.body));
    for (const answer of [bobs, alices, normal]) {
      expect(answer.text).not.toContain(ALICE_SECRET);
      expect(answer.text).not.toContain(BOB_WRONG_SECRET);
    }

    // The platform signs Alice's charges with her secret: they land in her ledger only.
    const bobBefore = await ledgerOf(bob.ownerId);
    const delivered = await deliver(charge(account), ALICE_SECRET);
    expect(delivered.status).toBe(200);
    expect(delivered.body.data).toMatchObject({ inserted: 1, rejected: [] });
    const stored = await api.db.financialEvent.findMany({ where: { externalId: `ch_claims_${chargeSeq}` } });
    expect(stored.map((row) => [row.ownerId, row.integrationId])).toEqual([[alice.ownerId, alices.body.data.id]]);
    expect(await ledgerOf(bob.ownerId)).toEqual(bobBefore);

    // Bob's answers reveal nothing: his connection never synced, his events are his own.
    const bobList = await api.call("GET", "/v1/integrations", { token: bob.token });
    const bobConnection = bobList.body.data.find((row: { id: string }) => row.id === bobs.body.data.id);
    expect(bobConnection).toMatchObject({ account_id: account, status: "active", last_sync_at: null });
    expect(bobList.text).not.toContain(alice.ownerId);
    expect(bobList.text).not.toContain(alices.body.data.id);
    const bobEvents = await api.call("GET", "/v1/events?limit=200", { token: bob.token });
    expect(bobEvents.status).toBe(200);
    expect(bobEvents.text).not.toContain(`ch_claims_${chargeSeq}`);

    // What Bob signs with his own guess reaches only his own connection.
    const forged = await deliver(charge(account, 500), BOB_WRONG_SECRET);
    expect(forged.status).toBe(200);
    const forgedRows = await api.db.financialEvent.findMany({ where: { externalId: `ch_claims_${chargeSeq}` } });
    expect(forgedRows.map((row) => row.ownerId)).toEqual([bob.ownerId]);
  });

  it("refuses a delivery no connection's secret verifies with 401 and writes nothing, answered as for an account nobody connected", async () => {
    const account = newAccount();
    expect((await connect(alice, { account_id: account, signing_secret: ALICE_SECRET })).status).toBe(201);
    const before = await tableCounts();
    const wrong = await deliver(charge(account), "not-the-account-secret-000");
    const nobody = await deliver(charge(newAccount()), "not-the-account-secret-000");
    expectApiError(wrong, 401, "unauthenticated");
    expectApiError(nobody, 401, "unauthenticated");
    expect(wrong.body.error.message).toBe(nobody.body.error.message);
    expect(await tableCounts()).toEqual(before);
  });

  it("delivers to every owner whose secret verifies: two holders of the true secret both hold the account", async () => {
    const account = newAccount();
    const a = await connect(alice, { account_id: account, signing_secret: ALICE_SECRET });
    const b = await connect(bob, { account_id: account, signing_secret: ALICE_SECRET });
    const raw = JSON.stringify(charge(account));
    const headers = paymentsAHeaders(ALICE_SECRET, raw);
    const delivered = await postDelivery(api, "/v1/webhooks/payments_a", raw, headers);
    expect(delivered.status).toBe(200);
    const rows = await api.db.financialEvent.findMany({ where: { externalId: `ch_claims_${chargeSeq}` } });
    expect(rows.map((row) => row.integrationId).sort()).toEqual([a.body.data.id, b.body.data.id].sort());
    // Each connection remembers it: the same request again is a replay, and writes nothing.
    const before = await tableCounts();
    const again = await postDelivery(api, "/v1/webhooks/payments_a", raw, headers);
    expect(again.body.data).toMatchObject({ inserted: 0, deduped: 1 });
    expect(await tableCounts()).toEqual(before);
  });
});

describe("the server-wide secret", () => {
  it("never verifies a delivery to a connection that has its own secret, in either mode", async () => {
    const account = newAccount();
    expect((await connect(alice, { account_id: account, signing_secret: ALICE_SECRET })).status).toBe(201);
    const before = await tableCounts();
    expectApiError(await deliver(charge(account), SERVER_SECRET), 401, "unauthenticated");
    applyTestEnv({ AUTH_MODE: "session" });
    try {
      expectApiError(await deliver(charge(account), SERVER_SECRET), 401, "unauthenticated");
    } finally {
      applyTestEnv({ AUTH_MODE: "static" });
    }
    expect(await tableCounts()).toEqual(before);
  });

  it("verifies a connection without a secret of its own only in static mode (development and tests)", async () => {
    // A connection made before connect asked for the secret.
    const account = newAccount();
    await seedIntegration(api.db, {
      ownerId: alice.ownerId,
      provider: "payments_a",
      businessId: alice.businessId,
      accountId: account,
    });
    applyTestEnv({ AUTH_MODE: "session" });
    try {
      const before = await tableCounts();
      expectApiError(await deliver(charge(account), SERVER_SECRET), 401, "unauthenticated");
      expect(await tableCounts()).toEqual(before);
    } finally {
      applyTestEnv({ AUTH_MODE: "static" });
    }
    const accepted = await deliver(charge(account), SERVER_SECRET);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ inserted: 1 });
    // Unset, it verifies nothing: 401.
    applyTestEnv({ WEBHOOK_SECRET_PAYMENTS_A: undefined });
    try {
      expectApiError(await deliver(charge(account), SERVER_SECRET), 401, "unauthenticated");
    } finally {
      applyTestEnv({ WEBHOOK_SECRET_PAYMENTS_A: SERVER_SECRET });
    }
  });
});

describe("connecting with a signing secret", () => {
  it("requires signing_secret for payments_a, social_ads, billing_a and billing_b, naming every missing field at once", async () => {
    for (const provider of ["payments_a", "social_ads", "billing_a", "billing_b"]) {
      const response = await connect(alice, {}, provider);
      expectApiError(response, 400, "validation_error");
      expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toEqual([
        "account_id",
        "signing_secret",
      ]);
      const missing = await connect(alice, { account_id: newAccount() }, provider);
      expectApiError(missing, 400, "validation_error");
      expect(missing.body.error.details.issues).toEqual([
        { path: "signing_secret", message: expect.stringMatching(/^required for .+ → /) },
      ]);
    }
    const short = await connect(alice, { account_id: newAccount(), signing_secret: "short" });
    expectApiError(short, 400, "validation_error");
    expect(short.body.error.details.issues[0]).toMatchObject({ path: "signing_secret", message: expect.stringMatching(/16/) });
    const oauth = await connect(alice, { account_id: newAccount(), signing_secret: ALICE_SECRET }, "search_ads");
    expectApiError(oauth, 400, "validation_error");
    expect(oauth.body.error.details.issues[0].path).toBe("signing_secret");
  });

  it("stores the secret encrypted and never answers, lists, audits or logs it", async () => {
    applyTestEnv({ LOG_LEVEL: "debug" });
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    const out = vi.spyOn(process.stdout, "write").mockImplementation(capture);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(capture);
    const secret = "never-shown-secret-4b1d2e9f0a";
    const rotated = "never-shown-rotated-8c7e6d5a4b";
    let answers: string[] = [];
    let id = "";
    try {
      const account = newAccount();
      const connected = await connect(alice, { account_id: account, signing_secret: secret });
      expect(connected.status).toBe(201);
      id = connected.body.data.id;
      await deliver(charge(account), secret);
      await deliver(charge(account), "a-wrong-secret-for-the-log-0");
      const replaced = await api.call("PUT", `/v1/integrations/${id}/signing-secret`, {
        token: alice.token,
        body: { signing_secret: rotated },
      });
      expect(replaced.status).toBe(200);
      answers = [
        connected.text,
        replaced.text,
        (await api.call("GET", "/v1/integrations?limit=200", { token: alice.token })).text,
        (await api.call("GET", "/v1/integrations/catalog", { token: alice.token })).text,
        (await api.call("GET", "/v1/audit?limit=200", { token: alice.token })).text,
      ];
    } finally {
      out.mockRestore();
      err.mockRestore();
      applyTestEnv({ LOG_LEVEL: "silent" });
    }
    // At rest: ciphertext, which decrypts to the secret given last.
    const [raw] = await api.db.$queryRaw<Array<{ secret_encrypted: Uint8Array }>>`
      SELECT secret_encrypted FROM integrations WHERE id = ${id}::uuid`;
    const bytes = Buffer.from(raw!.secret_encrypted);
    for (const plain of [secret, rotated]) expect(bytes.includes(Buffer.from(plain))).toBe(false);
    expect(await decryptSecret(bytes)).toBe(rotated);

    const audit = JSON.stringify(await api.db.auditEntry.findMany({ where: { ownerId: alice.ownerId } }));
    const stored = JSON.stringify(await api.db.idempotencyRecord.findMany({ select: { responseBody: true } }));
    expect(written.length).toBeGreaterThan(0);
    for (const text of [...answers, audit, stored, written.join("")]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(rotated);
    }
  });
});

describe("PUT /v1/integrations/{id}/signing-secret", () => {
  it("replaces the secret: from then on only the new one verifies; audited without it", async () => {
    const account = newAccount();
    const id = (await connect(alice, { account_id: account, signing_secret: ALICE_SECRET })).body.data.id;
    const next = "alice-rotated-secret-2c9d8e7f6a";
    const response = await api.call("PUT", `/v1/integrations/${id}/signing-secret`, {
      token: alice.token,
      body: { signing_secret: next },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id, provider: "payments_a", account_id: account, status: "active" });
    expectApiError(await deliver(charge(account), ALICE_SECRET), 401, "unauthenticated");
    expect((await deliver(charge(account), next)).body.data).toMatchObject({ inserted: 1 });
    const audit = await api.db.auditEntry.findFirstOrThrow({
      where: { targetId: id, action: "integration.signing_secret_replaced" },
    });
    expect(audit.details).toEqual({ provider: "payments_a", account_id: account });
  });

  it("answers 404 for another owner's connection, 409 for one without a secret of its own or disconnected, 400 without a secret", async () => {
    const id = (await connect(alice, { account_id: newAccount(), signing_secret: ALICE_SECRET })).body.data.id;
    const put = (target: string, body: Record<string, unknown>, token = alice.token) =>
      api.call("PUT", `/v1/integrations/${target}/signing-secret`, { token, body });
    const generic = await api.call("POST", "/v1/integrations/generic/connect", {
      token: alice.token,
      body: { business_id: alice.businessId },
    });
    const before = await tableCounts();
    expectApiError(await put(id, { signing_secret: BOB_WRONG_SECRET }, bob.token), 404, "not_found");
    expectApiError(await put(id, {}), 400, "validation_error");
    expectApiError(await put(generic.body.data.integration_id, { signing_secret: ALICE_SECRET }), 409, "state_conflict");
    expect(await tableCounts()).toEqual(before);
    await api.call("POST", `/v1/integrations/${id}/disconnect`, { token: alice.token });
    expectApiError(await put(id, { signing_secret: ALICE_SECRET }), 409, "state_conflict");
  });
});

describe("GET /v1/openapi.json", () => {
  it("describes the connect body's signing_secret, the catalog's signing_secret_location and the replace operation", async () => {
    const doc = (await api.call("GET", "/v1/openapi.json", { token: null })).body;
    const schema = (name: string) => doc.components.schemas[name];
    const body = doc.paths["/v1/integrations/{provider}/connect"].post.requestBody.content["application/json"].schema;
    const signingSecret = (body.$ref ? schema(body.$ref.split("/").pop()) : body).properties.signing_secret;
    expect(signingSecret.description).toMatch(/signs this account's deliveries/);
    expect(signingSecret).toMatchObject({ type: "string", minLength: 16, maxLength: 512 });
    expect(schema("CatalogEntry").properties.signing_secret_location.description).toMatch(/Where the platform shows/);
    const replace = doc.paths["/v1/integrations/{id}/signing-secret"].put;
    expect(replace.description).toMatch(/Stored encrypted and never answered/);
    expect(doc.paths["/v1/webhooks/{provider}"].post.description).toMatch(/only when the server runs with AUTH_MODE=static/);
  });
});
