// The provider modules by provider name (the `{provider}` of POST /v1/webhooks/{provider}).
import type { TWebhookProvider } from "../../sources/providers";
import type { TWebhookProviderModule } from "../webhook.schema";
import { billingA } from "./billing-a";
import { billingB } from "./billing-b";
import { paymentsA } from "./payments-a";
import { searchAds } from "./search-ads";
import { socialAds } from "./social-ads";

export const WEBHOOK_PROVIDER_MODULES: Record<TWebhookProvider, TWebhookProviderModule> = {
  payments_a: paymentsA,
  social_ads: socialAds,
  search_ads: searchAds,
  billing_a: billingA,
  billing_b: billingB,
};
