// The webhook receivers' rules (contract: Events, Webhook receivers; Authentication 7).
// Order for every delivery: who it is for → signature (and timestamp) over the raw bytes →
// parse and validate → map → ingest in one transaction. Anything wrong before the ingest
// answers 401 or 400 and writes nothing.
import { z } from "zod";
import type { TDb } from "../db/client";
import { inTransaction } from "../db/transaction";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import { ingestDelivery } from "../ingest/ingest-service";
import { ZIntegrationSignal, type TDeliveryResult, type TIntegrationSignal, type TRejectedItem } from "../ingest/ingest.schema";
import { findGenericIntegration, findIntegrationsByAccount, type TIntegrationRef } from "../integrations/integration-store";
import { isWebhookProvider, WEBHOOK_PROVIDERS } from "../integrations/providers";
import { log } from "../log";
import { parseJsonObject } from "../rest/request-body";
import { WEBHOOK_PROVIDER_MODULES } from "./providers";
import { SERVICE_SIGNATURE_HEADER, SERVICE_TIMESTAMP_HEADER } from "./providers/search-ads";
import { hexDigestMatches, hmacSha256, isWithinTolerance, parseUnixSeconds, secretsEqual, sha256HeaderValue } from "./signature";
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
  db: TDb,
  integrationId: string,
  input: TDeliveryInput & { contentType: string | null },
): Promise<TDeliveryResult> {
  const integration = await findGenericIntegration(db, integrationId);
  if (!integration)
    throw unauthenticated("No active generic integration has this id.", input.requestId, "unknown_integration", {
      integration_id: integrationId,
    });
  if (!isWithinTolerance(parseUnixSeconds(input.headers.get(SERVICE_TIMESTAMP_HEADER)), input.now ?? new Date()))
    throw unauthenticated(BAD_TIMESTAMP, input.requestId, "timestamp", { integration_id: integrationId });
  const received = sha256HeaderValue(input.headers.get(SERVICE_SIGNATURE_HEADER));
  if (!hexDigestMatches(hmacSha256(integration.secret, input.rawBody), received))
    throw unauthenticated(BAD_SIGNATURE, input.requestId, "signature", { integration_id: integrationId });

  // Only now is the body read: nothing unsigned is parsed.
  const body = parseOrThrow(ZGenericBody, parseJsonObject(input.rawBody, input.contentType, { text: "per_item" }));
  const events = (body.events ?? []).map((event) =>
    isObject(event) ? { ...event, integration_id: integration.id, source_type: "IMPORT" } : event,
  );
  const signals = parseOrThrow(z.object({ signals: z.array(ZIntegrationSignal) }), {
    signals: (body.signals ?? []).map((signal) => (isObject(signal) ? { ...signal, integration_id: integration.id } : signal)),
  }).signals;
  return ingestDelivery(db, integration.ownerId, { events, signals }, { requestId: input.requestId, now: input.now });
}

// --- providers: POST /v1/webhooks/{provider} ---

/**
 * One signed delivery of a platform. Every account it names must be connected (an active
 * integration of that provider); the items of each owner are ingested in one transaction
 * for the whole delivery.
 */
export async function receiveProviderDelivery(
  db: TDb,
  provider: string,
  input: TDeliveryInput & { contentType: string | null },
): Promise<TWebhookResult> {
  if (!isWebhookProvider(provider))
    throw new AppError("not_found", `No webhook receiver for ${provider}; providers: ${WEBHOOK_PROVIDERS.join(", ")}.`);
  const module = WEBHOOK_PROVIDER_MODULES[provider];
  const secret = getEnv()[module.secretEnv];
  if (!secret)
    throw unauthenticated("This webhook receiver is not configured on this server.", input.requestId, "no_secret", {
      provider,
    });
  if (!module.verify({ headers: input.headers, rawBody: input.rawBody, secret, now: input.now ?? new Date() }))
    throw unauthenticated(
      `The webhook signature is missing, does not match the body, or its timestamp is outside the 5-minute window.`,
      input.requestId,
      "signature",
      { provider },
    );

  const { accounts, mapping } = module.read(parseJsonObject(input.rawBody, input.contentType, { text: "per_item" }));
  const integrations = await findIntegrationsByAccount(db, provider, accounts);
  const missing = [...new Set(accounts)].filter((account) => !integrations.has(account));
  if (missing.length)
    throw unauthenticated(`No connected ${provider} integration for account ${missing.join(", ")}.`, input.requestId, "account", {
      provider,
      accounts: missing,
    });

  // Per owner: the events (with their delivery index) and the signals, integration attached.
  type TOwnerBatch = { events: unknown[]; indexes: number[]; signals: TIntegrationSignal[] };
  const byOwner = new Map<string, TOwnerBatch>();
  const batchOf = (integration: TIntegrationRef) => {
    let batch = byOwner.get(integration.ownerId);
    if (!batch) byOwner.set(integration.ownerId, (batch = { events: [], indexes: [], signals: [] }));
    return batch;
  };
  for (const item of mapping.events) {
    const integration = integrations.get(item.account)!;
    const batch = batchOf(integration);
    batch.events.push({ ...item.event, integration_id: integration.id });
    batch.indexes.push(item.index);
  }
  for (const item of mapping.signals) {
    const integration = integrations.get(item.account)!;
    batchOf(integration).signals.push({ ...item.signal, integration_id: integration.id });
  }
  // The mapping's signals are built from validated fields; checked once more so a mapping bug is a 400, not a 500.
  for (const batch of byOwner.values()) parseOrThrow(z.array(ZIntegrationSignal), batch.signals);

  const result: TWebhookResult = {
    inserted: 0,
    deduped: 0,
    rejected: mapping.rejected.map(({ account: _account, ...rest }) => rest as TRejectedItem),
    signals_accepted: 0,
    signals_deduped: 0,
    ignored: mapping.ignored,
  };
  // Owners in a fixed order, so two deliveries spanning the same owners lock in the same order.
  const owners = [...byOwner.keys()].sort();
  if (owners.length === 0) return result; // only ignored (or mapping-rejected) items
  await inTransaction(db, async (tx) => {
    for (const ownerId of owners) {
      const batch = byOwner.get(ownerId)!;
      const part = await ingestDelivery(tx, ownerId, batch, { requestId: input.requestId, now: input.now });
      result.inserted += part.inserted;
      result.deduped += part.deduped;
      result.signals_accepted += part.signals_accepted;
      result.signals_deduped += part.signals_deduped;
      for (const rejected of part.rejected) result.rejected.push({ ...rejected, index: batch.indexes[rejected.index]! });
    }
  });
  result.rejected.sort((a, b) => a.index - b.index);
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
