// Search Ads connects through OAuth (authorization code). Connect creates the integration
// pending with a nonce in its config and answers the authorize URL; the platform redirects the
// owner's browser to GET /v1/integrations/search_ads/callback?code&state, which checks the
// signed state (the only credential of that request), exchanges the code for a refresh token,
// stores it encrypted, activates the integration and sends the browser back to the panel.
import { getEnv } from "../env";
import { recordAudit } from "../audit/audit-service";
import { encryptJson } from "../crypto/secret-box";
import type { TDbOrTx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { errorFields, log } from "../log";
import { sameSecret, verifyOAuthState } from "./oauth-state";

export const SEARCH_ADS_CALLBACK_PATH = "/v1/integrations/search_ads/callback";
const TOKEN_TIMEOUT_MS = 10_000;
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

/** Why the owner came back without a connection (the panel's ?error= value). */
export type TOAuthFailure = "oauth_state_invalid" | "oauth_exchange_failed" | "oauth_denied";

function baseUrl(): string {
  return getEnv().publicBaseUrl.replace(/\/+$/, "");
}

export function searchAdsRedirectUri(): string {
  return `${baseUrl()}${SEARCH_ADS_CALLBACK_PATH}`;
}

export function searchAdsAuthorizeUrl(state: string): string {
  const env = getEnv();
  const url = new URL(env.SEARCH_ADS_AUTHORIZE_URL);
  url.searchParams.set("client_id", env.SEARCH_ADS_CLIENT_ID);
  url.searchParams.set("redirect_uri", searchAdsRedirectUri());
  url.searchParams.set("response_type", "code");
  url.searchParams.set("state", state);
  return url.href;
}

export function panelIntegrationsUrl(result: { connected: "search_ads" } | { error: TOAuthFailure }): string {
  const url = new URL(`${baseUrl()}/integrations`);
  if ("connected" in result) url.searchParams.set("connected", result.connected);
  else url.searchParams.set("error", result.error);
  return url.href;
}

/** The token endpoint's answer, or null when the exchange failed (logged without secrets). */
async function exchangeCode(code: string, requestId: string): Promise<{ refresh_token: string; scope?: string } | null> {
  const env = getEnv();
  if (!env.SEARCH_ADS_CLIENT_SECRET) {
    log.warn("search_ads OAuth: SEARCH_ADS_CLIENT_SECRET is not set; the code cannot be exchanged", { request_id: requestId });
    return null;
  }
  try {
    const response = await fetch(env.SEARCH_ADS_TOKEN_URL, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: searchAdsRedirectUri(),
        client_id: env.SEARCH_ADS_CLIENT_ID,
        client_secret: env.SEARCH_ADS_CLIENT_SECRET,
      }),
      redirect: "error",
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok || text.length > MAX_TOKEN_RESPONSE_BYTES) {
      log.warn("search_ads OAuth: the token endpoint refused the code", { request_id: requestId, status: response.status });
      return null;
    }
    const body = JSON.parse(text) as { refresh_token?: unknown; scope?: unknown };
    if (typeof body.refresh_token !== "string" || body.refresh_token.length === 0) {
      log.warn("search_ads OAuth: the token endpoint answered no refresh_token", { request_id: requestId });
      return null;
    }
    return { refresh_token: body.refresh_token, ...(typeof body.scope === "string" ? { scope: body.scope } : {}) };
  } catch (error) {
    log.warn("search_ads OAuth: the token exchange failed", { request_id: requestId, ...errorFields(error) });
    return null;
  }
}

/**
 * The callback's work; answers where to send the browser. Nothing is written unless the state
 * holds (signature, 10 minutes, the pending integration's current nonce) and the exchange
 * succeeds; the nonce is then cleared in the same conditional update, so a state works once.
 */
export async function completeSearchAdsAuthorization(
  db: TDbOrTx,
  query: URLSearchParams,
  requestId: string,
  now: Date = new Date(),
): Promise<string> {
  const providerError = query.get("error");
  if (providerError !== null) {
    return panelIntegrationsUrl({ error: providerError === "access_denied" ? "oauth_denied" : "oauth_exchange_failed" });
  }
  const invalid = panelIntegrationsUrl({ error: "oauth_state_invalid" });
  const state = await verifyOAuthState(query.get("state"), now);
  if (!state) return invalid;
  const pending = await findPending(db, state);
  if (!pending) return invalid;

  const code = query.get("code");
  if (!code || code.length > 2048) return panelIntegrationsUrl({ error: "oauth_exchange_failed" });
  const token = await exchangeCode(code, requestId);
  if (!token) return panelIntegrationsUrl({ error: "oauth_exchange_failed" });

  const credentialsEncrypted = await encryptJson({ ...token, obtained_at: now.toISOString() });
  const { oauth_nonce: _used, ...config } = pending.config;
  const done = await inTransaction(db, async (tx) => {
    // Conditional on the nonce still being there: of two callbacks racing with one state,
    // exactly one activates the integration.
    const updated = await tx.integration.updateMany({
      where: {
        id: pending.id,
        ownerId: state.owner,
        provider: "search_ads",
        status: "pending",
        config: { path: ["oauth_nonce"], equals: state.nonce },
      },
      data: {
        status: "active",
        credentialsEncrypted,
        config: { ...config, oauth_authorized_at: now.toISOString() } as Prisma.InputJsonObject,
      },
    });
    if (updated.count !== 1) return false;
    await recordAudit(tx, {
      ownerId: state.owner,
      // The signed state stands in for the owner's session: only the owner's connect issued it.
      actor: { type: "owner", ownerId: state.owner, credential: "session", tokenKey: `oauth:${pending.id}` },
      action: "integration.authorized",
      target: { type: "integration", id: pending.id },
      requestId,
      details: { provider: "search_ads", ...(token.scope ? { scope: token.scope } : {}) },
    });
    return true;
  });
  return done ? panelIntegrationsUrl({ connected: "search_ads" }) : invalid;
}

async function findPending(
  db: TDbOrTx,
  state: { owner: string; integration: string; nonce: string },
): Promise<{ id: string; config: Record<string, unknown> } | null> {
  if (!/^[0-9a-f-]{36}$/i.test(state.integration) || !/^[0-9a-f-]{36}$/i.test(state.owner)) return null;
  const row = await db.integration.findFirst({
    where: { id: state.integration, ownerId: state.owner, provider: "search_ads", status: "pending" },
    select: { id: true, config: true },
  });
  const config = (row?.config ?? null) as Record<string, unknown> | null;
  const stored = config?.oauth_nonce;
  if (!row || !config || typeof stored !== "string" || !sameSecret(stored, state.nonce)) return null;
  return { id: row.id, config };
}
