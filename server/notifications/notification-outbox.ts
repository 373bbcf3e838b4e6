// Creating notifications: always inside the transaction of their cause (an alert, a pending
// approval, a confirmed import), so a notification exists exactly when its cause committed.
// The row is the outbox: its `delivered` list starts with the in_app delivery, and the delivery
// jobs (a later slice) append the webhook and email attempts to it.
//
// ONE statement for any number of notifications: the rows travel as one JSON array
// (json_to_recordset, as the ingest path's bulk INSERTs do), and the owner's muted codes are
// applied inside the same statement, so the signal path stays set-based and a muted code
// creates nothing (pinned-wave2 §4.1).
import type { TTx } from "../db/client";
import { BODY_MAX, TITLE_MAX, type TSeverity } from "./notification.schema";

export type TNewNotification = {
  code: string;
  severity: TSeverity;
  title: string;
  body: string;
  ref: { type: string; id: string } | null;
};

const NOTIFICATION_INSERT = `
INSERT INTO notifications (id, owner_id, code, severity, title, body, ref_type, ref_id, delivered, created_at)
SELECT gen_random_uuid(), $2::uuid, r.code, r.severity, r.title, r.body, r.ref_type, r.ref_id,
       jsonb_build_array(jsonb_build_object('channel', 'in_app', 'at', $3::text, 'status', 'delivered')),
       $3::timestamptz
  FROM json_to_recordset($1::json) AS r(code text, severity text, title text, body text, ref_type text, ref_id text)
 WHERE NOT EXISTS (
       SELECT 1
         FROM notification_preferences p, unnest(p.muted_codes) AS m(code)
        WHERE p.owner_id = $2::uuid
          AND (m.code = r.code OR (right(m.code, 1) = '*' AND starts_with(r.code, left(m.code, -1)))))`;

/** Cuts a text to `max` characters (code points), marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/**
 * Writes the owner's notifications in `tx`, one statement whatever their number; those whose
 * code the owner muted are not created. Answers how many were created.
 */
export async function createNotifications(
  tx: TTx,
  ownerId: string,
  items: readonly TNewNotification[],
  now: Date = new Date(),
): Promise<number> {
  if (items.length === 0) return 0;
  const records = items.map((item) => ({
    code: item.code,
    severity: item.severity,
    title: clip(item.title, TITLE_MAX),
    body: clip(item.body, BODY_MAX),
    ref_type: item.ref?.type ?? null,
    ref_id: item.ref?.id ?? null,
  }));
  return tx.$executeRawUnsafe(NOTIFICATION_INSERT, JSON.stringify(records), ownerId, now.toISOString());
}
