// OAuth 2.1 for assistants (pinned-wave3 §2.2): an assistant registers itself (RFC 7591), the
// owner approves it on the panel's consent page, which creates an agent (created_via "oauth") with
// the grants the owner picked, and the assistant exchanges the code (PKCE S256) for an agent token
// of one hour and a refresh token that rotates on each use. The access token is an ordinary agent
// token (agent_tokens, by hash), so /v1 and /mcp check it as any other; codes and refresh tokens
// are kept by their SHA-256 only. A refresh token used twice (a copy was stolen, or the client
// lost track) ends every token of the agent; revoking or suspending the agent ends them too.
import { createHash, randomBytes } from "node:crypto";
import type { TCaller } from "../auth/caller";
import { SCOPES } from "../auth/scopes";
import { sha256Hex } from "../auth/tokens";
import { auditCaller, recordAudit } from "../audit/audit-service";
import { assertGrantResources } from "../agents/agent-service";
import type { TGrantParsed } from "../agents/agent.schema";
import type { TDbOrTx, TTx } from "../db/client";
import { inTransaction } from "../db/transaction";
import { getEnv } from "../env";
import { AppError } from "../errors/app-error";
import type { TAuthorizeParams } from "./oauth.schema";
import { ZClientRegistration } from "./oauth.schema";
import { endOAuthTokens } from "../agents/end-agent-tokens";

export const AUTHORIZATION_CODE_TTL_MS = 10 * 60 * 1000;
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Spec silent: a refresh token lasts 30 days unused (each use gives a new one). */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** An OAuth error answer (RFC 6749 §5.2, RFC 7591 §3.2.2): `{ error, error_description }`. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

function baseUrl(): string {
  return getEnv().publicBaseUrl.replace(/\/+$/, "");
}

/** The issuer and endpoints (RFC 8414), the MCP resource (RFC 9728). */
export function oauthUrls() {
  const base = baseUrl();
  return {
    issuer: base,
    authorize: `${base}/oauth/authorize`,
    token: `${base}/oauth/token`,
    register: `${base}/oauth/register`,
    mcp: `${base}/mcp`,
    v1: `${base}/v1`,
    resourceMetadata: `${base}/.well-known/oauth-protected-resource`,
  };
}

/** `WWW-Authenticate` of a 401 from /mcp (and /v1): where the protected-resource metadata is. */
export function wwwAuthenticate(resource: "mcp" | "v1" = "mcp"): string {
  const { resourceMetadata } = oauthUrls();
  return `Bearer resource_metadata="${resource === "mcp" ? resourceMetadata : `${resourceMetadata}/v1`}"`;
}

