// The webhook receivers' rules (contract: Events, Webhook receivers; Authentication 7).
// Order for every delivery: who it may be for (the generic path's integration; the accounts a
// platform's body names) → signature (and timestamp) over the raw bytes with that connection's
// secret → parse and validate → map → ingest in one transaction. Anything wrong before the
// ingest answers 401 or 400 and writes nothing.
import { z } from "zod";
import type { TDbOrTx, TTx } from "../db/client";
import { inTransaction } from "../db/transaction";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import { ingestDeliveryInTx } from "../ingest/ingest-service";
import { rejectionOf } from "../ingest/item-checks";
import { ZIntegrationSignal, type TDeliveryResult, type TIntegrationSignal, type TRejectedItem } from "../ingest/ingest.schema";
import { findGenericIntegration, type TIntegrationRef } from "../sources/integration-store";
import { isWebhookProvider, WEBHOOK_PROVIDERS } from "../sources/providers";
import { log } from "../log";
import { parseJsonObject } from "../http/json-body";
import { WEBHOOK_PROVIDER_MODULES } from "./providers";
import { SERVICE_SIGNATURE_HEADER, SERVICE_TIMESTAMP_HEADER } from "./providers/search-ads";
import { hexDigestMatches, hmacSha256, isWithinTolerance, parseUnixSeconds, secretsEqual, sha256HeaderValue } from "./signature";
import { findVerifiedConnections, type TVerifiedConnection } from "./delivery-secret";
import { deliveryDigest, rememberDelivery, rememberDeliveryLockingOwner, type TRememberedDelivery } from "./replay-guard";
import { parseOrThrow, type TWebhookResult } from "./webhook.schema";

/** Contract, Limits: events plus signals of one generic delivery. */
export const GENERIC_MAX_ITEMS = 500;

export type TDeliveryInput = {
  headers: Headers;
  rawBody: Buffer;
  requestId: string;
  /** The clock the timestamp window is checked against (tests). */
  now?: Date;
};

function unauthenticated(message: string, requestId: string, reason: string, fields: Record<string, unknown> = {}): AppError {
  log.info("webhook refused", { request_id: requestId, reason, ...fields });
  return new AppError("unauthenticated", message);
}

const BAD_SIGNATURE = "The webhook signature is missing or does not match the body.";
const BAD_TIMESTAMP = "The webhook timestamp is missing or not within 5 minutes of the server's time.";

// --- generic: POST /v1/webhooks/generic/{integration_id} ---

const ZGenericBody = z
  .object({
    events: z.array(z.unknown()).optional(),
    signals: z.array(z.unknown()).optional(),
  })
  .superRefine((body, ctx) => {
    const total = (body.events?.length ?? 0) + (body.signals?.length ?? 0);
    if (total === 0) ctx.addIssue({ code: "custom", message: "send at least one event or signal", path: ["events"] });
    if (total > GENERIC_MAX_ITEMS)
      ctx.addIssue({
        code: "custom",
        message: `at most ${GENERIC_MAX_ITEMS} items (events plus signals) per delivery; this one has ${total}`,
        path: [],
      });
  });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * One signed delivery of a generic integration. Every event's source_type becomes IMPORT and
 * every item's integration_id the path's, whatever the body says.
 */
export async function receiveGenericDelivery(
  db: TDbOrTx,
  integrationId: string,
  input: TDeliveryInput & { contentType: string | null },
): Promise<TDeliveryResult> {
  const integration = await findGenericIntegration(db, integrationId);
  if (!integration)
    throw unauthenticated(
      "No active generic integration has this id (unknown, or disconnected by its owner).",
      input.requestId,
      "unknown_integration",
      {
        integration_id: integrationId,
      },
    );
  if (!isWithinTolerance(parseUnixSeconds(input.headers.get(SERVICE_TIMESTAMP_HEADER)), input.now ?? new Date()))
    throw unauthenticated(BAD_TIMESTAMP, input.requestId, "timestamp", { integration_id: integrationId });
  const received = sha256HeaderValue(input.headers.get(SERVICE_SIGNATURE_HEADER));
  const expected = hmacSha256(integration.secret, input.rawBody);
  if (!hexDigestMatches(expected, received))
    throw unauthenticated(BAD_SIGNATURE, input.requestId, "signature", { integration_id: integrationId });

  // Only now is the body read: nothing unsigned is parsed.
  const body = parseOrThrow(ZGenericBody, parseJsonObject(input.rawBody, input.contentType, { text: "per_item" }));
  const events = (body.events ?? []).map((event) =>
    isObject(event) ? { ...event, integration_id: integration.id, source_type: "IMPORT" } : event,
  );
  // Signals one by one too: a bad one is rejected (index = events.length + its position), the rest go in.
  const signals: TIntegrationSignal[] = [];
  const signalIndexes: number[] = [];
  const signalRejections: TRejectedItem[] = [];
  (body.signals ?? []).forEach((raw, n) => {
    const parsed = ZIntegrationSignal.safeParse(isObject(raw) ? { ...raw, integration_id: integration.id } : raw);
    if (parsed.success) {
      signals.push(parsed.data);
      signalIndexes.push(events.length + n);
      return;
    }
    const { code, message } = rejectionOf(parsed.error);
    const externalId = isObject(raw) && typeof raw.external_id === "string" ? raw.external_id : null;
    signalRejections.push({ index: events.length + n, external_id: externalId, code, message });
  });
  const now = input.now ?? new Date();
  return inTransaction(db, async (tx) => {
    const memory = await remember(tx, [{ integrationId: integration.id, digest: deliveryDigest(expected) }], now, {
      ownerId: integration.ownerId,
      events: events.length,
    });
    if (!memory.fresh) return replayed(events.length, body.signals?.length ?? 0, input.requestId, integration.id);
    const result = await ingestDeliveryInTx(
      tx,
      integration.ownerId,
      { events, signals, signalIndexes },
      { requestId: input.requestId, now, ...memory.locked },
    );
    result.rejected = [...result.rejected, ...signalRejections].sort((a, b) => a.index - b.index);
    return result;
  });
}

