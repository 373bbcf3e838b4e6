// Which secret a platform delivery to a connection must be signed with (pinned-wave3 §1.6;
// docs/webhooks.md, "Which secret signs a delivery"). Naming an account proves nothing, since
// several owners may name the same account: the signature does, with the secret of the
// connection the delivery lands in.
//
//   payments_a, social_ads, billing_a, billing_b: the connection's own signing secret, given on
//     connect (the secret the platform shows the account's holder). The server-wide
//     WEBHOOK_SECRET_<PROVIDER> never verifies a delivery to a connection that has its own.
//     A connection without one (made before connect asked for it) verifies with the server-wide
//     secret only when AUTH_MODE=static (development and tests); in session mode it receives
//     nothing until its owner sets its secret (PUT /v1/integrations/{id}/signing-secret).
//   search_ads: its relay, run for the service, signs with the server's WEBHOOK_SECRET_SEARCH_ADS
//     as the contract defines relays; its connections are made through OAuth.
import { decryptSecret } from "../crypto/secret-box";
import type { TDbOrTx } from "../db/client";
import { getEnv } from "../env";
import { findDeliveryCandidates, type TDeliveryCandidate, type TIntegrationRef } from "../sources/integration-store";
import { providerInfo, takesSigningSecret } from "../sources/providers";
import { deliveryDigest } from "./replay-guard";
import type { TVerifyInput, TWebhookProviderModule } from "./webhook.schema";

/** The secret a delivery to `connection` must verify with; null: none can reach it. */
export async function deliverySecret(
  module: TWebhookProviderModule,
  connection: Pick<TDeliveryCandidate, "secretEncrypted">,
): Promise<string | null> {
  const env = getEnv();
  const serverSecret = env[module.secretEnv] || null;
  if (!takesSigningSecret(providerInfo(module.provider)!)) return serverSecret;
  if (connection.secretEncrypted) return decryptSecret(connection.secretEncrypted);
  return env.AUTH_MODE === "static" ? serverSecret : null;
}

/** A connection a delivery proved it is for, with the digest of the HMAC that verified it (replay-guard.ts). */
export type TVerifiedConnection = TIntegrationRef & { digest: string };

/**
 * The connections of the accounts a delivery names whose secret verifies its signature (and
 * timestamp), by account. One lookup of the candidates, then each one's secret decrypted and
 * the signature checked in constant time; a secret shared by several candidates is checked once.
 * An account none of whose connections verifies is simply absent: the caller cannot tell an
 * unknown account from a wrong secret, and neither can the sender.
 */
export async function findVerifiedConnections(
  db: TDbOrTx,
  module: TWebhookProviderModule,
  accounts: string[],
  signed: Omit<TVerifyInput, "secret">,
): Promise<Map<string, TVerifiedConnection[]>> {
  const candidates = await findDeliveryCandidates(db, module.provider, accounts);
  const verifiedBySecret = new Map<string, Buffer | null>();
  const byAccount = new Map<string, TVerifiedConnection[]>();
  for (const { secretEncrypted, ...connection } of candidates) {
    const secret = await deliverySecret(module, { secretEncrypted });
    if (secret === null) continue;
    if (!verifiedBySecret.has(secret)) verifiedBySecret.set(secret, module.verify({ ...signed, secret }));
    const hmac = verifiedBySecret.get(secret);
    if (!hmac) continue;
    const list = byAccount.get(connection.accountId) ?? [];
    list.push({ ...connection, digest: deliveryDigest(hmac) });
    byAccount.set(connection.accountId, list);
  }
  return byAccount;
}
