// The owner's notification list and its read marks (pinned-wave2 §4.2). Always scoped to the
// owner: another owner's notification is simply not found.
import { utcMidnightOf } from "../../lib/days";
import { auditCaller } from "../audit/audit-service";
import type { TCaller } from "../auth/caller";
import type { TDbOrTx } from "../db/client";
import type { Notification, Prisma } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { pageArgs, toPage } from "../shared/pagination";
import { SEVERITIES, type TFindNotificationsQuery, type TNotification } from "./notification.schema";
import { approvalResolutions, type TResolution } from "./resolve-notifications";
import { parseState } from "../shared/parse-state";

export function toNotificationDto(row: Notification, resolutions?: ReadonlyMap<string, TResolution>): TNotification {
  return {
    id: row.id,
    code: row.code,
    severity: parseState(SEVERITIES, row.severity),
    title: row.title,
    body: row.body,
    ref: row.refType && row.refId ? { type: row.refType, id: row.refId } : null,
    read_at: row.readAt?.toISOString() ?? null,
    delivered: (Array.isArray(row.delivered) ? row.delivered : []) as TNotification["delivered"],
    created_at: row.createdAt.toISOString(),
    resolution: (row.refType === "approval" && row.refId && resolutions?.get(row.refId)) || null,
  };
}

/** A bound of a `from`/`to` filter: a day means that whole UTC day. */
function bound(value: string, edge: "from" | "to"): Date {
  if (value.length === 10) {
    const day = utcMidnightOf(value);
    return edge === "from" ? day : new Date(day.getTime() + 24 * 60 * 60 * 1000);
  }
  return new Date(value);
}

/** GET /v1/notifications: newest first, cursor pages, filters combined with AND. */
export async function findNotifications(db: TDbOrTx, ownerId: string, query: TFindNotificationsQuery) {
  const args = pageArgs(query);
  const code = query.code?.endsWith("*") ? { startsWith: query.code.slice(0, -1) } : query.code;
  const where: Prisma.NotificationWhereInput = {
    ownerId,
    severity: query.severity,
    code,
    ...(query.unread === undefined ? {} : { readAt: query.unread ? null : { not: null } }),
    createdAt: {
      ...(query.from ? { gte: bound(query.from, "from") } : {}),
      ...(query.to ? { lt: bound(query.to, "to") } : {}),
    },
    ...args.where,
  };
  const rows = await db.notification.findMany({ ...args, where });
  const { rows: kept, page } = toPage(rows, query.limit);
  const resolutions = await approvalResolutions(db, ownerId, kept);
  return { data: kept.map((row) => toNotificationDto(row, resolutions)), page };
}

/** The owner's unread notifications (Me.unread_notifications, the overview's). */
export function countUnread(db: TDbOrTx, ownerId: string): Promise<number> {
  return db.notification.count({ where: { ownerId, readAt: null } });
}

/**
 * PATCH /v1/notifications/{id} { read }: read sets read_at to now (an earlier read_at is kept),
 * unread clears it. Audited notification.read / notification.unread.
 */
export async function markNotification(db: TDbOrTx, caller: TCaller, id: string, read: boolean): Promise<TNotification> {
  return inTransaction(db, async (tx) => {
    const found = await tx.notification.findFirst({ where: { id, ownerId: caller.ownerId }, select: { id: true } });
    if (!found) throw AppError.notFound("notification");
    if (read) {
      await tx.notification.updateMany({ where: { id, readAt: null }, data: { readAt: caller.now } });
    } else {
      await tx.notification.update({ where: { id }, data: { readAt: null } });
    }
    await auditCaller(tx, caller, read ? "notification.read" : "notification.unread", { type: "notification", id });
    const row = await tx.notification.findUniqueOrThrow({ where: { id } });
    return toNotificationDto(row, await approvalResolutions(tx, caller.ownerId, [row]));
  });
}

/**
 * POST /v1/notifications/read-all { before? }: marks read every unread notification created at or
 * before `before` (default now). Running it again finds nothing left: { updated: 0 }.
 */
export async function readAllNotifications(
  db: TDbOrTx,
  caller: TCaller,
  input: { before?: string },
): Promise<{ updated: number }> {
  const now = caller.now;
  const before = input.before ? new Date(input.before) : now;
  return inTransaction(db, async (tx) => {
    const { count } = await tx.notification.updateMany({
      where: { ownerId: caller.ownerId, readAt: null, createdAt: { lte: before } },
      data: { readAt: now },
    });
    await auditCaller(tx, caller, "notifications.read_all", null, { updated: count, before: before.toISOString() });
    return { updated: count };
  });
}
