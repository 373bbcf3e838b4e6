// Creating notifications: always inside the transaction of their cause (an alert, a pending
// approval, a confirmed import), so a notification exists exactly when its cause committed.
// The in_app delivery is recorded at creation; each outside channel that should receive it
// (preferences: enabled, severity at or above its minimum; a webhook set) gets a row in
// notification_deliveries, the outbox the delivery job drains (delivery-job.ts), which appends
// every attempt to the notification's `delivered` list.
//
// ONE statement for any number of notifications: the rows travel as one JSON array
// (json_to_recordset, as the ingest path's bulk INSERTs do), and the owner's muted codes are
// applied inside the same statement, so the signal path stays set-based and a muted code
// creates nothing (pinned-wave2 §4.1).
import type { TTx } from "../db/client";
import { wakeDeliveries } from "./delivery-wake";
import { BODY_MAX, TITLE_MAX, type TSeverity } from "./notification.schema";

export type TNewNotification = {
  code: string;
  severity: TSeverity;
  title: string;
  body: string;
  ref: { type: string; id: string } | null;
};

// The owner's channel settings, one row whatever the owner stored (no row = the defaults of
// preference-service.ts): the muted codes, and which outside channels receive from which severity.
// The webhook channel needs a webhook that is set and enabled (PUT /v1/me/notification-webhook).
const NOTIFICATION_INSERT = `
WITH prefs AS (
  SELECT coalesce(p.muted_codes, '{}') AS muted,
         coalesce(p.webhook_enabled, true) AND coalesce(w.enabled, false) AS webhook_on,
         coalesce(p.webhook_min_severity, 'info') AS webhook_min,
         coalesce(p.email_enabled, false) AS email_on,
         coalesce(p.email_min_severity, 'critical') AS email_min
    FROM (SELECT $2::uuid AS owner_id) o
    LEFT JOIN notification_preferences p ON p.owner_id = o.owner_id
    LEFT JOIN notification_webhooks w ON w.owner_id = o.owner_id
), kept AS (
  SELECT gen_random_uuid() AS id, r.code, r.severity, r.title, r.body, r.ref_type, r.ref_id
    FROM prefs, json_to_recordset($1::json) AS r(code text, severity text, title text, body text, ref_type text, ref_id text)
   WHERE NOT EXISTS (
         SELECT 1 FROM unnest(prefs.muted) AS m(code)
          WHERE m.code = r.code OR (right(m.code, 1) = '*' AND starts_with(r.code, left(m.code, -1))))
), inserted AS (
  INSERT INTO notifications (id, owner_id, code, severity, title, body, ref_type, ref_id, delivered, created_at)
  SELECT k.id, $2::uuid, k.code, k.severity, k.title, k.body, k.ref_type, k.ref_id,
         jsonb_build_array(jsonb_build_object('channel', 'in_app', 'at', $3::text, 'status', 'delivered')),
         $3::timestamptz
    FROM kept k
  RETURNING id
), channels AS (
  SELECT 'webhook' AS channel, webhook_min AS min_severity FROM prefs WHERE webhook_on
  UNION ALL
  SELECT 'email', email_min FROM prefs WHERE email_on
), queued AS (
  -- The webhook body is fixed here, as the Notification reads at creation (json keeps the key
  -- order; jsonb would sort it), so every attempt sends the same bytes under the same event id.
  INSERT INTO notification_deliveries (id, notification_id, owner_id, channel, payload, next_attempt_at)
  SELECT d.id, d.notification_id, $2::uuid, d.channel,
         CASE WHEN d.channel = 'webhook' THEN json_build_object(
           'id', d.id, 'type', 'notification.created', 'created_at', $3::text,
           'data', json_build_object(
             'id', d.notification_id, 'code', d.code, 'severity', d.severity, 'title', d.title, 'body', d.body,
             'ref', CASE WHEN d.ref_type IS NULL THEN NULL ELSE json_build_object('type', d.ref_type, 'id', d.ref_id) END,
             'read_at', NULL,
             'delivered', json_build_array(json_build_object('channel', 'in_app', 'at', $3::text, 'status', 'delivered')),
             'created_at', $3::text,
             'resolution', NULL))::text END,
         $3::timestamptz
    FROM (SELECT gen_random_uuid() AS id, k.id AS notification_id, c.channel, k.code, k.severity, k.title, k.body, k.ref_type, k.ref_id
            FROM kept k
            JOIN channels c
              ON array_position(ARRAY['info', 'warning', 'critical'], k.severity)
              >= array_position(ARRAY['info', 'warning', 'critical'], c.min_severity)) d
  RETURNING 1
)
SELECT (SELECT count(*) FROM inserted)::int AS created, (SELECT count(*) FROM queued)::int AS queued`;

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
  const [counts = { created: 0, queued: 0 }] = await tx.$queryRawUnsafe<{ created: number; queued: number }[]>(
    NOTIFICATION_INSERT,
    JSON.stringify(records),
    ownerId,
    now.toISOString(),
  );
  // Outside deliveries run in the background (delivery-job.ts), after this transaction commits.
  if (counts.queued > 0) wakeDeliveries();
  return counts.created;
}
