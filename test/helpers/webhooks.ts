// Deliveries to the webhook receivers as a provider sends them: the signed raw bytes, no bearer,
// no Idempotency-Key (test/helpers/webhook-signing.ts signs them).
import { addDays, todayUtc } from "../../lib/days";
import type { TApiResponse, TTestApi } from "./api";

/** The day before today (UTC), the day a delivered event happened unless it says otherwise. */
export const YESTERDAY = addDays(todayUtc(), -1);

/** POSTs a delivery's raw body with the provider's (signature) headers. */
export function postDelivery(
  api: TTestApi,
  path: string,
  rawBody: string,
  headers: Record<string, string>,
): Promise<TApiResponse> {
  return api.call("POST", path, { rawBody, token: null, idempotencyKey: null, headers });
}

/** An event item of a generic delivery: an actual revenue of 42.00 EUR yesterday, unless `fields` say otherwise. */
export function deliveryEvent(externalId: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    external_id: externalId,
    type: "revenue",
    state: "actual",
    amount_minor: 4200,
    currency: "EUR",
    occurred_on: YESTERDAY,
    ...fields,
  };
}
