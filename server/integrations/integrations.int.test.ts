// Integrations end to end through the REST layer: list, catalogs, connect (generic with its
// secret, provider accounts, Search Ads pending, refusals), the mock sync through the ingest
// path, owner scoping, and the literal route /generic/connect winning over /{provider}/connect.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { utcDayOf } from "../../lib/days";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, seedOwner, staticOwner } from "../../test/helpers/seed";
import { decryptSecret } from "../crypto/secret-box";
import { createV1Handler } from "../rest/v1";
import { router } from "../trpc/init";
import { connectGenericIntegrationRoute } from "./connect-generic-integration";
import { connectIntegrationRoute } from "./connect-integration";
import { verifyOAuthState } from "./oauth-state";
import { PROVIDER_CATALOG } from "../sources/providers";
import { sampleDays, samplePrefix } from "./sync-samples";

let api: TTestApi;
let ownerId: string;
let businessId: string;
let other: { token: string; ownerId: string };
let othersBusinessId: string;

const PUBLIC_BASE_URL = "https://books.example.test";

beforeAll(async () => {
  api = await createTestApi({ env: { PUBLIC_BASE_URL } });
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
  other = await seedOwner(api, "other-integrations@example.test");
  othersBusinessId = (await seedBusiness(api, { name: "Theirs" }, other.token)).id;
});
afterAll(async () => api?.close());

let accountSeq = 0;
const newAccount = () => `acct_${Date.now().toString(36)}_${++accountSeq}`;

const counts = async () => ({
  integrations: await api.db.integration.count(),
  audit: await api.db.auditEntry.count({ where: { action: { startsWith: "integration." } } }),
  events: await api.db.financialEvent.count(),
});

/** The signing secret a webhook platform's account is connected with (provider-account-claims.int.test.ts tests it). */
const SIGNING_SECRET = "platform-signing-secret-integrations";
const TAKES_SECRET = new Set(["payments_a", "social_ads", "billing_a", "billing_b"]);

/** Connects as the static owner (or `token`); a webhook platform's account with SIGNING_SECRET unless the body names one. */
async function connect(provider: string, body: Record<string, unknown>, token?: string) {
  const withSecret =
    TAKES_SECRET.has(provider) && !("signing_secret" in body) ? { signing_secret: SIGNING_SECRET, ...body } : body;
  return api.call("POST", `/v1/integrations/${provider}/connect`, { body: withSecret, ...(token ? { token } : {}) });
}

