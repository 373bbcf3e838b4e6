// The audit log: every write, denial and decision. Writers call recordAudit with the same
// transaction client as the write it records, so both commit or neither does.
import { utcMidnightOf } from "../../lib/days";
import type { TActor } from "../auth/actor";
import type { TDbOrTx } from "../db/client";
import { PLAIN_VALUES, type TJsonValue } from "../db/value-form";
import type { AuditEntry, Prisma } from "../db/generated/client";
import { pageArgs, toPage, type TPageQuery } from "../shared/pagination";
import { AUDIT_ACTOR_TYPES, type TAuditEntry } from "./audit.schema";
import { parseState } from "../shared/parse-state";
import { auditRow, type TAuditRow } from "./audit-row";

export type TAuditActor = TActor | { type: "system" };

export type TAuditInput = {
  ownerId: string;
  actor: TAuditActor;
  action: string;
  target?: { type: string; id: string } | null;
  requestId?: string | null;
  details?: Prisma.InputJsonValue | null;
};

/** An audit row (built by auditRow's plain form) as Prisma writes it. */
export function auditEntryData(row: TAuditRow<TJsonValue>): Prisma.AuditEntryUncheckedCreateInput {
  // The plain form's texts and ids are strings; details are the caller's JSON.
  return {
    ownerId: row.owner_id as string,
    actorType: row.actor_type as string,
    actorId: row.actor_id as string | null,
    action: row.action as string,
    targetType: row.target_type as string | null,
    targetId: row.target_id as string | null,
    requestId: row.request_id as string | null,
    details: (row.details ?? undefined) as Prisma.InputJsonValue | undefined,
  };
}

export async function recordAudit(db: TDbOrTx, input: TAuditInput): Promise<{ id: string }> {
  const row = auditRow(PLAIN_VALUES, { ...input, details: (input.details ?? null) as TJsonValue });
  return db.auditEntry.create({ data: auditEntryData(row), select: { id: true } });
}

/** An audit entry for what a caller did (the usual case: a service recording its own write). */
export function auditCaller(
  db: TDbOrTx,
  caller: { ownerId: string; actor: TAuditActor; requestId: string },
  action: string,
  target?: { type: string; id: string } | null,
  details?: Prisma.InputJsonValue | null,
): Promise<{ id: string }> {
  return recordAudit(db, { ownerId: caller.ownerId, actor: caller.actor, requestId: caller.requestId, action, target, details });
}

export function toAuditDto(row: AuditEntry): TAuditEntry {
  return {
    id: row.id,
    actor: { type: parseState(AUDIT_ACTOR_TYPES, row.actorType), id: row.actorId },
    action: row.action,
    target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId } : null,
    request_id: row.requestId,
    details: row.details ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** A bound of a `from`/`to` filter: a day means that whole day (UTC). */
function bound(value: string, edge: "from" | "to"): Date {
  if (value.length === 10) {
    const day = utcMidnightOf(value);
    return edge === "from" ? day : new Date(day.getTime() + 24 * 60 * 60 * 1000);
  }
  return new Date(value);
}

export async function findAuditEntries(
  db: TDbOrTx,
  ownerId: string,
  query: TPageQuery & {
    actor_type?: string;
    actor_id?: string;
    action?: string;
    target_type?: string;
    target_id?: string;
    from?: string;
    to?: string;
  },
) {
  const args = pageArgs(query);
  const action = query.action?.endsWith("*") ? { startsWith: query.action.slice(0, -1) } : query.action;
  const rows = await db.auditEntry.findMany({
    ...args,
    where: {
      ownerId,
      actorType: query.actor_type,
      actorId: query.actor_id,
      action,
      targetType: query.target_type,
      targetId: query.target_id,
      createdAt: {
        ...(query.from ? { gte: bound(query.from, "from") } : {}),
        ...(query.to ? { lt: bound(query.to, "to") } : {}),
      },
      ...args.where,
    },
  });
  const { rows: kept, page } = toPage(rows, query.limit);
  return { data: kept.map(toAuditDto), page };
}
