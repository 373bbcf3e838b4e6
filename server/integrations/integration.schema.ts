// Integrations in API form (contract: the integration rows of the Operations table; fields
// "not shown" there, pinned here) and the inputs of connect and sync.
import { z } from "zod";
import { ZDeliveryResult, ZRejectedItem } from "../ingest/ingest.schema";
import { ZName, ZText, ZTimestamp, ZUuid } from "../shared/schemas";
import { PROVIDERS } from "../sources/providers";

export const ZProvider = z.enum(PROVIDERS);
export const INTEGRATION_STATUSES = ["pending", "active", "disconnected"] as const;

export const ZIntegration = z
  .object({
    id: ZUuid,
    provider: ZProvider,
    kind: z.enum(["payments", "ads", "billing", "bank", "webhook", "import"]),
    name: z.string(),
    business_id: ZUuid.nullable(),
    status: z.enum(INTEGRATION_STATUSES).describe("pending: OAuth not finished. New values may be added."),
    account_id: z.string().nullable().describe("The account at the provider whose webhooks land here."),
    last_sync_at: ZTimestamp.nullable().describe("The last delivery or sync that reached it."),
    created_at: ZTimestamp,
  })
  .meta({ id: "Integration" });
export type TIntegration = z.infer<typeof ZIntegration>;

export const ZCatalogEntry = z
  .object({
    provider: ZProvider,
    name: z.string(),
    kind: z.enum(["payments", "ads", "billing", "bank", "webhook", "import"]),
    availability: z.enum(["available", "coming_soon"]),
    connect: z.enum(["account", "oauth", "secret", "internal"]),
    source_type: z.string(),
    webhook_path: z.string().nullable(),
    signature_header: z.string().nullable(),
    signing_secret_location: z
      .string()
      .nullable()
      .describe(
        "Where the platform shows the signing secret that POST /v1/integrations/{provider}/connect asks for (signing_secret); " +
          "null: connect takes none. Additive (issue 32).",
      ),
    description: z.string(),
  })
  .meta({ id: "CatalogEntry" });
/** The owner's catalog adds how many connections the owner has of each provider. */
export const ZOwnerCatalogEntry = ZCatalogEntry.extend({
  connected: z.number().int().describe("The owner's active connections of this provider."),
  pending: z.number().int().describe("The owner's connections still waiting for authorization (OAuth not finished)."),
}).meta({ id: "OwnerCatalogEntry" });

export const ZConnectGenericInput = z
  .object({ business_id: ZUuid, name: ZName.optional() })
  .meta({ id: "ConnectGenericIntegrationInput" });
export const ZConnectGenericResult = z.object({
  integration_id: ZUuid,
  secret: z.string().describe("Shown once; sign deliveries with it. It is stored encrypted and never shown again."),
  webhook_url: z.string(),
});

/** A provider account's signing secret as the owner pastes it: surrounding spaces dropped. */
export const ZSigningSecret = ZText.trim()
  .min(16, {
    error: (issue) =>
      issue.input === ""
        ? "required: copy it from the platform"
        : "at least 16 characters: paste the whole secret the platform shows",
  })
  .max(512);

export const ZConnectInput = z
  .object({
    business_id: ZUuid,
    account_id: z
      .string()
      .trim()
      .min(1, { message: "required: the account id at the provider" })
      .max(128)
      .optional()
      .describe(
        "The account at the provider whose deliveries this connection receives (search_ads: the customer id its relay sends).",
      ),
    signing_secret: ZSigningSecret.optional().describe(
      "payments_a, social_ads, billing_a and billing_b: the secret the platform signs this account's deliveries with, " +
        "copied from the platform (CatalogEntry.signing_secret_location says where); required for them, refused for the " +
        "others. A delivery reaches this connection only when its signature verifies with it. Stored encrypted; never " +
        "answered. Additive (issue 32).",
    ),
    name: ZName.optional(),
  })
  .meta({ id: "ConnectIntegrationInput" });
export const ZConnectResult = ZIntegration.extend({
  authorize_url: z.string().nullable().describe("search_ads: where the owner authorizes access (OAuth); null otherwise."),
});

export const ZSyncInput = z
  .object({ integration_id: ZUuid.optional().describe("Which connection of this provider; default: the only one.") })
  .meta({ id: "SyncIntegrationInput" });
export const ZSyncResult = ZDeliveryResult.extend({
  integration_id: ZUuid,
  cash_snapshots_inserted: z.number().int(),
  cash_snapshots_deduped: z.number().int(),
  cash_snapshots_rejected: z
    .array(ZRejectedItem)
    .describe("Balances refused (bank providers); index is the position among the balances of this sync."),
}).meta({ id: "SyncResult" });
export type TSyncResult = z.infer<typeof ZSyncResult>;
export type TConnectResult = z.infer<typeof ZConnectResult>;
export type TConnectGenericResult = z.infer<typeof ZConnectGenericResult>;
export type TCatalogEntry = z.infer<typeof ZCatalogEntry>;
export type TOwnerCatalogEntry = z.infer<typeof ZOwnerCatalogEntry>;

export const ZAlert = z
  .object({
    id: ZUuid,
    code: z.string().describe("integration.<signal code> for signals."),
    severity: z.enum(["info", "warning", "critical"]),
    message: z.string(),
    business_id: ZUuid.nullable(),
    integration_id: ZUuid.nullable(),
    amount_minor: z.number().int().nullable(),
    currency: z.string().nullable(),
    ref: z.object({ type: z.string(), id: z.string() }),
    occurred_at: ZTimestamp,
    created_at: ZTimestamp,
  })
  .meta({ id: "Alert" });
export type TAlert = z.infer<typeof ZAlert>;