/**
 * Remembers the delivery (replay-guard.ts) first thing in its transaction. When the first
 * owner's part carries events, the same statement takes that owner's base-currency lock, which
 * the events path would take next anyway; the ingest is then told it holds the lock.
 */
async function remember(
  tx: TTx,
  delivery: TRememberedDelivery,
  now: Date,
  first: { ownerId: string; events: number },
): Promise<{ fresh: boolean; locked: { lockedBaseCurrency?: string | null } }> {
  if (first.events === 0) return { fresh: await rememberDelivery(tx, delivery, now), locked: {} };
  const { fresh, baseCurrency } = await rememberDeliveryLockingOwner(tx, first.ownerId, delivery, now);
  return { fresh, locked: { lockedBaseCurrency: baseCurrency } };
}

/** The answer to a delivery this integration already accepted: every item a repeat, nothing written. */
function replayed(events: number, signals: number, requestId: string, integrationId: string): TDeliveryResult {
  log.info("webhook replay", { request_id: requestId, integration_id: integrationId });
  return { inserted: 0, deduped: events, rejected: [], signals_accepted: 0, signals_deduped: signals };
}

// --- providers: POST /v1/webhooks/{provider} ---

/** More accounts than a valid delivery can name (social_ads: one change at least per account, 500 changes). */
const MAX_ACCOUNTS_PER_DELIVERY = 500;

