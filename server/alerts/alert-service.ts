// Alerts: what the owner should look at (integration.<signal code> from the signal path, later
// computed ones). The panel shows the latest; always scoped to the owner.
import type { TDbOrTx } from "../db/client";
import type { Alert } from "../db/generated/client";
import type { TAlert } from "../integrations/integration.schema";
import { SEVERITIES } from "../notifications/notification.schema";
import { parseState } from "../shared/parse-state";

export const RECENT_ALERTS_DEFAULT = 10;
export const RECENT_ALERTS_MAX = 50;

export function toAlertDto(row: Alert): TAlert {
  return {
    id: row.id,
    code: row.code,
    severity: parseState(SEVERITIES, row.severity),
    message: row.message,
    business_id: row.businessId,
    integration_id: row.integrationId,
    amount_minor: row.amountMinor === null ? null : Number(row.amountMinor),
    currency: row.currency,
    ref: { type: row.refType, id: row.refId },
    occurred_at: row.occurredAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * The owner's newest alerts (created_at desc, id desc), at most `limit` (1 to 50); with
 * `createdFrom` / `createdBefore`, only those created in [from, before) (the daily brief's day).
 */
export async function findRecentAlerts(
  db: TDbOrTx,
  ownerId: string,
  options: { limit?: number; createdFrom?: Date; createdBefore?: Date } = {},
): Promise<TAlert[]> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? RECENT_ALERTS_DEFAULT), 1), RECENT_ALERTS_MAX);
  const window =
    options.createdFrom || options.createdBefore ? { gte: options.createdFrom, lt: options.createdBefore } : undefined;
  const rows = await db.alert.findMany({
    where: { ownerId, ...(window ? { createdAt: window } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map(toAlertDto);
}