describe("POST /v1/integrations/generic/connect", () => {
  it("answers the secret once and stores it only encrypted", async () => {
    const response = await api.call("POST", "/v1/integrations/generic/connect", {
      body: { business_id: businessId, name: "Zapier relay" },
    });
    expect(response.status).toBe(201);
    const { integration_id, secret, webhook_url } = response.body.data;
    expect(Object.keys(response.body.data).sort()).toEqual(["integration_id", "secret", "webhook_url"]);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(webhook_url).toBe(`${PUBLIC_BASE_URL}/v1/webhooks/generic/${integration_id}`);

    const row = await api.db.integration.findUniqueOrThrow({ where: { id: integration_id } });
    expect(row).toMatchObject({ ownerId, provider: "generic", name: "Zapier relay", businessId, status: "active" });
    const stored = Buffer.from(row.secretEncrypted!);
    expect(stored.toString("utf8")).not.toContain(secret);
    expect(stored.toString("latin1")).not.toContain(secret);
    expect(stored.includes(Buffer.from(secret, "utf8"))).toBe(false);
    expect(stored.includes(Buffer.from(secret.slice(6), "base64url"))).toBe(false);
    expect(await decryptSecret(row.secretEncrypted!)).toBe(secret);
    expect(row.credentialsEncrypted).toBeNull();

    // Never shown again: not in the list, the catalog, the audit log.
    const listed = await api.call("GET", "/v1/integrations?provider=generic");
    expect(listed.body.data.map((i: { id: string }) => i.id)).toContain(integration_id);
    expect(listed.text).not.toContain(secret);
    const audit = await api.db.auditEntry.findFirstOrThrow({
      where: { action: "integration.connected", targetId: integration_id },
    });
    expect(audit).toMatchObject({ actorType: "owner", targetType: "integration" });
    expect(JSON.stringify(audit)).not.toContain(secret);
    expect((await api.call("GET", "/v1/audit?limit=200")).text).not.toContain(secret);
  });

  it("defaults the name and gives each connection its own secret", async () => {
    const first = await api.call("POST", "/v1/integrations/generic/connect", { body: { business_id: businessId } });
    const second = await api.call("POST", "/v1/integrations/generic/connect", { body: { business_id: businessId } });
    expect(first.status).toBe(201);
    expect(second.body.data.secret).not.toBe(first.body.data.secret);
    const row = await api.db.integration.findUniqueOrThrow({ where: { id: first.body.data.integration_id } });
    expect(row.name).toBe("Generic signed webhook");
  });

  it("replays the same answer for a repeated Idempotency-Key, creating one integration", async () => {
    const before = await api.db.integration.count();
    const key = `generic-${Date.now()}`;
    const first = await api.call("POST", "/v1/integrations/generic/connect", {
      body: { business_id: businessId },
      idempotencyKey: key,
    });
    const again = await api.call("POST", "/v1/integrations/generic/connect", {
      body: { business_id: businessId },
      idempotencyKey: key,
    });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.integration_id).toBe(first.body.data.integration_id);
    expect(again.body.data.secret).toBe(first.body.data.secret);
    expect(await api.db.integration.count()).toBe(before + 1);
    // The replay copy of an answer that shows a secret is stored encrypted, never in clear.
    const stored = await api.db.idempotencyRecord.findFirstOrThrow({ where: { key } });
    expect(stored.responseBody).toMatch(/^enc:v1:/);
    expect(stored.responseBody).not.toContain(first.body.data.secret);
  });

  it("answers 404 for another owner's business, 400 for a bad body, 401 without a bearer; nothing written", async () => {
    const before = await counts();
    expectApiError(
      await api.call("POST", "/v1/integrations/generic/connect", { body: { business_id: othersBusinessId } }),
      404,
      "not_found",
    );
    const invalid = await api.call("POST", "/v1/integrations/generic/connect", { body: { business_id: "nope" } });
    expectApiError(invalid, 400, "validation_error");
    expect(invalid.body.error.details.issues.map((i: { path: string }) => i.path)).toContain("business_id");
    expectApiError(await api.call("POST", "/v1/integrations/generic/connect", { body: {} }), 400, "validation_error");
    expectApiError(
      await api.call("POST", "/v1/integrations/generic/connect", { body: { business_id: businessId, name: "" } }),
      400,
      "validation_error",
    );
    expectApiError(
      await api.call("POST", "/v1/integrations/generic/connect", { token: null, body: { business_id: businessId } }),
      401,
      "unauthenticated",
    );
    expectApiError(
      await api.call("POST", "/v1/integrations/generic/connect", { idempotencyKey: null, body: { business_id: businessId } }),
      400,
      "missing_idempotency_key",
    );
    expect(await counts()).toEqual(before);
  });

  it("is a literal route: it wins over /{provider}/connect in the route table, whatever the declaration order", () => {
    const match = api.handler.routes.match("POST", "/v1/integrations/generic/connect");
    expect(match && "route" in match ? match.route.target : null).toEqual({
      kind: "procedure",
      procedurePath: "integrations.connectGeneric",
    });
    const param = api.handler.routes.match("POST", "/v1/integrations/payments_a/connect");
    expect(param && "route" in param ? param.route.target : null).toEqual({
      kind: "procedure",
      procedurePath: "integrations.connect",
    });
    // Declared the other way round, the layer's own table still sends /generic/connect to connectGeneric.
    const swapped = router({
      integrations: router({ connect: connectIntegrationRoute, connectGeneric: connectGenericIntegrationRoute }),
    });
    const swappedMatch = createV1Handler({ router: swapped, getDb: () => Promise.reject(new Error("unused")) }).routes.match(
      "POST",
      "/v1/integrations/generic/connect",
    );
    expect(swappedMatch && "route" in swappedMatch ? swappedMatch.route.target : null).toEqual({
      kind: "procedure",
      procedurePath: "integrations.connectGeneric",
    });
  });
});

