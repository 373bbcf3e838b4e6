// agent.token_expiring (pinned-wave2 §4.1): the owner hears once, a week ahead, that an agent's
// token is about to expire, so the agent does not start failing with token_expired unannounced.
// Run daily by a job (jobs/token-expiry.ts). Each token is claimed by marking it notified in the
// same transaction as its notification: a token is announced exactly once, even when two
// instances run at once (the second's UPDATE finds it marked), and a rotated token, being a new
// row, gets its own notice. OAuth agents are left out: their hour-long access tokens are renewed by
// the assistant with its refresh token, and nobody is there to rotate them by hand.
import type { TDbOrTx } from "../db/client";
import { inTransaction } from "../db/transaction";
import { createNotifications, type TNewNotification } from "../notifications/notification-outbox";

export const TOKEN_EXPIRY_NOTICE_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

type TExpiring = { owner_id: string; agent_id: string; name: string; hint: string | null; expires_at: Date };

const CLAIM_EXPIRING = `
UPDATE agent_tokens t
   SET expiry_notified_at = $1::timestamptz
  FROM agents a
 WHERE a.id = t.agent_id AND a.status = 'active' AND a.created_via = 'token'
   AND t.revoked_at IS NULL AND t.expiry_notified_at IS NULL
   AND t.expires_at > $1::timestamptz AND t.expires_at <= $2::timestamptz
RETURNING a.owner_id::text, a.id::text AS agent_id, a.name, t.hint, t.expires_at`;

function expiringNotification(token: TExpiring, now: Date): TNewNotification {
  const days = Math.max(1, Math.ceil((token.expires_at.getTime() - now.getTime()) / DAY_MS));
  const day = token.expires_at.toISOString().slice(0, 10);
  const when = days === 1 ? "within a day" : `in ${days} days`;
  return {
    code: "agent.token_expiring",
    severity: "warning",
    title: `The token of agent ${token.name} expires ${when}`,
    body:
      `The token ${token.hint ? `${token.hint} ` : ""}of agent ${token.name} expires on ${day} (UTC). Rotate it ` +
      `before then and give the agent the new one; after that its calls are refused with token_expired.`,
    ref: { type: "agent", id: token.agent_id },
  };
}

/** Notifies the owners of active agents whose current token expires within 7 days; answers how many. */
export async function notifyExpiringAgentTokens(db: TDbOrTx, now: Date): Promise<{ notified: number }> {
  return inTransaction(db, async (tx) => {
    const expiring = await tx.$queryRawUnsafe<TExpiring[]>(
      CLAIM_EXPIRING,
      now.toISOString(),
      new Date(now.getTime() + TOKEN_EXPIRY_NOTICE_DAYS * DAY_MS).toISOString(),
    );
    const byOwner = new Map<string, TNewNotification[]>();
    for (const token of expiring) {
      byOwner.set(token.owner_id, [...(byOwner.get(token.owner_id) ?? []), expiringNotification(token, now)]);
    }
    for (const [ownerId, items] of byOwner) await createNotifications(tx, ownerId, items, now);
    return { notified: expiring.length };
  });
}
