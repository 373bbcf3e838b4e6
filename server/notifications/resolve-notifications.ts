// Notifications about a record since decided (pinned-wave2 §4.1, issue 37): when the owner
// decides an approval, its approval.pending notification no longer waits for anything. It is
// marked read in the decision's own transaction (so the bell stops counting it exactly when the
// decision commits), and every read of it says what became of the approval (`resolution`).
import type { TDbOrTx, TTx } from "../db/client";
import type { TNotification } from "./notification.schema";
import { parseState } from "../shared/parse-state";

export type TResolution = NonNullable<TNotification["resolution"]>;

const DECIDED = ["approved", "rejected", "dismissed"] as const;

/**
 * Marks read the owner's unread notifications about this record, in `tx` (the decision's
 * transaction). An earlier read_at is kept. Answers how many were marked.
 */
export async function resolveNotificationsAbout(
  tx: TTx,
  ownerId: string,
  ref: { type: string; id: string },
  now: Date,
): Promise<number> {
  const { count } = await tx.notification.updateMany({
    where: { ownerId, refType: ref.type, refId: ref.id, readAt: null },
    data: { readAt: now },
  });
  return count;
}

/**
 * What became of the approvals these notifications are about, one query for the whole page:
 * approval id → { status, decided_at } for each one decided. Scoped to the owner.
 */
export async function approvalResolutions(
  db: TDbOrTx,
  ownerId: string,
  rows: ReadonlyArray<{ refType: string | null; refId: string | null }>,
): Promise<Map<string, TResolution>> {
  const ids = [...new Set(rows.filter((row) => row.refType === "approval" && row.refId).map((row) => row.refId!))];
  const resolutions = new Map<string, TResolution>();
  // A ref id is free text; only uuids can name an approval.
  const uuids = ids.filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  if (uuids.length === 0) return resolutions;
  const approvals = await db.approval.findMany({
    where: { ownerId, id: { in: uuids }, status: { in: [...DECIDED] } },
    select: { id: true, status: true, decidedAt: true },
  });
  for (const approval of approvals) {
    resolutions.set(approval.id, {
      status: parseState(DECIDED, approval.status),
      decided_at: approval.decidedAt?.toISOString() ?? null,
    });
  }
  return resolutions;
}
