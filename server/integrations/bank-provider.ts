// Bank providers (contract: Bank provider (read only)): a client per connection lists the
// accounts, their transactions and balances. Balances become cash snapshots (data_class real,
// external_id <provider>:<account_id>:<YYYY-MM-DD>) and transactions become events, both
// through the ingest paths. The provider's credentials are stored per owner, encrypted
// (credentialsEncrypted). bank_provider_a/b are coming_soon: the API refuses to connect them,
// so only this module creates their connections; a fake provider stands in for the real ones.
import { createHash } from "node:crypto";
import { addDays, todayUtc, utcDayOf } from "../../lib/days";
import type { TCaller } from "../auth/caller";
import { auditCaller, recordAudit } from "../audit/audit-service";
import { requireBusiness } from "../businesses/business-service";
import { decryptJson, encryptJson } from "../crypto/secret-box";
import type { TDbOrTx } from "../db/client";
import type { Integration } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { ingestCashSnapshots, ingestEvents, type TIngestOptions } from "../ingest/ingest-service";
import type { TNormalizedEvent } from "../ingest/ingest.schema";
import type { TIntegration, TSyncResult } from "./integration.schema";
import { requireIntegration, touchLastSync } from "../sources/integration-store";
import { toIntegrationDto } from "./integration-dto";
import { BANK_PROVIDERS, providerInfo, type TBankProvider } from "../sources/providers";

export type TBankAccount = { account_id: string; name: string; currency: string; iban_last4: string };
export type TBankBalance = { amount_minor: number; currency: string; as_of: string };

/** What a bank provider answers (read only). */
export type TBankProviderClient = {
  listAccounts(): Promise<TBankAccount[]>;
  /** Transactions of the account booked on or after `since` (YYYY-MM-DD), as NormalizedEvents. */
  listTransactions(accountId: string, since: string): Promise<TNormalizedEvent[]>;
  getBalance(accountId: string): Promise<TBankBalance>;
};

/** What a bank connection stores encrypted. */
export type TBankCredentials = { api_key: string; [key: string]: unknown };

export function isBankProvider(value: string): value is TBankProvider {
  return (BANK_PROVIDERS as readonly string[]).includes(value);
}

/** How far back the first sync reads transactions; later syncs re-read a few days before the last. */
const FIRST_SYNC_DAYS = 30;
const RESYNC_OVERLAP_DAYS = 3;

// --- the fake provider (tests and the mock sync) ---

export type TFakeBankOptions = {
  provider: TBankProvider;
  integrationId: string;
  /** Seeds the deterministic accounts, transactions and balances (default: the integration id). */
  seed?: string;
  /** The provider's clock: balances are "as of" it, transactions end on its day. */
  now?: () => Date;
  accounts?: TBankAccount[];
};

/**
 * A deterministic bank: two accounts (EUR, USD), one transaction a day per account over the
 * last 10 days (even days money in, odd days money out), balances as of its clock. Tests set a
 * balance explicitly with setBalance.
 */
export class FakeBankProvider implements TBankProviderClient {
  readonly calls: string[] = [];
  private readonly balances = new Map<string, TBankBalance>();
  private readonly accounts: TBankAccount[];
  private readonly seed: string;
  private readonly now: () => Date;

  constructor(private readonly options: TFakeBankOptions) {
    this.seed = options.seed ?? options.integrationId;
    this.now = options.now ?? (() => new Date());
    const tag = this.hash("accounts").toString(16).padStart(8, "0").slice(0, 6);
    this.accounts = options.accounts ?? [
      { account_id: `acc_${tag}_main`, name: "Main account", currency: "EUR", iban_last4: this.last4("main") },
      { account_id: `acc_${tag}_usd`, name: "USD account", currency: "USD", iban_last4: this.last4("usd") },
    ];
  }

  private hash(label: string): number {
    return createHash("sha256").update(`${this.seed}|${label}`).digest().readUInt32BE(0);
  }

  private last4(label: string): string {
    return String(this.hash(`iban:${label}`) % 10_000).padStart(4, "0");
  }

  setBalance(accountId: string, balance: { amount_minor: number; as_of: string; currency?: string }): void {
    const account = this.account(accountId);
    this.balances.set(accountId, { currency: account.currency, ...balance });
  }

  private account(accountId: string): TBankAccount {
    const account = this.accounts.find((a) => a.account_id === accountId);
    if (!account) throw new Error(`No account ${accountId} at the fake bank`);
    return account;
  }

  async listAccounts(): Promise<TBankAccount[]> {
    this.calls.push("listAccounts");
    return this.accounts.map((a) => ({ ...a }));
  }

  async getBalance(accountId: string): Promise<TBankBalance> {
    this.calls.push(`getBalance:${accountId}`);
    const account = this.account(accountId);
    const set = this.balances.get(accountId);
    if (set) return { ...set };
    const now = this.now();
    return {
      amount_minor: 100_000 + (this.hash(`balance:${accountId}:${todayUtc(now)}`) % 900_000),
      currency: account.currency,
      as_of: now.toISOString(),
    };
  }

