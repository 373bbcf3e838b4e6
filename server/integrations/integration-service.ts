// The owner's connections to sources of events: list, the catalog of what can be connected,
// connect (a generic signed webhook with its secret; a provider account, mock in this
// version; Search Ads through OAuth) and a mock sync that feeds a provider's sample through
// the ingest paths. Every query is scoped to the owner: another owner's integration or
// business is simply not_found.
import { randomBytes } from "node:crypto";
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import { requireBusiness } from "../businesses/business-service";
import { encryptSecret } from "../crypto/secret-box";
import type { TDbOrTx } from "../db/client";
import { Prisma, type Integration } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import { ingestDelivery } from "../ingest/ingest-service";
import { pageArgs, toPage, type TPageQuery } from "../shared/pagination";
import { FakeBankProvider, isBankProvider, syncBankIntegration } from "./bank-provider";
import { INTEGRATION_DTO_FIELDS, toIntegrationDto } from "./integration-dto";
import type {
  TCatalogEntry,
  TConnectGenericResult,
  TConnectResult,
  TIntegration,
  TOwnerCatalogEntry,
  TSyncResult,
} from "./integration.schema";
import { requireIntegration } from "../sources/integration-store";
import { newOAuthNonce, signOAuthState } from "./oauth-state";
import { PROVIDER_CATALOG, providerInfo, takesSigningSecret, type TProvider, type TProviderInfo } from "../sources/providers";
import { searchAdsAuthorizeUrl } from "./search-ads-oauth";
import { signingSecretIssue } from "./signing-secret";
import { updateReadIntegration } from "./update-integration";
import { buildSyncSample } from "./sync-samples";

const GENERIC_SECRET_PREFIX = "whsec_";

// --- reads ---

export async function findIntegrations(
  db: TDbOrTx,
  ownerId: string,
  query: TPageQuery & { provider?: TProvider; business_id?: string },
): Promise<{ data: TIntegration[]; page: { next_cursor: string | null; has_more: boolean } }> {
  const args = pageArgs(query);
  const rows = await db.integration.findMany({
    ...args,
    where: {
      ownerId,
      ...(query.provider ? { provider: query.provider } : {}),
      ...(query.business_id ? { businessId: query.business_id } : {}),
      ...args.where,
    },
    select: INTEGRATION_DTO_FIELDS,
  });
  const { rows: kept, page } = toPage(rows, query.limit);
  return { data: kept.map(toIntegrationDto), page };
}

function catalogEntry(info: TProviderInfo): TCatalogEntry {
  return {
    provider: info.provider,
    name: info.name,
    kind: info.kind,
    availability: info.availability,
    connect: info.connect,
    source_type: info.source_type,
    webhook_path: info.webhook_path,
    signature_header: info.signature_header,
    signing_secret_location: info.signing_secret_location,
    description: info.description,
  };
}

/** Every provider, as anyone may see it (the landing page lists them). */
export function publicCatalog(): TCatalogEntry[] {
  return PROVIDER_CATALOG.map(catalogEntry);
}

/** Every provider with the owner's active and pending connections of each. */
export async function ownerCatalog(db: TDbOrTx, ownerId: string): Promise<TOwnerCatalogEntry[]> {
  const counts = await db.integration.groupBy({
    by: ["provider", "status"],
    where: { ownerId, status: { in: ["active", "pending"] } },
    _count: { _all: true },
  });
  const count = (provider: string, status: string) =>
    counts.find((c) => c.provider === provider && c.status === status)?._count._all ?? 0;
  return PROVIDER_CATALOG.map((info) => ({
    ...catalogEntry(info),
    connected: count(info.provider, "active"),
    pending: count(info.provider, "pending"),
  }));
}

// --- connect ---

function webhookUrl(integrationId: string): string {
  return `${getEnv().publicBaseUrl.replace(/\/+$/, "")}/v1/webhooks/generic/${integrationId}`;
}

