// Financial event types and states (contract Records 1, NormalizedEvent.type), in the
// contract's order: the one list the server's zod enums (server/ledger/event.schema.ts,
// server/ingest/ingest.schema.ts, so the OpenAPI document) and the panel's filters read.
// Lists grow additively (contract Versioning 1): clients must accept values they do not know.
// Pure data, no imports: safe in the client bundle.

export const EVENT_TYPES = [
  "revenue",
  "refund",
  "ad_spend",
  "expense",
  "recurring_expense",
  "planned_expense",
  "subscription_change",
  "agent_action",
] as const;
export type TEventType = (typeof EVENT_TYPES)[number];

/** The types an integration may send: not planned_expense nor agent_action (the owner's and agents' own). */
export const INGEST_EVENT_TYPES = [
  "revenue",
  "refund",
  "ad_spend",
  "expense",
  "recurring_expense",
  "subscription_change",
] as const satisfies readonly TEventType[];
export type TIngestEventType = (typeof INGEST_EVENT_TYPES)[number];

export const EVENT_STATES = ["actual", "planned"] as const;
export type TEventState = (typeof EVENT_STATES)[number];