  async listTransactions(accountId: string, since: string): Promise<TNormalizedEvent[]> {
    this.calls.push(`listTransactions:${accountId}:${since}`);
    const account = this.account(accountId);
    const today = todayUtc(this.now());
    const events: TNormalizedEvent[] = [];
    for (let back = 10; back >= 1; back--) {
      const day = addDays(today, -back);
      if (day < since) continue;
      const incoming = Number(day.slice(8, 10)) % 2 === 0;
      events.push({
        integration_id: this.options.integrationId,
        external_id: `${this.options.provider}:${accountId}:tx:${day.replaceAll("-", "")}:1`,
        type: incoming ? "revenue" : "expense",
        state: "actual",
        amount_minor: 500 + (this.hash(`tx:${accountId}:${day}`) % 50_000),
        currency: account.currency,
        occurred_on: day,
        category: incoming ? "transfer_in" : "bank",
        description: incoming ? "Incoming transfer (sample)" : "Card payment (sample)",
        source_type: "IMPORT",
        payload: { account_id: accountId },
      });
    }
    return events;
  }
}

// --- connections ---

/**
 * Stores a bank provider connection for the caller, with its credentials encrypted (AES-256-GCM
 * under ENCRYPTION_KEY; never in config, audit or any answer). Not exposed by the API while the
 * providers are coming_soon.
 */
export async function connectBankProvider(
  db: TDbOrTx,
  caller: TCaller,
  input: { provider: string; business_id: string; credentials: TBankCredentials; name?: string },
): Promise<TIntegration> {
  if (!isBankProvider(input.provider)) throw new AppError("not_found", `${input.provider} is not a bank provider.`);
  if (typeof input.credentials?.api_key !== "string" || input.credentials.api_key.length === 0) {
    throw AppError.invalidField("credentials.api_key", "must not be empty");
  }
  await requireBusiness(db, caller.ownerId, input.business_id);
  const credentialsEncrypted = await encryptJson(input.credentials);
  const info = providerInfo(input.provider)!;
  return inTransaction(db, async (tx) => {
    const row = await tx.integration.create({
      data: {
        ownerId: caller.ownerId,
        provider: input.provider,
        name: input.name ?? info.name,
        businessId: input.business_id,
        status: "active",
        credentialsEncrypted,
      },
    });
    await auditCaller(
      tx,
      caller,
      "integration.connected",
      { type: "integration", id: row.id },
      { provider: row.provider, business_id: row.businessId },
    );
    return toIntegrationDto(row);
  });
}

/** The stored credentials of a bank connection (decrypted only to build its client). */
export async function bankCredentials(row: Pick<Integration, "credentialsEncrypted">): Promise<TBankCredentials | null> {
  return row.credentialsEncrypted ? decryptJson<TBankCredentials>(row.credentialsEncrypted) : null;
}

/**
 * Reads every account of a bank connection through `client` and writes balances (snapshot path)
 * and transactions (event path) in one transaction, with last_sync_at and an
 * `integration.synced` audit entry (by the caller, or the system for a job). The provider is
 * called before the transaction opens, so no transaction waits on the network.
 */
export async function syncBankIntegration(
  db: TDbOrTx,
  target: { ownerId: string; integrationId: string; caller?: TCaller },
  client: TBankProviderClient,
  options: TIngestOptions = {},
): Promise<TSyncResult> {
  const row = await requireIntegration(db, target.ownerId, target.integrationId);
  if (!isBankProvider(row.provider)) throw new AppError("not_found", "No such bank integration.");
  if (row.status !== "active") throw new AppError("state_conflict", `This integration is ${row.status}; it cannot sync.`);
  const now = options.now ?? new Date();
  const today = todayUtc(now);
  const since = row.lastSyncAt ? addDays(utcDayOf(row.lastSyncAt), -RESYNC_OVERLAP_DAYS) : addDays(today, -FIRST_SYNC_DAYS);

  const accounts = await client.listAccounts();
  const balances: unknown[] = [];
  const transactions: unknown[] = [];
  for (const account of accounts) {
    const balance = await client.getBalance(account.account_id);
    balances.push({
      ...(row.businessId ? { business_id: row.businessId } : { personal: true }),
      amount_minor: balance.amount_minor,
      currency: balance.currency,
      as_of: balance.as_of,
      provenance: { source: { type: providerInfo(row.provider)!.source_type, integration_id: row.id } },
      payload: { account_id: account.account_id, iban_last4: account.iban_last4 },
    });
    // The connection's own id and the account it was read from, whatever the provider wrote.
    for (const event of await client.listTransactions(account.account_id, since)) {
      transactions.push({ ...event, integration_id: row.id, payload: { ...event.payload, account_id: account.account_id } });
    }
  }

  return inTransaction(db, async (tx) => {
    const cash = await ingestCashSnapshots(tx, target.ownerId, balances, options);
    const events = transactions.length
      ? await ingestEvents(tx, target.ownerId, transactions, options)
      : { inserted: 0, deduped: 0, rejected: [] };
    await touchLastSync(tx, [row.id], now);
    const result: TSyncResult = {
      integration_id: row.id,
      ...events,
      signals_accepted: 0,
      signals_deduped: 0,
      cash_snapshots_inserted: cash.inserted,
      cash_snapshots_deduped: cash.deduped,
      cash_snapshots_rejected: cash.rejected,
    };
    const details = {
      provider: row.provider,
      accounts: accounts.length,
      inserted: result.inserted,
      deduped: result.deduped,
      rejected: result.rejected.length,
      cash_snapshots_inserted: cash.inserted,
      cash_snapshots_deduped: cash.deduped,
      cash_snapshots_rejected: cash.rejected.length,
    };
    const ref = { type: "integration", id: row.id };
    if (target.caller) await auditCaller(tx, target.caller, "integration.synced", ref, details);
    else
      await recordAudit(tx, {
        ownerId: target.ownerId,
        actor: { type: "system" },
        action: "integration.synced",
        target: ref,
        details,
      });
    return result;
  });
}
