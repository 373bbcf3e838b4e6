// The one builder of an audit_entries row. recordAudit builds it with plain values for
// Prisma; the ingest path's bulk INSERTs build it with SQL expressions (server/db/value-form.ts),
// so an entry written one way or the other has the same columns, actor and target rules.
// `id` and `created_at` are the writer's (a generated uuid, the write's time).
import type { TValueForm } from "../db/value-form";

/** The actor of an entry, its id in whatever form the writer uses. */
export type TAuditActorOf<V> =
  | { type: "owner"; ownerId: V }
  | { type: "agent"; agentId: V }
  | { type: "integration"; integrationId: V }
  | { type: "public" | "system" };

export type TAuditEntryOf<V> = {
  ownerId: V;
  actor: TAuditActorOf<V>;
  action: string;
  target?: { type: string; id: V } | null;
  requestId?: V | null;
  details?: V | null;
};

/** The audit_entries columns a builder fills, by column name. */
export const AUDIT_ROW_COLUMNS = [
  "owner_id",
  "actor_type",
  "actor_id",
  "action",
  "target_type",
  "target_id",
  "request_id",
  "details",
] as const;
export type TAuditRow<V> = Record<(typeof AUDIT_ROW_COLUMNS)[number], V>;

/** An owner acts as themselves, an agent and an integration by their own id; public and system name no one. */
function actorId<V>(actor: TAuditActorOf<V>): V | undefined {
  switch (actor.type) {
    case "owner":
      return actor.ownerId;
    case "agent":
      return actor.agentId;
    case "integration":
      return actor.integrationId;
    default:
      return undefined;
  }
}

export function auditRow<V>(form: TValueForm<V>, entry: TAuditEntryOf<V>): TAuditRow<V> {
  return {
    owner_id: entry.ownerId,
    actor_type: form.text(entry.actor.type),
    actor_id: actorId(entry.actor) ?? form.null,
    action: form.text(entry.action),
    target_type: entry.target ? form.text(entry.target.type) : form.null,
    target_id: entry.target ? entry.target.id : form.null,
    request_id: entry.requestId ?? form.null,
    details: entry.details ?? form.null,
  };
}
