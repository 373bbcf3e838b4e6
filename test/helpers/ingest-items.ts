// Items of the ingest path, as integrations deliver them. No imports, so unit tests of the round
// planner can use them as well as the integration suites.

/** An event of a generic webhook's body: an actual revenue in EUR on 2026-11-02, unless `fields` say otherwise. */
export function webhookItem(externalId: string, amount: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    external_id: externalId,
    type: "revenue",
    state: "actual",
    amount_minor: amount,
    currency: "EUR",
    occurred_on: "2026-11-02",
    ...fields,
  };
}

/**
 * An item of the ingest path as a payments integration delivers it: `webhookItem` with its
 * integration and source type (ingestEvents validates it; tests of refusals bend it).
 */
export function ingestItem(
  integrationId: string,
  externalId: string,
  amount: number,
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  return { integration_id: integrationId, ...webhookItem(externalId, amount), source_type: "PAYMENTS_API", ...fields };
}
