// Bank providers (read only) with the deterministic fake: credentials stored per owner and
// encrypted, balances written as real cash snapshots (one per account and day, a later as_of
// overwrites), transactions through the event path, repeats deduped; not connectable through
// the API while coming_soon, but an existing connection syncs through the bank path.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayUtc } from "../../lib/days";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, seedOwner, staticOwner } from "../../test/helpers/seed";
import type { TCaller } from "../auth/caller";
import { decryptJson } from "../crypto/secret-box";
import { isAppError } from "../errors/app-error";
import { bankCredentials, connectBankProvider, FakeBankProvider, syncBankIntegration } from "./bank-provider";

let api: TTestApi;
let ownerId: string;
let businessId: string;
let caller: TCaller;
let othersBusinessId: string;

const API_KEY = "bpa_live_sk_9f8e7d6c5b4a39281706f5e4d3c2b1a0";

beforeAll(async () => {
  api = await createTestApi();
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api, { name: "Bank Co" })).id;
  caller = {
    ownerId,
    actor: { type: "owner", ownerId, credential: "static", tokenKey: "test" },
    requestId: "req_bank_test",
    now: new Date(),
  };
  const other = await seedOwner(api, "bank-other@example.test");
  othersBusinessId = (await seedBusiness(api, { name: "Theirs" }, other.token)).id;
});
afterAll(async () => api?.close());

async function rejects(promise: Promise<unknown>): Promise<{ code: string; status: number }> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, status: error.status };
    throw error;
  }
  throw new Error("expected an AppError");
}

const startOfToday = () => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
};
const today = () => todayUtc();

async function newBankIntegration(provider = "bank_provider_a") {
  return connectBankProvider(api.db, caller, { provider, business_id: businessId, credentials: { api_key: API_KEY } });
}

describe("connectBankProvider", () => {
  it("stores the connection with its credentials encrypted, audited, never in the answer", async () => {
    const integration = await newBankIntegration();
    expect(integration).toMatchObject({
      provider: "bank_provider_a",
      kind: "bank",
      name: "Bank provider A",
      business_id: businessId,
      status: "active",
      account_id: null,
    });
    expect(JSON.stringify(integration)).not.toContain(API_KEY);
    const row = await api.db.integration.findUniqueOrThrow({ where: { id: integration.id } });
    expect(row.ownerId).toBe(ownerId);
    const stored = Buffer.from(row.credentialsEncrypted!);
    expect(stored.includes(Buffer.from(API_KEY))).toBe(false);
    expect(stored.toString("latin1")).not.toContain(API_KEY);
    expect(await decryptJson(row.credentialsEncrypted!)).toEqual({ api_key: API_KEY });
    expect(await bankCredentials(row)).toEqual({ api_key: API_KEY });
    expect(row.secretEncrypted).toBeNull();
    expect(JSON.stringify(row.config)).not.toContain(API_KEY);
    const audit = await api.db.auditEntry.findFirstOrThrow({
      where: { action: "integration.connected", targetId: integration.id },
    });
    expect(JSON.stringify(audit)).not.toContain(API_KEY);
    const listed = await api.call("GET", "/v1/integrations?provider=bank_provider_a");
    expect(listed.body.data.map((i: { id: string }) => i.id)).toContain(integration.id);
    expect(listed.text).not.toContain(API_KEY);
  });

  it("refuses a provider that is not a bank (404), another owner's business (404), an empty key (400); nothing written", async () => {
    const before = await api.db.integration.count();
    const input = { business_id: businessId, credentials: { api_key: API_KEY } };
    expect(await rejects(connectBankProvider(api.db, caller, { ...input, provider: "payments_a" }))).toEqual({
      code: "not_found",
      status: 404,
    });
    expect(
      await rejects(
        connectBankProvider(api.db, caller, { ...input, provider: "bank_provider_b", business_id: othersBusinessId }),
      ),
    ).toEqual({ code: "not_found", status: 404 });
    expect(
      await rejects(connectBankProvider(api.db, caller, { ...input, provider: "bank_provider_b", credentials: { api_key: "" } })),
    ).toEqual({ code: "validation_error", status: 400 });
    expect(await api.db.integration.count()).toBe(before);
  });

  it("is not reachable through the API while coming_soon (409), writing nothing", async () => {
    const before = await api.db.integration.count();
    const response = await api.call("POST", "/v1/integrations/bank_provider_a/connect", {
      body: { business_id: businessId, account_id: "acc-1" },
    });
    expectApiError(response, 409, "state_conflict", { details: { availability: "coming_soon" } });
    expect(await api.db.integration.count()).toBe(before);
  });
});