/** The body as JSON when it is an object; anything else names no account (and so verifies with no connection). */
function unverifiedBody(input: TDeliveryInput & { contentType: string | null }): Record<string, unknown> | null {
  try {
    return parseJsonObject(input.rawBody, input.contentType, { text: "per_item" });
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/** Keeps the first rejection of each index: one item refused by two connections of its account is listed once. */
function oncePerIndex(rejected: TRejectedItem[]): TRejectedItem[] {
  const seen = new Set<number>();
  return rejected.filter((item) => !seen.has(item.index) && seen.add(item.index));
}

/**
 * One signed delivery of a platform. It is for the connections of the accounts it names whose
 * signing secret verifies its signature (delivery-secret.ts): every account it names needs one
 * such connection, else 401 and nothing is written; the answer to an account nobody connected
 * and to a wrong secret is the same, so a sender learns nothing about other owners. Each
 * verifying connection receives the items of its account (normally one; two owners who both
 * hold the true secret both hold the account). The items of each owner are ingested in one
 * transaction for the whole delivery.
 */
export async function receiveProviderDelivery(
  db: TDbOrTx,
  provider: string,
  input: TDeliveryInput & { contentType: string | null },
): Promise<TWebhookResult> {
  if (!isWebhookProvider(provider))
    throw new AppError("not_found", `No webhook receiver for ${provider}; providers: ${WEBHOOK_PROVIDERS.join(", ")}.`);
  const module = WEBHOOK_PROVIDER_MODULES[provider];
  const now = input.now ?? new Date();
  const body = unverifiedBody(input);
  const named = body ? [...new Set(module.accountsNamed(body))] : [];
  const connections =
    named.length > 0 && named.length <= MAX_ACCOUNTS_PER_DELIVERY
      ? await findVerifiedConnections(db, module, named, { headers: input.headers, rawBody: input.rawBody, now })
      : new Map<string, TVerifiedConnection[]>();
  const unverified = named.filter((account) => !connections.has(account));
  if (!body || named.length === 0 || unverified.length > 0)
    throw unauthenticated(
      "The webhook signature is missing or stale, or it does not verify with the signing secret of a connection of the account the delivery names.",
      input.requestId,
      "signature",
      { provider, accounts: unverified.slice(0, 10) },
    );

  // Only now is the body validated: what it names has proved to be signed by the account's holder.
  const { accounts, mapping } = module.read(body);
  if (accounts.some((account) => !connections.has(account)))
    throw unauthenticated(BAD_SIGNATURE, input.requestId, "account_mismatch", { provider });

  // Per owner: the events (with their delivery index) and the signals, integration attached.
  type TOwnerBatch = { events: unknown[]; eventIndexes: number[]; signals: TIntegrationSignal[]; signalIndexes: number[] };
  const byOwner = new Map<string, TOwnerBatch>();
  const batchOf = (integration: TIntegrationRef) => {
    let batch = byOwner.get(integration.ownerId);
    if (!batch) byOwner.set(integration.ownerId, (batch = { events: [], eventIndexes: [], signals: [], signalIndexes: [] }));
    return batch;
  };
  for (const item of mapping.events)
    for (const integration of connections.get(item.account)!) {
      const batch = batchOf(integration);
      batch.events.push({ ...item.event, integration_id: integration.id });
      batch.eventIndexes.push(item.index);
    }
  const rejectedSignals: TRejectedItem[] = [];
  for (const item of mapping.signals)
    for (const integration of connections.get(item.account)!) {
      // Built from validated fields; checked once more so a mapping bug rejects that signal, not the delivery.
      const parsed = ZIntegrationSignal.safeParse({ ...item.signal, integration_id: integration.id });
      if (!parsed.success) {
        rejectedSignals.push({ index: item.index ?? 0, external_id: item.signal.external_id, ...rejectionOf(parsed.error) });
        continue;
      }
      const batch = batchOf(integration);
      batch.signals.push(parsed.data);
      batch.signalIndexes.push(item.index ?? 0);
    }

  const result: TWebhookResult = {
    inserted: 0,
    deduped: 0,
    rejected: [...mapping.rejected.map(({ account: _account, ...rest }) => rest as TRejectedItem), ...rejectedSignals],
    signals_accepted: 0,
    signals_deduped: 0,
    ignored: mapping.ignored,
  };
  // Owners in a fixed order, so two deliveries spanning the same owners lock in the same order.
  const owners = [...byOwner.keys()].sort();
  if (owners.length === 0) return { ...result, rejected: oncePerIndex(result.rejected) }; // nothing a replay could change
  // Remembered for every connection the delivery writes to, by the HMAC that verified it for that one (replay-guard.ts).
  const written = [...new Set([...mapping.events, ...mapping.signals].map((item) => item.account))].flatMap((account) =>
    connections.get(account)!.map((connection) => ({ integrationId: connection.id, digest: connection.digest })),
  );
  const fresh = await inTransaction(db, async (tx) => {
    const first = { ownerId: owners[0]!, events: byOwner.get(owners[0]!)!.events.length };
    const memory = await remember(tx, written, now, first);
    if (!memory.fresh) return false;
    for (const ownerId of owners) {
      const batch = byOwner.get(ownerId)!;
      const locked = ownerId === first.ownerId ? memory.locked : {};
      const part = await ingestDeliveryInTx(tx, ownerId, batch, { requestId: input.requestId, now, ...locked });
      result.inserted += part.inserted;
      result.deduped += part.deduped;
      result.signals_accepted += part.signals_accepted;
      result.signals_deduped += part.signals_deduped;
      result.rejected.push(...part.rejected);
    }
    return true;
  });
  if (!fresh) {
    log.info("webhook replay", { request_id: input.requestId, provider });
    return {
      inserted: 0,
      deduped: mapping.events.length + mapping.rejected.length,
      rejected: [],
      signals_accepted: 0,
      signals_deduped: mapping.signals.length,
      ignored: mapping.ignored,
    };
  }
  result.rejected = oncePerIndex(result.rejected.sort((a, b) => a.index - b.index));
  return result;
}

// --- social_ads subscription check: GET /v1/webhooks/social_ads ---

/** The hub.challenge to echo when hub.verify_token is the configured one (constant time), else 401. */
export function verifySocialAdsSubscription(query: URLSearchParams, requestId: string): string {
  const expected = getEnv().SOCIAL_ADS_VERIFY_TOKEN;
  const token = query.get("hub.verify_token");
  if (!expected || token === null || !secretsEqual(expected, token))
    throw unauthenticated(
      "hub.verify_token does not match the verify token configured on this server.",
      requestId,
      "verify_token",
    );
  const mode = query.get("hub.mode");
  const challenge = query.get("hub.challenge");
  if (mode !== "subscribe") throw AppError.invalidField("hub.mode", "must be subscribe");
  if (!challenge || !/^[\x21-\x7e]{1,256}$/.test(challenge))
    throw AppError.invalidField("hub.challenge", "must be 1 to 256 printable characters without spaces");
  return challenge;
}
