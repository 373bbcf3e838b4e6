// What the webhook receivers answer, and the shape every provider module has: verify the
// signature over the raw body, validate the documented payload, map it (purely) to
// NormalizedEvents and IntegrationSignals keyed by the provider account they belong to.
import { z } from "zod";
import { fromZodError } from "../errors/to-app-error";
import { rejectionOf } from "../ingest/item-checks";
import { ZDeliveryResult, type TIntegrationSignal, type TNormalizedEvent, type TRejectedItem } from "../ingest/ingest.schema";
import type { TWebhookProvider } from "../sources/providers";

/** The generic receiver's answer (contract: { inserted, deduped, rejected[], signals_accepted, signals_deduped }). */
export const ZGenericWebhookResult = ZDeliveryResult;

/** A provider receiver's answer: the delivery result plus the items of types the service does not use. */
export const ZWebhookResult = ZDeliveryResult.extend({
  ignored: z
    .number()
    .int()
    .describe("Items of the delivery acknowledged but not used (event types or status values the service does not read)."),
}).meta({ id: "WebhookDeliveryResult" });
export type TWebhookResult = z.infer<typeof ZWebhookResult>;

/** The success envelope of a plain route: `{ data, request_id }`. */
export function envelopeSchema<T extends z.ZodType>(data: T, id: string) {
  return z.object({ data, request_id: z.string().describe("Also in the X-Request-Id header.") }).meta({ id });
}

/** The environment variable that holds each provider's signing secret (DESIGN.md). */
export type TWebhookSecretEnv =
  | "WEBHOOK_SECRET_PAYMENTS_A"
  | "WEBHOOK_SECRET_SOCIAL_ADS"
  | "WEBHOOK_SECRET_SEARCH_ADS"
  | "WEBHOOK_SECRET_BILLING_A"
  | "WEBHOOK_SECRET_BILLING_B";

/** An event produced by a provider's mapping; the receiver adds the integration (and its business). */
export type TProviderEvent = Omit<TNormalizedEvent, "integration_id" | "business_id" | "project_id" | "subscription_id">;
/** A signal produced by a provider's mapping; the receiver adds the integration. */
export type TProviderSignal = Omit<TIntegrationSignal, "integration_id" | "business_id">;

/**
 * `index` is the item's position in the delivery's list of financial items, as each provider
 * documents it (docs/webhooks.md), so a rejection can be traced back to the payload.
 */
export type TMappedEvent = { index: number; account: string; event: TProviderEvent };
export type TMappedRejection = { index: number; account: string } & Omit<TRejectedItem, "index">;
/** `index`: the item's position as the provider documents it (single-event deliveries: 0). */
export type TMappedSignal = { index?: number; account: string; signal: TProviderSignal };

export type TMapping = {
  events: TMappedEvent[];
  /** Items refused by the mapping itself (an amount that is not whole minor units). */
  rejected: TMappedRejection[];
  signals: TMappedSignal[];
  /** Items acknowledged but not used. */
  ignored: number;
};

export const emptyMapping = (): TMapping => ({ events: [], rejected: [], signals: [], ignored: 0 });

/**
 * The mapping of a one-event delivery; whatever it throws (a time out of range, a bug) is that
 * event's rejection (index 0), answered 200 like any rejected item, never a 500.
 */
export function mapOneEvent(account: string, externalId: string, map: () => TMapping): TMapping {
  try {
    return map();
  } catch (error) {
    const mapping = emptyMapping();
    mapping.rejected.push({ index: 0, account, external_id: externalId, ...rejectionOf(error, { external_id: externalId }) });
    return mapping;
  }
}

export type TVerifyInput = { headers: Headers; rawBody: Buffer; secret: string; now: Date };

export type TWebhookProviderModule = {
  provider: TWebhookProvider;
  secretEnv: TWebhookSecretEnv;
  /** The payload as documented (OpenAPI). */
  schema: z.ZodType;
  /** Header parameters the signature scheme uses: name → description (OpenAPI). */
  headers: Record<string, string>;
  /**
   * The signature (and timestamp, when the scheme has one) over the raw body: the HMAC it
   * matched (the delivery's identity for the replay memory), or null for anything wrong.
   */
  verify: (input: TVerifyInput) => Buffer | null;
  /**
   * The provider accounts an unverified body names, read without validating anything else: the
   * signature is checked with the secrets of their connections, and only then is the body read.
   */
  accountsNamed: (body: Record<string, unknown>) => string[];
  /** Validates the parsed body (AppError validation_error) and maps it. */
  read: (body: unknown) => { accounts: string[]; mapping: TMapping };
};

/** `body[field]` when it is a string (an account id read before the body is validated), else nothing. */
export function namedAccount(body: Record<string, unknown>, field: string): string[] {
  const value = body[field];
  return typeof value === "string" ? [value] : [];
}

/** Parses with `schema` or throws the contract's validation_error with every issue. */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fromZodError(parsed.error);
  return parsed.data;
}