describe("syncBankIntegration", () => {
  it("writes balances as real snapshots and transactions as events; a second sync dedupes", async () => {
    const integration = await newBankIntegration();
    const bank = new FakeBankProvider({ provider: "bank_provider_a", integrationId: integration.id });
    const [main, usd] = await bank.listAccounts();
    const t0 = new Date(startOfToday() + 10_000).toISOString();
    bank.setBalance(main!.account_id, { amount_minor: 1_234_500, as_of: t0 });
    bank.setBalance(usd!.account_id, { amount_minor: -2_500, as_of: t0 });

    const first = await syncBankIntegration(api.db, { ownerId, integrationId: integration.id, caller }, bank);
    expect(first).toEqual({
      integration_id: integration.id,
      inserted: 20,
      deduped: 0,
      rejected: [],
      signals_accepted: 0,
      signals_deduped: 0,
      cash_snapshots_inserted: 2,
      cash_snapshots_deduped: 0,
      cash_snapshots_rejected: [],
    });
    const snapshots = await api.db.cashSnapshot.findMany({
      where: { integrationId: integration.id },
      orderBy: { accountId: "asc" },
    });
    expect(snapshots).toHaveLength(2);
    const mainSnapshot = snapshots.find((s) => s.accountId === main!.account_id)!;
    expect(mainSnapshot).toMatchObject({
      ownerId,
      businessId,
      amountMinor: 1_234_500n,
      currency: "EUR",
      dataClass: "real",
      sourceType: "IMPORT",
      externalId: `bank_provider_a:${main!.account_id}:${today()}`,
      ibanLast4: main!.iban_last4,
    });
    expect(snapshots.find((s) => s.accountId === usd!.account_id)).toMatchObject({ amountMinor: -2_500n, currency: "USD" });
    const events = await api.db.financialEvent.findMany({ where: { integrationId: integration.id } });
    expect(events).toHaveLength(20);
    expect(events.every((e) => e.businessId === businessId && e.sourceType === "IMPORT" && e.status === "confirmed")).toBe(true);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(["revenue", "expense"]));
    const row = await api.db.integration.findUniqueOrThrow({ where: { id: integration.id } });
    expect(row.lastSyncAt).not.toBeNull();
    expect(await api.db.auditEntry.count({ where: { action: "integration.synced", targetId: integration.id } })).toBe(1);

    // The second sync re-reads the last days only, and changes nothing.
    const second = await syncBankIntegration(api.db, { ownerId, integrationId: integration.id, caller }, bank);
    expect(second).toMatchObject({ inserted: 0, deduped: 6, cash_snapshots_inserted: 0, cash_snapshots_deduped: 2 });
    expect(bank.calls.filter((c) => c.startsWith(`listTransactions:${main!.account_id}`))).toEqual([
      `listTransactions:${main!.account_id}:${addDays(today(), -30)}`,
      `listTransactions:${main!.account_id}:${addDays(today(), -3)}`,
    ]);
    expect(await api.db.financialEvent.count({ where: { integrationId: integration.id } })).toBe(20);
    expect(await api.db.cashSnapshot.count({ where: { integrationId: integration.id } })).toBe(2);
  });

  it("overwrites the day's balance only with a later as_of", async () => {
    const integration = await newBankIntegration("bank_provider_b");
    const bank = new FakeBankProvider({ provider: "bank_provider_b", integrationId: integration.id });
    const [main, usd] = await bank.listAccounts();
    const at = (seconds: number) => new Date(startOfToday() + seconds * 1000).toISOString();
    bank.setBalance(usd!.account_id, { amount_minor: 5, as_of: at(20) });
    bank.setBalance(main!.account_id, { amount_minor: 100, as_of: at(20) });
    await syncBankIntegration(api.db, { ownerId, integrationId: integration.id }, bank);

    bank.setBalance(main!.account_id, { amount_minor: 300, as_of: at(40) });
    const later = await syncBankIntegration(api.db, { ownerId, integrationId: integration.id }, bank);
    expect(later).toMatchObject({ cash_snapshots_inserted: 1, cash_snapshots_deduped: 1 });
    const stored = () =>
      api.db.cashSnapshot.findUniqueOrThrow({
        where: {
          ownerId_scope_externalId: {
            ownerId,
            scope: `business:${businessId}`,
            externalId: `bank_provider_b:${main!.account_id}:${today()}`,
          },
        },
      });
    expect(await stored()).toMatchObject({ amountMinor: 300n, asOf: new Date(at(40)) });

    bank.setBalance(main!.account_id, { amount_minor: 999, as_of: at(30) });
    const earlier = await syncBankIntegration(api.db, { ownerId, integrationId: integration.id }, bank);
    expect(earlier).toMatchObject({ cash_snapshots_inserted: 0, cash_snapshots_deduped: 2 });
    expect(await stored()).toMatchObject({ amountMinor: 300n });
    // Without a caller (a job), the system is the actor.
    const audit = await api.db.auditEntry.findFirstOrThrow({ where: { action: "integration.synced", targetId: integration.id } });
    expect(audit.actorType).toBe("system");
  });

  it("reports a balance the snapshot path refuses, and still writes the rest", async () => {
    const integration = await newBankIntegration();
    const bank = new FakeBankProvider({
      provider: "bank_provider_a",
      integrationId: integration.id,
      accounts: [
        { account_id: "acc-good", name: "Good", currency: "EUR", iban_last4: "1234" },
        { account_id: "acc-brl", name: "Reais", currency: "BRL", iban_last4: "5678" },
      ],
    });
    bank.setBalance("acc-good", { amount_minor: 10, as_of: new Date(startOfToday() + 1000).toISOString() });
    bank.setBalance("acc-brl", { amount_minor: 10, as_of: new Date(startOfToday() + 1000).toISOString() });
    const result = await syncBankIntegration(api.db, { ownerId, integrationId: integration.id }, bank);
    expect(result.cash_snapshots_inserted).toBe(1);
    expect(result.cash_snapshots_rejected).toEqual([expect.objectContaining({ index: 1, code: "currency_unsupported" })]);
    expect(result.rejected.every((r) => r.code === "currency_unsupported")).toBe(true);
    expect(await api.db.cashSnapshot.count({ where: { integrationId: integration.id } })).toBe(1);
  });

  it("refuses another owner's integration (404) and one that is not active (409), writing nothing", async () => {
    const integration = await newBankIntegration();
    const bank = new FakeBankProvider({ provider: "bank_provider_a", integrationId: integration.id });
    const stranger = await seedOwner(api, "bank-stranger@example.test");
    expect(
      await rejects(syncBankIntegration(api.db, { ownerId: stranger.ownerId, integrationId: integration.id }, bank)),
    ).toEqual({
      code: "not_found",
      status: 404,
    });
    await api.db.integration.update({ where: { id: integration.id }, data: { status: "disconnected" } });
    expect(await rejects(syncBankIntegration(api.db, { ownerId, integrationId: integration.id }, bank))).toEqual({
      code: "state_conflict",
      status: 409,
    });
    const generic = await api.call("POST", "/v1/integrations/generic/connect", { body: { business_id: businessId } });
    expect(
      await rejects(syncBankIntegration(api.db, { ownerId, integrationId: generic.body.data.integration_id }, bank)),
    ).toEqual({ code: "not_found", status: 404 });
    expect(bank.calls).toEqual([]);
    expect(await api.db.cashSnapshot.count({ where: { integrationId: integration.id } })).toBe(0);
    expect(await api.db.financialEvent.count({ where: { integrationId: integration.id } })).toBe(0);
  });

  it("syncs an existing bank connection through POST /v1/integrations/{provider}/sync (the fake bank)", async () => {
    const integration = await newBankIntegration("bank_provider_b");
    const response = await api.call("POST", "/v1/integrations/bank_provider_b/sync", {
      body: { integration_id: integration.id },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      integration_id: integration.id,
      inserted: 20,
      cash_snapshots_inserted: 2,
      cash_snapshots_rejected: [],
    });
    const again = await api.call("POST", "/v1/integrations/bank_provider_b/sync", { body: { integration_id: integration.id } });
    // The fake's balances are as of its clock: a later as_of the same day overwrites, never adds.
    expect(again.body.data).toMatchObject({ inserted: 0, deduped: 6 });
    expect(again.body.data.cash_snapshots_inserted + again.body.data.cash_snapshots_deduped).toBe(2);
    expect(await api.db.cashSnapshot.count({ where: { integrationId: integration.id } })).toBe(2);
    expect(
      await api.db.auditEntry.count({ where: { action: "integration.synced", targetId: integration.id, actorType: "owner" } }),
    ).toBe(2);
  });
});
