// Ending every token of an agent: revoking it, suspending an OAuth agent (agent-service.ts), and a
// reused refresh token or code of its OAuth connection (server/oauth/oauth-service.ts).
import type { TTx } from "../db/client";

/** Ends every token of an agent: its refresh tokens and its access (agent) tokens. */
export async function endOAuthTokens(tx: TTx, agentId: string, now: Date): Promise<void> {
  await tx.oAuthRefreshToken.updateMany({ where: { agentId, revokedAt: null }, data: { revokedAt: now } });
  await tx.agentToken.updateMany({ where: { agentId, revokedAt: null }, data: { revokedAt: now } });
}
