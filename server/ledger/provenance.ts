// The one builder of an event's provenance: `{ source: … }`, where the event came from. The
// ledger writes a manual event's with Prisma (plain values); the ingest path's bulk INSERT
// writes an integration's with SQL expressions over its records (server/db/value-form.ts).
import type { TValueForm } from "../db/value-form";

export type TEventSourceOf<V> =
  /** Entered by the owner or one of their agents. */
  | { kind: "manual"; actor: { type: "owner" | "agent"; id: V } }
  /** Sent by an integration (a webhook, a sync, a statement import): its source type and key. */
  | { kind: "integration"; sourceType: V; integrationId: V; externalId: V };

export function eventProvenance<V>(form: TValueForm<V>, source: TEventSourceOf<V>): V {
  const fields: Record<string, V> =
    source.kind === "manual"
      ? { type: form.text("MANUAL"), actor: form.object({ type: form.text(source.actor.type), id: source.actor.id }) }
      : { type: source.sourceType, integration_id: source.integrationId, external_id: source.externalId };
  return form.object({ source: form.object(fields) });
}
