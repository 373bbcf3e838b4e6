// The sources an owner can connect, in one table: what kind each is, how it authenticates
// and whether it can be connected in this version. The catalog endpoints, the webhook
// receivers and the connect/sync operations all read it.

export const WEBHOOK_PROVIDERS = ["payments_a", "social_ads", "search_ads", "billing_a", "billing_b"] as const;
export const BANK_PROVIDERS = ["bank_provider_a", "bank_provider_b"] as const;
/** Every provider value an Integration row can hold. */
export const PROVIDERS = [...WEBHOOK_PROVIDERS, ...BANK_PROVIDERS, "generic", "manual_import"] as const;

/** The owner's statement imports: one integration per owner, created on the first confirm. */
export const MANUAL_IMPORT_PROVIDER = "manual_import";

export type TWebhookProvider = (typeof WEBHOOK_PROVIDERS)[number];
export type TBankProvider = (typeof BANK_PROVIDERS)[number];
export type TProvider = (typeof PROVIDERS)[number];

/** Source types of events (contract NormalizedEvent.source_type). */
export const INGEST_SOURCE_TYPES = ["PAYMENTS_API", "SEARCH_ADS_API", "SOCIAL_ADS_API", "IMPORT"] as const;
export type TIngestSourceType = (typeof INGEST_SOURCE_TYPES)[number];

export type TProviderKind = "payments" | "ads" | "billing" | "bank" | "webhook" | "import";
export type TAvailability = "available" | "coming_soon";
/**
 * How a connection is made: with an account id (and, for a webhook platform, the account's signing
 * secret), OAuth, a generated signing secret (generic), or by the service itself.
 */
export type TConnectMethod = "account" | "oauth" | "secret" | "internal";

export type TProviderInfo = {
  provider: TProvider;
  name: string;
  kind: TProviderKind;
  availability: TAvailability;
  connect: TConnectMethod;
  /** The source_type its events carry. */
  source_type: TIngestSourceType;
  /** Where its deliveries go (null: it has no webhooks). */
  webhook_path: string | null;
  /** The header that carries the delivery's signature (null: no webhooks). */
  signature_header: string | null;
  /**
   * Where the platform shows the signing secret it signs this account's deliveries with, which
   * connect asks for (pinned-wave3 §1.6: a connection proves control of the account by it).
   * null: connect takes none (OAuth, a generated secret, the service's own).
   */
  signing_secret_location: string | null;
  description: string;
};

export const PROVIDER_CATALOG: readonly TProviderInfo[] = [
  {
    provider: "payments_a",
    name: "Payments A",
    kind: "payments",
    availability: "available",
    connect: "account",
    source_type: "PAYMENTS_API",
    webhook_path: "/v1/webhooks/payments_a",
    signature_header: "X-PaymentsA-Signature",
    signing_secret_location: "Payments A dashboard → Developers → Webhooks → your endpoint → Signing secret",
    description: "Card payments: charges become revenue, refunds link to their charge, payouts and disputes become signals.",
  },
  {
    provider: "social_ads",
    name: "Social Ads",
    kind: "ads",
    availability: "available",
    connect: "account",
    source_type: "SOCIAL_ADS_API",
    webhook_path: "/v1/webhooks/social_ads",
    signature_header: "X-Hub-Signature-256",
    signing_secret_location: "Social Ads app dashboard → App settings → Basic → App secret",
    description: "Daily ad spend per campaign, ad set and ad; campaign and ad status changes become signals.",
  },
  {
    provider: "search_ads",
    name: "Search Ads",
    kind: "ads",
    availability: "available",
    connect: "oauth",
    source_type: "SEARCH_ADS_API",
    webhook_path: "/v1/webhooks/search_ads",
    signature_header: "X-Service-Signature",
    signing_secret_location: null,
    description: "Daily cost per campaign and ad group through a signed relay (the platform has no webhooks); OAuth connect.",
  },
  {
    provider: "billing_a",
    name: "Billing A",
    kind: "billing",
    availability: "available",
    connect: "account",
    source_type: "PAYMENTS_API",
    webhook_path: "/v1/webhooks/billing_a",
    signature_header: "X-BillingA-Signature",
    signing_secret_location: "Billing A dashboard → Developer tools → Notifications → your destination → Secret key",
    description: "Subscription billing: created, changed, past due and churned subscriptions as subscription_change events.",
  },
  {
    provider: "billing_b",
    name: "Billing B",
    kind: "billing",
    availability: "available",
    connect: "account",
    source_type: "PAYMENTS_API",
    webhook_path: "/v1/webhooks/billing_b",
    signature_header: "X-BillingB-Signature",
    signing_secret_location: "Billing B dashboard → Settings → Webhooks → your webhook → Signing key",
    description: "Subscription billing: created, changed, past due and churned subscriptions as subscription_change events.",
  },
  {
    provider: "generic",
    name: "Generic signed webhook",
    kind: "webhook",
    availability: "available",
    connect: "secret",
    source_type: "IMPORT",
    webhook_path: "/v1/webhooks/generic/{integration_id}",
    signature_header: "X-Service-Signature",
    signing_secret_location: null,
    description: "Any system that can sign a JSON body with HMAC-SHA256 sends events and signals.",
  },
  {
    provider: "bank_provider_a",
    name: "Bank provider A",
    kind: "bank",
    availability: "coming_soon",
    connect: "account",
    source_type: "IMPORT",
    webhook_path: null,
    signature_header: null,
    signing_secret_location: null,
    description: "Read-only bank accounts: balances as cash snapshots, transactions as events.",
  },
  {
    provider: "bank_provider_b",
    name: "Bank provider B",
    kind: "bank",
    availability: "coming_soon",
    connect: "account",
    source_type: "IMPORT",
    webhook_path: null,
    signature_header: null,
    signing_secret_location: null,
    description: "Read-only bank accounts: balances as cash snapshots, transactions as events.",
  },
  {
    provider: "manual_import",
    name: "Bank statement import",
    kind: "import",
    availability: "available",
    connect: "internal",
    source_type: "IMPORT",
    webhook_path: null,
    signature_header: null,
    signing_secret_location: null,
    description: "CSV/TSV statements uploaded by the owner; created on the first import.",
  },
];

export function providerInfo(provider: string): TProviderInfo | undefined {
  return PROVIDER_CATALOG.find((p) => p.provider === provider);
}

/** Whether this provider's connections hold the account's signing secret (connect takes it; deliveries verify with it). */
export function takesSigningSecret(info: TProviderInfo): boolean {
  return info.signing_secret_location !== null;
}

export function isWebhookProvider(value: string): value is TWebhookProvider {
  return (WEBHOOK_PROVIDERS as readonly string[]).includes(value);
}