/** A generic signed webhook: its secret is answered once and stored only encrypted. */
export async function connectGenericIntegration(
  db: TDbOrTx,
  caller: TCaller,
  input: { business_id: string; name?: string },
): Promise<TConnectGenericResult> {
  await requireBusiness(db, caller.ownerId, input.business_id);
  const secret = `${GENERIC_SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
  const secretEncrypted = await encryptSecret(secret);
  return inTransaction(db, async (tx) => {
    const row = await tx.integration.create({
      data: {
        ownerId: caller.ownerId,
        provider: "generic",
        name: input.name ?? providerInfo("generic")!.name,
        businessId: input.business_id,
        status: "active",
        secretEncrypted,
      },
      select: { id: true, businessId: true },
    });
    await auditCaller(
      tx,
      caller,
      "integration.connected",
      { type: "integration", id: row.id },
      { provider: "generic", business_id: row.businessId },
    );
    return { integration_id: row.id, secret, webhook_url: webhookUrl(row.id) };
  });
}

/** The provider of a path, or 404 for one that does not exist. */
function requireProvider(provider: string): TProviderInfo {
  const info = providerInfo(provider);
  if (!info) throw new AppError("not_found", `No integration provider ${provider}.`);
  return info;
}

/** Why a provider cannot be connected with POST /v1/integrations/{provider}/connect, if it cannot. */
function connectRefusal(info: TProviderInfo): AppError | null {
  if (info.availability === "coming_soon") {
    return new AppError("state_conflict", `${info.name} is coming soon; it cannot be connected yet.`, {
      details: { provider: info.provider, availability: info.availability },
    });
  }
  if (info.connect === "internal") {
    return new AppError(
      "state_conflict",
      `${info.name} is connected by the service itself: the first statement import (POST /v1/imports) creates it.`,
      { details: { provider: info.provider } },
    );
  }
  if (info.connect === "secret") {
    return new AppError("state_conflict", "Connect a generic webhook with POST /v1/integrations/generic/connect.", {
      details: { provider: info.provider },
    });
  }
  return null;
}

/**
 * Connects a provider account (active at once) or starts a Search Ads OAuth authorization
 * (pending until its callback). A webhook platform's account is connected with the signing
 * secret the platform shows its holder (signing-secret.ts): several owners may name the same
 * account, and a delivery reaches only the connections whose secret verifies it, so nobody
 * learns from connect that someone else named it. One owner connects an account once (409 for
 * their own active one; their disconnected one comes back). A Search Ads customer id stays
 * one owner's (its relay is signed by the service, so the id alone routes it).
 */
export async function connectIntegration(
  db: TDbOrTx,
  caller: TCaller,
  provider: string,
  input: { business_id: string; account_id?: string; signing_secret?: string; name?: string },
): Promise<TConnectResult> {
  const info = requireProvider(provider);
  const refusal = connectRefusal(info);
  if (refusal) throw refusal;
  const oauth = info.connect === "oauth";
  // search_ads too: its relay's deliveries find the owner by customer_id, the account here.
  const accountIssue =
    input.account_id === undefined
      ? { path: "account_id", message: `required for ${info.provider}: its deliveries name the account` }
      : null;
  const issues = [accountIssue, signingSecretIssue(info, input.signing_secret)].filter((issue) => issue !== null);
  if (issues.length > 0) throw AppError.invalidFields([issues[0]!, ...issues.slice(1)]);
  await requireBusiness(db, caller.ownerId, input.business_id);
  const nonce = oauth ? newOAuthNonce() : null;
  const secretEncrypted = input.signing_secret === undefined ? null : await encryptSecret(input.signing_secret);

  return inTransaction(db, async (tx) => {
    // ON CONFLICT DO NOTHING on (provider, account_id, owner) (and a Search Ads customer id's own
    // index): an account this owner holds returns no row, and a concurrent connect of the same
    // account cannot slip past a read-then-insert.
    const [row] = await tx.integration.createManyAndReturn({
      data: [
        {
          ownerId: caller.ownerId,
          provider: info.provider,
          name: input.name ?? info.name,
          businessId: input.business_id,
          status: oauth ? "pending" : "active",
          accountId: input.account_id ?? null,
          secretEncrypted,
          config: (nonce ? { oauth_nonce: nonce } : undefined) as Prisma.InputJsonObject | undefined,
        },
      ],
      skipDuplicates: true,
      select: INTEGRATION_DTO_FIELDS,
    });
    if (!row) {
      // The owner's own disconnected connection of this account comes back (its history and its
      // events' keys with it) with the secret given now; the owner's active one, or another
      // owner's Search Ads customer id, is taken.
      const again = await tx.integration.updateManyAndReturn({
        where: { ownerId: caller.ownerId, provider: info.provider, accountId: input.account_id, status: "disconnected" },
        data: {
          status: oauth ? "pending" : "active",
          businessId: input.business_id,
          secretEncrypted,
          ...(input.name ? { name: input.name } : {}),
          config: (nonce ? { oauth_nonce: nonce } : undefined) as Prisma.InputJsonObject | undefined,
        },
        select: INTEGRATION_DTO_FIELDS,
      });
      if (again[0]) {
        await auditCaller(
          tx,
          caller,
          "integration.reconnected",
          { type: "integration", id: again[0].id },
          {
            provider: again[0].provider,
            business_id: again[0].businessId,
            account_id: again[0].accountId,
            status: again[0].status,
          },
        );
        const url = nonce
          ? searchAdsAuthorizeUrl(await signOAuthState({ owner: caller.ownerId, integration: again[0].id, nonce }))
          : null;
        return { ...toIntegrationDto(again[0]), authorize_url: url };
      }
      throw new AppError("state_conflict", `This ${info.name} account is already connected.`, {
        details: { provider: info.provider, account_id: input.account_id },
      });
    }
    await auditCaller(
      tx,
      caller,
      "integration.connected",
      { type: "integration", id: row.id },
      { provider: row.provider, business_id: row.businessId, account_id: row.accountId, status: row.status },
    );
    const authorizeUrl = nonce
      ? searchAdsAuthorizeUrl(await signOAuthState({ owner: caller.ownerId, integration: row.id, nonce }))
      : null;
    return { ...toIntegrationDto(row), authorize_url: authorizeUrl };
  });
}

// --- an agent's connect_integration request, approved ---

export type TConnectRequestOutcome = {
  status: "connected" | "action_required" | "not_connectable";
  data: {
    connected: boolean;
    provider: string | null;
    integration_ids?: string[];
    /** The owner's operation that makes the connection, or null when none can. */
    next_step: { method: "GET" | "POST"; path: string; required?: string[] } | null;
    message: string;
  };
};

/**
 * What approving an agent's connect_integration request means. The approval does not connect
 * anything itself: a connection needs what only the owner has (the business it feeds, the
 * provider account that routes its webhooks and the signing secret its platform shows, an OAuth
 * consent in their browser, a generic secret shown once to whoever connects), so it is made by
 * the owner's own connect operation. The outcome says whether the owner already has an active connection of that provider, or
 * exactly which operation remains — never a success that connected nothing.
 */
export async function connectRequestOutcome(
  db: TDbOrTx,
  ownerId: string,
  provider: string | null,
): Promise<TConnectRequestOutcome> {
  if (provider === null) {
    return {
      status: "action_required",
      data: {
        connected: false,
        provider,
        next_step: { method: "GET", path: "/v1/integrations/catalog" },
        message: "Nothing is connected yet: choose a provider in GET /v1/integrations/catalog and connect it.",
      },
    };
  }
  const info = providerInfo(provider);
  const refusal = info ? connectRefusal(info) : null;
  if (!info || (refusal && info.connect !== "secret")) {
    return {
      status: "not_connectable",
      data: {
        connected: false,
        provider,
        next_step: null,
        message: info ? `Nothing is connected: ${refusal!.message}` : `Nothing is connected: there is no provider ${provider}.`,
      },
    };
  }
  const active = await db.integration.findMany({
    where: { ownerId, provider: info.provider, status: "active" },
    select: { id: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  if (active.length > 0) {
    return {
      status: "connected",
      data: {
        connected: true,
        provider,
        integration_ids: active.map((row) => row.id),
        next_step: null,
        message: `${info.name} is connected.`,
      },
    };
  }
  const generic = info.connect === "secret";
  const path = generic ? "/v1/integrations/generic/connect" : `/v1/integrations/${info.provider}/connect`;
  const required = generic
    ? ["business_id"]
    : ["business_id", "account_id", ...(takesSigningSecret(info) ? ["signing_secret"] : [])];
  const then = info.connect === "oauth" ? ", then authorize access at the authorize_url it answers" : "";
  return {
    status: "action_required",
    data: {
      connected: false,
      provider,
      next_step: { method: "POST", path, required },
      message: `Nothing is connected yet: connect ${info.name} with POST ${path} (${required.join(", ")})${then}.`,
    },
  };
}

// --- sync ---

/** The integration a sync names, or the owner's only one of that provider. */
async function syncTarget(db: TDbOrTx, ownerId: string, info: TProviderInfo, integrationId?: string): Promise<Integration> {
  if (integrationId !== undefined) {
    const row = await requireIntegration(db, ownerId, integrationId);
    if (row.provider !== info.provider) throw new AppError("not_found", `No such ${info.provider} integration.`);
    return row;
  }
  const rows = await db.integration.findMany({
    where: { ownerId, provider: info.provider },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 2,
  });
  if (rows.length === 0) throw new AppError("not_found", `No ${info.provider} integration is connected.`);
  if (rows.length > 1) {
    throw AppError.invalidField("integration_id", `required: several ${info.provider} integrations are connected`);
  }
  return rows[0]!;
}

/**
 * Disconnects one of the owner's integrations: its webhooks are refused from now on (401, as
 * for an unknown one: a generic integration's path, a provider account's deliveries), syncs
 * answer 409, its secret and credentials are wiped; its events, signals and alerts are kept.
 * Connecting the same provider account again brings the connection back. The statement
 * import's own integration cannot be disconnected (409). Audited.
 */
export async function disconnectIntegration(db: TDbOrTx, caller: TCaller, id: string): Promise<TIntegration> {
  return inTransaction(db, async (tx) => {
    const row = await requireIntegration(tx, caller.ownerId, id);
    if (row.provider === "manual_import") {
      throw new AppError("state_conflict", "Statement imports use this connection; it cannot be disconnected.", {
        details: { provider: row.provider },
      });
    }
    if (row.status === "disconnected") {
      throw new AppError("state_conflict", "This integration is already disconnected.", { details: { status: row.status } });
    }
    return updateReadIntegration(
      tx,
      caller,
      row,
      { status: "disconnected", secretEncrypted: null, credentialsEncrypted: null, config: Prisma.DbNull },
      {
        action: "integration.disconnected",
        details: { provider: row.provider, business_id: row.businessId, account_id: row.accountId, previous_status: row.status },
      },
    );
  });
}

/**
 * A mock sync: the provider's deterministic sample of the last days goes through the ingest
 * path (events, signals; balances and transactions for a bank), so a repeat the same day
 * dedupes everything. last_sync_at is set by the ingest path; `integration.synced` is audited
 * in the same transaction.
 */
export async function syncIntegration(
  db: TDbOrTx,
  caller: TCaller,
  provider: string,
  input: { integration_id?: string },
): Promise<TSyncResult> {
  const info = requireProvider(provider);
  const row = await syncTarget(db, caller.ownerId, info, input.integration_id);
  if (row.status === "pending") {
    throw new AppError("state_conflict", "This integration waits for its authorization (OAuth); finish connecting it first.", {
      details: { status: row.status },
    });
  }
  if (row.status !== "active") {
    throw new AppError("state_conflict", `This integration is ${row.status}; it cannot sync.`, {
      details: { status: row.status },
    });
  }
  if (isBankProvider(row.provider)) {
    const client = new FakeBankProvider({ provider: row.provider, integrationId: row.id });
    return syncBankIntegration(db, { ownerId: caller.ownerId, integrationId: row.id, caller }, client, {
      requestId: caller.requestId,
    });
  }
  if (info.connect === "secret" || info.connect === "internal") {
    throw new AppError(
      "state_conflict",
      info.connect === "secret"
        ? "A generic integration receives signed deliveries; there is nothing to sync."
        : "Statement imports arrive by upload (POST /v1/imports); there is nothing to sync.",
      { details: { provider: info.provider } },
    );
  }
  const currency = row.businessId
    ? (await requireBusiness(db, caller.ownerId, row.businessId)).currency
    : (await db.owner.findUniqueOrThrow({ where: { id: caller.ownerId }, select: { baseCurrency: true } })).baseCurrency;
  const sample = buildSyncSample({ integrationId: row.id, provider: info, accountId: row.accountId, currency });

  return inTransaction(db, async (tx) => {
    const delivery = await ingestDelivery(tx, caller.ownerId, sample, { requestId: caller.requestId });
    const result: TSyncResult = {
      integration_id: row.id,
      ...delivery,
      cash_snapshots_inserted: 0,
      cash_snapshots_deduped: 0,
      cash_snapshots_rejected: [],
    };
    await auditCaller(
      tx,
      caller,
      "integration.synced",
      { type: "integration", id: row.id },
      {
        provider: row.provider,
        inserted: result.inserted,
        deduped: result.deduped,
        rejected: result.rejected.length,
        signals_accepted: result.signals_accepted,
        signals_deduped: result.signals_deduped,
      },
    );
    return result;
  });
}