describe("POST /v1/integrations/{provider}/connect", () => {
  it.each(["payments_a", "social_ads", "billing_a", "billing_b"])("records a %s account as active, audited", async (provider) => {
    const accountId = newAccount();
    const response = await connect(provider, { business_id: businessId, account_id: accountId });
    expect(response.status).toBe(201);
    const info = PROVIDER_CATALOG.find((p) => p.provider === provider)!;
    expect(response.body.data).toEqual({
      id: expect.any(String),
      provider,
      kind: info.kind,
      name: info.name,
      business_id: businessId,
      status: "active",
      account_id: accountId,
      last_sync_at: null,
      created_at: expect.stringMatching(/Z$/),
      authorize_url: null,
    });
    const audit = await api.db.auditEntry.findFirstOrThrow({
      where: { action: "integration.connected", targetId: response.body.data.id },
    });
    expect(audit.details).toMatchObject({ provider, business_id: businessId, account_id: accountId, status: "active" });
  });

  it("refuses an account the owner already connected (409), and never tells another owner that someone named it", async () => {
    const accountId = newAccount();
    expect((await connect("payments_a", { business_id: businessId, account_id: accountId })).status).toBe(201);
    const before = await counts();
    const again = await connect("payments_a", { business_id: businessId, account_id: accountId, name: "Again" });
    expectApiError(again, 409, "state_conflict");
    expect(again.body.error.message).toMatch(/already connected/);
    expect(await counts()).toEqual(before);
    // Another owner names the same account: connected like any other (the signing secret decides
    // which connection a delivery reaches), and the answer says nothing of the first owner.
    const theirs = await connect("payments_a", { business_id: othersBusinessId, account_id: accountId }, other.token);
    expect(theirs.status).toBe(201);
    expect(theirs.body.data).toMatchObject({ account_id: accountId, business_id: othersBusinessId, status: "active" });
    expect(theirs.text).not.toContain(ownerId);
    expect(theirs.text).not.toContain(businessId);
    // The same account id at another provider is another account.
    expect((await connect("billing_a", { business_id: businessId, account_id: accountId })).status).toBe(201);
  });

  it("keeps a Search Ads customer id one owner's: its relay is signed by the service, not the account", async () => {
    const customerId = newAccount();
    expect((await connect("search_ads", { business_id: businessId, account_id: customerId })).status).toBe(201);
    const theirs = await connect("search_ads", { business_id: othersBusinessId, account_id: customerId }, other.token);
    expectApiError(theirs, 409, "state_conflict");
    expect(theirs.text).not.toContain(ownerId);
  });

  it("connects one account once when two connects race", async () => {
    const accountId = newAccount();
    const responses = await Promise.all(
      [1, 2, 3].map(() => connect("social_ads", { business_id: businessId, account_id: accountId })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await api.db.integration.count({ where: { provider: "social_ads", accountId } })).toBe(1);
  });

  it("starts Search Ads OAuth: pending, with an authorize_url carrying a signed state", async () => {
    // The customer id is required: the relay's deliveries find the owner by it.
    expectApiError(await connect("search_ads", { business_id: businessId }), 400, "validation_error");
    const customerId = newAccount();
    const response = await connect("search_ads", { business_id: businessId, account_id: customerId });
    expect(response.status).toBe(201);
    const data = response.body.data;
    expect(data).toMatchObject({ provider: "search_ads", kind: "ads", status: "pending", account_id: customerId });
    const url = new URL(data.authorize_url);
    expect(`${url.origin}${url.pathname}`).toBe("https://accounts.search-ads.invalid/oauth/authorize");
    expect(url.searchParams.get("client_id")).toBe("finance-back-office-dev");
    expect(url.searchParams.get("redirect_uri")).toBe(`${PUBLIC_BASE_URL}/v1/integrations/search_ads/callback`);
    expect(url.searchParams.get("response_type")).toBe("code");
    const state = await verifyOAuthState(url.searchParams.get("state"));
    expect(state).toMatchObject({ owner: ownerId, integration: data.id });
    const row = await api.db.integration.findUniqueOrThrow({ where: { id: data.id } });
    expect(row.config).toEqual({ oauth_nonce: state!.nonce });
    expect(row.credentialsEncrypted).toBeNull();
  });

  it("refuses what cannot be connected here, writing nothing", async () => {
    const before = await counts();
    const missing = await connect("payments_a", { business_id: businessId });
    expectApiError(missing, 400, "validation_error");
    expect(missing.body.error.details.issues).toEqual([{ path: "account_id", message: expect.stringMatching(/required/) }]);
    for (const provider of ["bank_provider_a", "bank_provider_b"]) {
      const response = await connect(provider, { business_id: businessId, account_id: newAccount() });
      expectApiError(response, 409, "state_conflict");
      expect(response.body.error.message).toMatch(/coming soon/);
      expect(response.body.error.details).toEqual({ provider, availability: "coming_soon" });
    }
    const manual = await connect("manual_import", { business_id: businessId, account_id: "x" });
    expectApiError(manual, 409, "state_conflict");
    expect(manual.body.error.message).toMatch(/first statement import/);
    const unknown = await connect("pigeon_post", { business_id: businessId, account_id: "x" });
    expectApiError(unknown, 404, "not_found");
    expectApiError(await connect("payments_a", { business_id: othersBusinessId, account_id: newAccount() }), 404, "not_found");
    expectApiError(await connect("payments_a", { account_id: newAccount() }), 400, "validation_error");
    expectApiError(await connect("payments_a", { business_id: businessId, account_id: "" }), 400, "validation_error");
    expectApiError(
      await connect("payments_a", { business_id: businessId, account_id: "a".repeat(129) }),
      400,
      "validation_error",
    );
    expectApiError(
      await api.call("POST", "/v1/integrations/payments_a/connect", {
        token: null,
        body: { business_id: businessId, account_id: newAccount() },
      }),
      401,
      "unauthenticated",
    );
    expect(await counts()).toEqual(before);
  });
});

describe("GET /v1/integrations", () => {
  it("lists the owner's integrations newest first, paginated, filtered by provider and business", async () => {
    const business = (await seedBusiness(api, { name: "Listing" })).id;
    const ids: string[] = [];
    for (const provider of ["billing_b", "social_ads", "billing_b"]) {
      ids.push((await connect(provider, { business_id: business, account_id: newAccount() })).body.data.id);
    }
    const first = await api.call("GET", `/v1/integrations?business_id=${business}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.page.has_more).toBe(true);
    const second = await api.call(
      "GET",
      `/v1/integrations?business_id=${business}&limit=2&cursor=${first.body.page.next_cursor}`,
    );
    expect(second.body.data.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    expect(second.body.page).toEqual({ next_cursor: null, has_more: false });
    const filtered = await api.call("GET", `/v1/integrations?business_id=${business}&provider=billing_b`);
    expect(filtered.body.data.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[0]]);
    const all = await api.call("GET", "/v1/integrations?limit=200");
    expect(all.body.data.every((i: { provider: string }) => PROVIDER_CATALOG.some((p) => p.provider === i.provider))).toBe(true);
    for (const item of all.body.data) expect(Object.keys(item)).not.toContain("secret");
  });

  it("answers 400 for an unknown provider filter and 401 without a bearer", async () => {
    expectApiError(await api.call("GET", "/v1/integrations?provider=pigeon_post"), 400, "validation_error");
    expectApiError(await api.call("GET", "/v1/integrations?limit=0"), 400, "validation_error");
    expectApiError(await api.call("GET", "/v1/integrations", { token: null }), 401, "unauthenticated");
  });

  it("never shows another owner's integrations", async () => {
    const mine = await api.call("POST", "/v1/integrations/generic/connect", { body: { business_id: businessId } });
    const theirs = await api.call("GET", "/v1/integrations?limit=200", { token: other.token });
    expect(theirs.status).toBe(200);
    expect(theirs.text).not.toContain(mine.body.data.integration_id);
    expect(theirs.text).not.toContain(businessId);
  });
});

describe("catalogs", () => {
  it("GET /v1/integrations/catalog: every provider with the owner's active and pending counts", async () => {
    const owner = await seedOwner(api, "catalog-owner@example.test");
    const business = (await seedBusiness(api, { name: "C" }, owner.token)).id;
    await connect("payments_a", { business_id: business, account_id: newAccount() }, owner.token);
    await connect("payments_a", { business_id: business, account_id: newAccount() }, owner.token);
    await connect("search_ads", { business_id: business, account_id: newAccount() }, owner.token);
    const response = await api.call("GET", "/v1/integrations/catalog", { token: owner.token });
    expect(response.status).toBe(200);
    expect(response.body.data.map((e: { provider: string }) => e.provider)).toEqual(PROVIDER_CATALOG.map((p) => p.provider));
    const entry = (provider: string) => response.body.data.find((e: { provider: string }) => e.provider === provider);
    expect(entry("payments_a")).toMatchObject({ connected: 2, pending: 0, availability: "available", connect: "account" });
    expect(entry("search_ads")).toMatchObject({ connected: 0, pending: 1, connect: "oauth" });
    expect(entry("bank_provider_a")).toMatchObject({ connected: 0, availability: "coming_soon" });
    expect(entry("manual_import")).toMatchObject({ connected: 0, availability: "available", connect: "internal" });
    expect(entry("generic")).toMatchObject({
      webhook_path: "/v1/webhooks/generic/{integration_id}",
      connect: "secret",
      signing_secret_location: null,
    });
    expect(entry("search_ads")).toMatchObject({ signing_secret_location: null });
    expectApiError(await api.call("GET", "/v1/integrations/catalog", { token: null }), 401, "unauthenticated");
  });

  it("GET /v1/public/integrations: the same list without counts, no bearer needed (a bad one is refused)", async () => {
    const response = await api.call("GET", "/v1/public/integrations", { token: null });
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(PROVIDER_CATALOG.length);
    expect(response.body.data[0]).toEqual({
      provider: "payments_a",
      name: "Payments A",
      kind: "payments",
      availability: "available",
      connect: "account",
      source_type: "PAYMENTS_API",
      webhook_path: "/v1/webhooks/payments_a",
      signature_header: "X-PaymentsA-Signature",
      signing_secret_location: "Payments A dashboard → Developers → Webhooks → your endpoint → Signing secret",
      description: expect.any(String),
    });
    for (const entry of response.body.data) expect(entry).not.toHaveProperty("connected");
    // Counted per client IP (60 a minute), not per token.
    expect(response.headers.get("x-ratelimit-limit")).toBe("60");
    expect((await api.call("GET", "/v1/public/integrations")).status).toBe(200);
    expectApiError(await api.call("GET", "/v1/public/integrations", { token: "not-a-token" }), 401, "unauthenticated");
  });
});

describe("POST /v1/integrations/{provider}/sync", () => {
  async function connected(provider: string, body: Record<string, unknown> = {}) {
    const response = await connect(provider, { business_id: businessId, account_id: newAccount(), ...body });
    expect(response.status).toBe(201);
    return response.body.data.id as string;
  }
  const sync = (provider: string, body: Record<string, unknown> = {}, token?: string) =>
    api.call("POST", `/v1/integrations/${provider}/sync`, { body, ...(token ? { token } : {}) });

  it("payments_a: charges, a refund linked to its charge and a payout signal; a second sync dedupes everything", async () => {
    const integrationId = await connected("payments_a");
    const first = await sync("payments_a", { integration_id: integrationId });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      integration_id: integrationId,
      inserted: 7,
      deduped: 0,
      rejected: [],
      signals_accepted: 1,
      signals_deduped: 0,
      cash_snapshots_inserted: 0,
      cash_snapshots_deduped: 0,
      cash_snapshots_rejected: [],
    });
    const events = await api.db.financialEvent.findMany({ where: { integrationId } });
    expect(events.filter((e) => e.type === "revenue")).toHaveLength(6);
    const days = sampleDays();
    const prefix = samplePrefix(integrationId);
    const refund = events.find((e) => e.type === "refund")!;
    const charge = events.find((e) => e.externalId === `${prefix}_ch_${days[0]!.replaceAll("-", "")}_1`)!;
    expect(refund.refundsEventId).toBe(charge.id);
    expect(refund.direction).toBe("out");
    expect(refund.amountMinor).toBe(charge.amountMinor / 2n);
    expect(events.every((e) => e.sourceType === "PAYMENTS_API" && e.currency === "EUR" && e.businessId === businessId)).toBe(
      true,
    );
    expect(events.map((e) => utcDayOf(e.occurredOn)).sort()).toEqual(expect.arrayContaining(days.map((d) => d)));
    const alert = await api.db.alert.findFirstOrThrow({ where: { integrationId } });
    expect(alert).toMatchObject({ code: "integration.payout_paid", severity: "info", ownerId });
    const row = await api.db.integration.findUniqueOrThrow({ where: { id: integrationId } });
    expect(row.lastSyncAt).not.toBeNull();
    const audit = await api.db.auditEntry.findFirstOrThrow({ where: { action: "integration.synced", targetId: integrationId } });
    expect(audit).toMatchObject({ actorType: "owner", actorId: ownerId });
    expect(audit.details).toMatchObject({ provider: "payments_a", inserted: 7, signals_accepted: 1 });

    const again = await sync("payments_a", { integration_id: integrationId });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ inserted: 0, deduped: 7, rejected: [], signals_accepted: 0, signals_deduped: 1 });
    expect(await api.db.financialEvent.count({ where: { integrationId } })).toBe(7);
    expect(await api.db.alert.count({ where: { integrationId } })).toBe(1);
    expect(await api.db.auditEntry.count({ where: { action: "integration.synced", targetId: integrationId } })).toBe(2);
  });

  it("ads: daily ad_spend per campaign (social_ads and an authorized search_ads)", async () => {
    const socialId = await connected("social_ads");
    const social = await sync("social_ads", { integration_id: socialId });
    expect(social.body.data).toMatchObject({ inserted: 6, deduped: 0, signals_accepted: 0 });
    const spend = await api.db.financialEvent.findMany({ where: { integrationId: socialId } });
    expect(spend.every((e) => e.type === "ad_spend" && e.sourceType === "SOCIAL_ADS_API")).toBe(true);
    expect(new Set(spend.map((e) => (e.payload as { campaign_id: string }).campaign_id)).size).toBe(2);

    const searchId = (await connect("search_ads", { business_id: businessId, account_id: newAccount() })).body.data.id;
    await api.db.integration.update({ where: { id: searchId }, data: { status: "active", config: {} } });
    const search = await sync("search_ads", { integration_id: searchId });
    expect(search.body.data).toMatchObject({ inserted: 6 });
    expect(await api.db.financialEvent.count({ where: { integrationId: searchId, sourceType: "SEARCH_ADS_API" } })).toBe(6);
  });

  it("billing: subscription_change events, by default on the owner's only connection of the provider", async () => {
    const owner = await seedOwner(api, "billing-owner@example.test");
    const business = (await seedBusiness(api, { name: "B", currency: "USD" }, owner.token)).id;
    const none = await sync("billing_b", {}, owner.token);
    expectApiError(none, 404, "not_found");
    const id = (await connect("billing_b", { business_id: business, account_id: newAccount() }, owner.token)).body.data.id;
    const response = await sync("billing_b", {}, owner.token);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ integration_id: id, inserted: 3 });
    const events = await api.db.financialEvent.findMany({ where: { integrationId: id } });
    expect(events.every((e) => e.type === "subscription_change" && e.currency === "USD")).toBe(true);
    // What SaaS metrics read: a new subscription at its MRR.
    for (const event of events) {
      expect(event.payload).toMatchObject({
        change: "new",
        mrr_minor: Number(event.amountMinor),
        subscription_id: expect.any(String),
      });
    }

    await connect("billing_b", { business_id: business, account_id: newAccount() }, owner.token);
    const before = await counts();
    const ambiguous = await sync("billing_b", {}, owner.token);
    expectApiError(ambiguous, 400, "validation_error");
    expect(ambiguous.body.error.details.issues[0].path).toBe("integration_id");
    expect(await counts()).toEqual(before);
  });

  it("refuses pending, other providers' and other owners' integrations, and providers with nothing to sync", async () => {
    const pending = (await connect("search_ads", { business_id: businessId, account_id: newAccount() })).body.data.id;
    const generic = (await api.call("POST", "/v1/integrations/generic/connect", { body: { business_id: businessId } })).body.data
      .integration_id;
    const payments = await connected("payments_a");
    const before = await counts();
    const waiting = await sync("search_ads", { integration_id: pending });
    expectApiError(waiting, 409, "state_conflict");
    expect(waiting.body.error.message).toMatch(/OAuth/);
    expectApiError(await sync("generic", { integration_id: generic }), 409, "state_conflict");
    expectApiError(await sync("social_ads", { integration_id: payments }), 404, "not_found");
    expectApiError(await sync("payments_a", { integration_id: payments }, other.token), 404, "not_found");
    expectApiError(await sync("payments_a", { integration_id: "7d9f1a52-5c3e-4d0b-9a8e-2f6b1c0d3e4a" }), 404, "not_found");
    expectApiError(await sync("pigeon_post", {}), 404, "not_found");
    expectApiError(await sync("payments_a", { integration_id: "not-a-uuid" }), 400, "validation_error");
    expectApiError(
      await api.call("POST", "/v1/integrations/payments_a/sync", { token: null, body: { integration_id: payments } }),
      401,
      "unauthenticated",
    );
    expect(await counts()).toEqual(before);
    const row = await api.db.integration.findUniqueOrThrow({ where: { id: payments } });
    expect(row.lastSyncAt).toBeNull();
  });
});