/** GET /.well-known/oauth-authorization-server (RFC 8414). */
export function authorizationServerMetadata() {
  const urls = oauthUrls();
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorize,
    token_endpoint: urls.token,
    registration_endpoint: urls.register,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    scopes_supported: [...SCOPES],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${urls.issuer}/v1/openapi.json`,
  };
}

/** GET /.well-known/oauth-protected-resource[/mcp|/v1] (RFC 9728). */
export function protectedResourceMetadata(resource: "mcp" | "v1") {
  const urls = oauthUrls();
  return {
    resource: resource === "mcp" ? urls.mcp : urls.v1,
    authorization_servers: [urls.issuer],
    bearer_methods_supported: ["header"],
    scopes_supported: [...SCOPES],
    resource_name: resource === "mcp" ? "Finance back office (MCP)" : "Finance back office (REST /v1)",
  };
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** A redirect URI a client may register: https, or http on a loopback host; no fragment, no credentials. */
export function isAllowedRedirectUri(value: string): boolean {
  const url = parseUrl(value);
  if (!url || url.hash || value.includes("#") || url.username || url.password) return false;
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * Whether an authorization request's redirect_uri is one the client registered: the same string,
 * or (a loopback http one, RFC 8252 §7.3) the same but for its port.
 */
export function redirectUriMatches(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const url = parseUrl(requested);
  if (!url || url.protocol !== "http:" || !LOOPBACK_HOSTS.has(url.hostname)) return false;
  const portless = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  return registered.some((candidate) => {
    const other = parseUrl(candidate);
    return other !== null && other.protocol === "http:" && portless(other) === portless(url);
  });
}

function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

/** POST /oauth/register (RFC 7591): a public client (no secret), answered 201 with its metadata. */
export async function registerClient(db: TDbOrTx, body: unknown) {
  const parsed = ZClientRegistration.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "body";
    const error = field.startsWith("redirect_uris") ? "invalid_redirect_uri" : "invalid_client_metadata";
    throw new OAuthError(error, `${field}: ${issue?.message ?? "invalid"}`);
  }
  const input = parsed.data;
  const refused = input.redirect_uris.find((uri) => !isAllowedRedirectUri(uri));
  if (refused !== undefined) {
    throw new OAuthError(
      "invalid_redirect_uri",
      `redirect_uris: ${refused} is refused; use https, or http on 127.0.0.1, [::1] or localhost, without a fragment.`,
    );
  }
  if (input.token_endpoint_auth_method !== undefined && input.token_endpoint_auth_method !== "none") {
    throw new OAuthError("invalid_client_metadata", "token_endpoint_auth_method: only public clients (none) are registered.");
  }
  const grantTypes = input.grant_types ?? ["authorization_code", "refresh_token"];
  if (grantTypes.some((type) => type !== "authorization_code" && type !== "refresh_token")) {
    throw new OAuthError("invalid_client_metadata", "grant_types: only authorization_code and refresh_token are supported.");
  }
  if ((input.response_types ?? ["code"]).some((type) => type !== "code")) {
    throw new OAuthError("invalid_client_metadata", "response_types: only code is supported.");
  }
  const name = input.client_name ?? new URL(input.redirect_uris[0]!).host;
  const client = await db.oAuthClient.create({
    data: {
      clientId: `mcp_${randomBytes(16).toString("base64url")}`,
      name,
      redirectUris: input.redirect_uris,
      clientUri: input.client_uri,
    },
  });
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    ...(client.clientUri ? { client_uri: client.clientUri } : {}),
    grant_types: grantTypes,
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
}

export type TAuthorizeRequest = {
  client: { id: string; clientId: string; name: string; clientUri: string | null };
  redirectUri: string;
  codeChallenge: string;
  state: string | undefined;
  resource: string;
  scope: string;
};

/**
 * Checks an authorization request. Without a known client or with a redirect_uri it did not
 * register, nothing may be sent back to that URI: `page` (the consent page says why). Other
 * faults go back to the client (`redirect`, RFC 6749 §4.1.2.1).
 */
export type TAuthorizeCheck =
  | { ok: true; request: TAuthorizeRequest }
  | { ok: false; kind: "page"; field: string; message: string }
  | { ok: false; kind: "redirect"; field: string; redirectTo: string; message: string };

export async function checkAuthorizeRequest(db: TDbOrTx, params: TAuthorizeParams): Promise<TAuthorizeCheck> {
  if (!params.client_id) {
    return { ok: false, kind: "page", field: "client_id", message: "The request names no client (client_id is missing)." };
  }
  const client = await db.oAuthClient.findUnique({ where: { clientId: params.client_id } });
  if (!client) {
    return { ok: false, kind: "page", field: "client_id", message: "This client is not registered here (unknown client_id)." };
  }
  const redirectUri = params.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (!redirectUri || !redirectUriMatches(client.redirectUris, redirectUri)) {
    return {
      ok: false,
      kind: "page",
      field: "redirect_uri",
      message: "The redirect_uri is not one the client registered, so the answer cannot be sent back to it.",
    };
  }
  const fail = (error: string, description: string, field: string): TAuthorizeCheck => ({
    ok: false,
    kind: "redirect",
    field,
    redirectTo: redirectWith(redirectUri, { error, error_description: description, state: params.state }),
    message: description,
  });
  if (params.response_type !== "code") return fail("unsupported_response_type", "response_type must be code.", "response_type");
  if (!params.code_challenge)
    return fail("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256.", "code_challenge");
  if (params.code_challenge_method !== "S256") {
    return fail("invalid_request", "code_challenge_method must be S256 (plain is not accepted).", "code_challenge_method");
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(params.code_challenge)) {
    return fail(
      "invalid_request",
      "code_challenge must be the base64url SHA-256 of the verifier (43 characters).",
      "code_challenge",
    );
  }
  const urls = oauthUrls();
  const resource = params.resource ?? urls.mcp;
  if (![urls.mcp, urls.v1, urls.issuer].includes(resource.replace(/\/+$/, ""))) {
    return fail("invalid_target", `resource must be ${urls.mcp} (or ${urls.v1}).`, "resource");
  }
  return {
    ok: true,
    request: {
      client: { id: client.id, clientId: client.clientId, name: client.name, clientUri: client.clientUri },
      redirectUri,
      codeChallenge: params.code_challenge,
      state: params.state,
      resource,
      scope: params.scope ?? "",
    },
  };
}

/** The client's redirect_uri with the answer's parameters (and iss, RFC 9207). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  url.searchParams.set("iss", oauthUrls().issuer);
  return url.toString();
}

/** Where the owner's refusal sends the browser: error=access_denied. */
export function refusalRedirect(request: TAuthorizeRequest): string {
  return redirectWith(request.redirectUri, {
    error: "access_denied",
    error_description: "The owner refused.",
    state: request.state,
  });
}

/** The grants' scopes as an OAuth scope string. */
function scopeOf(grants: ReadonlyArray<{ scope: string }>): string {
  return [...new Set(grants.map((grant) => grant.scope))].sort().join(" ");
}

/**
 * The owner approves: an agent named after the client, with the grants the owner chose,
 * created_via "oauth", and a code (single use, 10 minutes) bound to the client, redirect_uri and
 * PKCE challenge. No token yet: the assistant gets it at the token endpoint.
 */
export async function approveAuthorization(
  db: TDbOrTx,
  caller: TCaller,
  input: {
    client_id: string;
    redirect_uri: string;
    code_challenge: string;
    code_challenge_method: "S256";
    state?: string;
    resource?: string;
    scope?: string;
    name?: string;
    grants: TGrantParsed[];
    allowed_ip_ranges: string[];
  },
): Promise<{ agent_id: string; redirect_to: string }> {
  const check = await checkAuthorizeRequest(db, { ...input, response_type: "code" });
  if (!check.ok) throw AppError.invalidField(check.field, check.message);
  const { request } = check;
  await assertGrantResources(db, caller.ownerId, input.grants);
  const code = newSecret("");
  return inTransaction(db, async (tx) => {
    const agent = await tx.agent.create({
      data: {
        ownerId: caller.ownerId,
        name: input.name ?? request.client.name.slice(0, 100),
        createdVia: "oauth",
        allowedIpRanges: input.allowed_ip_ranges,
        oauthClientId: request.client.id,
      },
    });
    if (input.grants.length) {
      await tx.agentGrant.createMany({
        data: input.grants.map((grant) => ({
          agentId: agent.id,
          scope: grant.scope,
          resource: grant.resource,
          level: grant.level,
          dailyLimitMinor: grant.daily_limit_minor == null ? null : BigInt(grant.daily_limit_minor),
          monthlyLimitMinor: grant.monthly_limit_minor == null ? null : BigInt(grant.monthly_limit_minor),
          currency: grant.currency ?? null,
          overLimit: grant.over_limit,
        })),
      });
    }
    await tx.oAuthAuthorizationCode.create({
      data: {
        codeHash: sha256Hex(code),
        clientId: request.client.id,
        ownerId: caller.ownerId,
        agentId: agent.id,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
        resource: request.resource,
        scope: scopeOf(input.grants),
        expiresAt: new Date(caller.now.getTime() + AUTHORIZATION_CODE_TTL_MS),
      },
    });
    await auditCaller(
      tx,
      caller,
      "agent.created",
      { type: "agent", id: agent.id },
      { name: agent.name, grants: input.grants.length, created_via: "oauth", client_id: request.client.clientId },
    );
    return { agent_id: agent.id, redirect_to: redirectWith(request.redirectUri, { code, state: request.state }) };
  });
}

/** base64url(SHA-256(verifier)) = challenge (RFC 7636 §4.6). */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export type TTokenAnswer = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
};

async function issueTokens(tx: TTx, agentId: string, scope: string, now: Date): Promise<TTokenAnswer> {
  const access = newSecret("agt_");
  const refresh = newSecret("rt_");
  await tx.agentToken.create({
    data: {
      agentId,
      tokenHash: sha256Hex(access),
      hint: `${access.slice(0, 10)}…`,
      expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000),
    },
  });
  await tx.oAuthRefreshToken.create({
    data: { agentId, tokenHash: sha256Hex(refresh), expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS) },
  });
  return { access_token: access, token_type: "Bearer", expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refresh, scope };
}

const invalidGrant = (description: string) => new OAuthError("invalid_grant", description);

/** POST /oauth/token: authorization_code (PKCE S256) or refresh_token (rotating). */
export async function exchangeToken(db: TDbOrTx, form: URLSearchParams, now: Date = new Date()): Promise<TTokenAnswer> {
  const grantType = form.get("grant_type");
  const clientId = form.get("client_id");
  if (!grantType) throw new OAuthError("invalid_request", "grant_type is required.");
  if (grantType !== "authorization_code" && grantType !== "refresh_token") {
    throw new OAuthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token.");
  }
  if (!clientId) throw new OAuthError("invalid_request", "client_id is required (public clients name themselves).");
  const client = await db.oAuthClient.findUnique({ where: { clientId } });
  if (!client) throw new OAuthError("invalid_client", "Unknown client_id.", 401);
  return grantType === "authorization_code" ? exchangeCode(db, client.id, form, now) : refreshTokens(db, client.id, form, now);
}

async function exchangeCode(db: TDbOrTx, clientRowId: string, form: URLSearchParams, now: Date): Promise<TTokenAnswer> {
  const code = form.get("code");
  const verifier = form.get("code_verifier");
  const redirectUri = form.get("redirect_uri");
  if (!code) throw new OAuthError("invalid_request", "code is required.");
  if (!verifier) throw new OAuthError("invalid_request", "code_verifier is required (PKCE).");
  const outcome = await inTransaction(db, async (tx) => {
    const row = await tx.oAuthAuthorizationCode.findUnique({ where: { codeHash: sha256Hex(code) }, include: { agent: true } });
    if (!row || row.clientId !== clientRowId) return { error: invalidGrant("The code is not valid for this client.") };
    // Single use, whatever the outcome: the first presentation spends it (a wrong verifier too).
    const spent = await tx.oAuthAuthorizationCode.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: now } });
    if (spent.count === 0) {
      // A code presented twice: what it gave is ended too (OAuth 2.1 §4.1.3).
      await endOAuthTokens(tx, row.agentId, now);
      await recordAudit(tx, {
        ownerId: row.ownerId,
        actor: { type: "system" },
        action: "agent.oauth_tokens_revoked",
        target: { type: "agent", id: row.agentId },
        details: { reason: "authorization_code_reused" },
      });
      return { error: invalidGrant("The code was already used; the tokens it gave are revoked.") };
    }
    if (row.expiresAt <= now) return { error: invalidGrant("The code has expired (codes last 10 minutes).") };
    if (redirectUri !== null && redirectUri !== row.redirectUri) {
      return { error: invalidGrant("redirect_uri differs from the authorization request's.") };
    }
    if (!VERIFIER.test(verifier) || s256(verifier) !== row.codeChallenge) {
      return { error: invalidGrant("code_verifier does not match the code_challenge (S256).") };
    }
    if (row.agent.status !== "active") return { error: invalidGrant("The agent is no longer active.") };
    return { tokens: await issueTokens(tx, row.agentId, row.scope, now) };
  });
  if ("error" in outcome) throw outcome.error;
  return outcome.tokens;
}

async function refreshTokens(db: TDbOrTx, clientRowId: string, form: URLSearchParams, now: Date): Promise<TTokenAnswer> {
  const token = form.get("refresh_token");
  if (!token) throw new OAuthError("invalid_request", "refresh_token is required.");
  const outcome = await inTransaction(db, async (tx) => {
    const row = await tx.oAuthRefreshToken.findUnique({
      where: { tokenHash: sha256Hex(token) },
      include: { agent: { include: { grants: true } } },
    });
    if (!row || row.agent.oauthClientId !== clientRowId)
      return { error: invalidGrant("The refresh token is not valid for this client.") };
    if (row.revokedAt) return { error: invalidGrant("The refresh token was revoked.") };
    const rotated = await tx.oAuthRefreshToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: now } });
    if (rotated.count === 0) {
      // Reuse of a rotated token: someone else may hold the chain; end all of it.
      await endOAuthTokens(tx, row.agentId, now);
      await recordAudit(tx, {
        ownerId: row.agent.ownerId,
        actor: { type: "system" },
        action: "agent.oauth_tokens_revoked",
        target: { type: "agent", id: row.agentId },
        details: { reason: "refresh_token_reused" },
      });
      return { error: invalidGrant("The refresh token was already used; every token of this connection is revoked.") };
    }
    if (row.expiresAt <= now) return { error: invalidGrant("The refresh token has expired.") };
    if (row.agent.status !== "active") return { error: invalidGrant("The agent is no longer active.") };
    return { tokens: await issueTokens(tx, row.agentId, scopeOf(row.agent.grants), now) };
  });
  if ("error" in outcome) throw outcome.error;
  return outcome.tokens;
}
