// OAuth 2.1 for assistants (pinned-wave3 §2.2) on both engines, through the real handlers: the
// metadata documents, registration (public clients, https or loopback redirect URIs, per-IP
// limited), the consent's approval (POST /v1/oauth/authorizations: an agent created_via oauth with
// the grants given), the code exchange with PKCE S256 (wrong verifier, reused code, expired code,
// another redirect_uri, plain PKCE refused), refresh-token rotation and reuse revoking the chain,
// revoking and suspending the agent ending its tokens, the access token on /v1 and /mcp, and the
// WWW-Authenticate of a 401 on both.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, freshClientIp, OWNER_TOKEN, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { staticOwner } from "../../test/helpers/seed";
import { SOCKET_ADDRESS_HEADER } from "../auth/client-ip";
import { createMcpHandler, type TMcpHandler } from "../mcp/http";
import { consumeIpLimit } from "../rest/ip-limit";
import { operationDefinitions } from "../rest/route-table";
import { appRouter } from "../router";
import { metadataResponse, registerHandler, tokenHandler } from "./http";
import { checkAuthorizeRequest, oauthUrls } from "./oauth-service";

let api: TTestApi;
let mcp: TMcpHandler;
let register: (req: Request) => Promise<Response>;
let token: (req: Request) => Promise<Response>;
let ownerId: string;

beforeAll(async () => {
  api = await createTestApi();
  ownerId = (await staticOwner(api)).ownerId;
  const options = {
    ipLimit: (db: typeof api.db, ip: string | null) => consumeIpLimit(db, "public", ip),
    getDb: async () => api.db,
  };
  register = registerHandler(options);
  token = tokenHandler(options);
  mcp = createMcpHandler({ v1: api.handler, procedures: operationDefinitions(appRouter), getDb: async () => api.db });
});
afterAll(async () => api?.close());

const REDIRECT = "http://127.0.0.1:33418/callback";

async function json(response: Response) {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

function post(handler: (req: Request) => Promise<Response>, body: string, contentType: string, ip = freshClientIp()) {
  return handler(
    new Request("http://localhost/oauth/x", {
      method: "POST",
      headers: { "content-type": contentType, [SOCKET_ADDRESS_HEADER]: ip },
      body,
    }),
  ).then(json);
}

const registerClient = (metadata: object, ip?: string) => post(register, JSON.stringify(metadata), "application/json", ip);
const tokenCall = (form: Record<string, string>) =>
  post(token, new URLSearchParams(form).toString(), "application/x-www-form-urlencoded");

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

async function newClient(name = "Claude"): Promise<string> {
  const response = await registerClient({ client_name: name, redirect_uris: [REDIRECT] });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.client_id as string;
}

/** The owner approves (as the consent page does); answers the code and the new agent. */
async function approve(clientId: string, challenge: string, extra: object = {}) {
  const response = await api.call("POST", "/v1/oauth/authorizations", {
    body: {
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "st-1",
      resource: oauthUrls().mcp,
      grants: [{ scope: "finances:observe", resource: "*", level: "recommend" }],
      ...extra,
    },
  });
  expect(response.status, response.text).toBe(201);
  const redirect = new URL(response.body.data.redirect_to as string);
  return { code: redirect.searchParams.get("code")!, redirect, agentId: response.body.data.agent_id as string };
}

async function connect(name = "Claude") {
  const clientId = await newClient(name);
  const { verifier, challenge } = pkce();
  const { code, agentId } = await approve(clientId, challenge);
  const exchanged = await tokenCall({
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: REDIRECT,
  });
  expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
  return { clientId, agentId, tokens: exchanged.body as { access_token: string; refresh_token: string } };
}

const refresh = (clientId: string, refreshToken: string) =>
  tokenCall({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId });

const mcpCall = (bearer: string | null) =>
  mcp(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }),
  );

describe("metadata", () => {
  it("describes the authorization server (RFC 8414) and the MCP resource (RFC 9728)", async () => {
    const urls = oauthUrls();
    const server = await json(metadataResponse("authorization-server"));
    expect(server.body).toMatchObject({
      issuer: urls.issuer,
      authorization_endpoint: urls.authorize,
      token_endpoint: urls.token,
      registration_endpoint: urls.register,
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      grant_types_supported: ["authorization_code", "refresh_token"],
    });
    const resource = await json(metadataResponse("mcp"));
    expect(resource.body).toMatchObject({ resource: urls.mcp, authorization_servers: [urls.issuer] });
    expect(resource.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("points a 401 of /mcp and of /v1 at the metadata (WWW-Authenticate)", async () => {
    const fromMcp = await mcpCall(null);
    expect(fromMcp.status).toBe(401);
    expect(fromMcp.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${oauthUrls().issuer}/.well-known/oauth-protected-resource"`,
    );
    const fromV1 = await api.call("GET", "/v1/me", { token: null });
    expect(fromV1.status).toBe(401);
    expect(fromV1.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${oauthUrls().issuer}/.well-known/oauth-protected-resource/v1"`,
    );
  });
});

describe("POST /oauth/register", () => {
  it("refuses a body past 64 KiB with OAuth's error body, for registration and token alike", async () => {
    const big = "x".repeat(64 * 1024 + 1);
    const registration = await post(
      register,
      JSON.stringify({ client_name: big, redirect_uris: [REDIRECT] }),
      "application/json",
    );
    expect(registration.status).toBe(400);
    expect(registration.body.error).toBe("invalid_client_metadata");
    const exchange = await post(token, `grant_type=authorization_code&code=${big}`, "application/x-www-form-urlencoded");
    expect(exchange.status).toBe(400);
    expect(exchange.body.error).toBe("invalid_request");
  });

  it("registers a public client with https or loopback http redirect URIs", async () => {
    const response = await registerClient({
      client_name: "Inspector",
      redirect_uris: ["https://app.example/cb", "http://localhost:6274/oauth/callback", "http://[::1]:9/cb"],
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      client_name: "Inspector",
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    });
    expect(response.body.client_secret).toBeUndefined();
    expect(response.body.client_id).toMatch(/^mcp_/);
  });

  it("refuses http on a public host, other schemes, fragments, a secret-holding client and bad JSON", async () => {
    for (const uri of ["http://evil.example/cb", "javascript:alert(1)", "https://app.example/cb#x", "ftp://a/b"]) {
      const response = await registerClient({ redirect_uris: [uri] });
      expect(response.status, uri).toBe(400);
      expect(response.body.error, uri).toBe("invalid_redirect_uri");
    }
    expect((await registerClient({ redirect_uris: [] })).body.error).toBe("invalid_redirect_uri");
    const secret = await registerClient({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_basic" });
    expect(secret.body.error).toBe("invalid_client_metadata");
    const bad = await post(register, "{", "application/json");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_client_metadata");
  });

  it("is limited per IP like the other public routes (60 a minute, then 429)", async () => {
    const ip = freshClientIp();
    // Refused registrations count too; a window may end during the loop, hence up to two windows.
    let refused = await registerClient({ redirect_uris: ["http://evil.example/"] }, ip);
    for (let i = 0; i < 125 && refused.status !== 429; i += 1) {
      refused = await registerClient({ redirect_uris: ["http://evil.example/"] }, ip);
    }
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("the authorization request", () => {
  it("is explained on the page for an unknown client or a redirect_uri the client did not register", async () => {
    const clientId = await newClient();
    const { challenge } = pkce();
    const base = { response_type: "code", code_challenge: challenge, code_challenge_method: "S256" };
    expect(await checkAuthorizeRequest(api.db, { ...base, client_id: "mcp_nope", redirect_uri: REDIRECT })).toMatchObject({
      ok: false,
      kind: "page",
    });
    const bad = await checkAuthorizeRequest(api.db, { ...base, client_id: clientId, redirect_uri: "https://evil.example/cb" });
    expect(bad).toMatchObject({ ok: false, kind: "page" });
    // A loopback redirect may change its port (RFC 8252 §7.3), nothing else.
    const otherPort = await checkAuthorizeRequest(api.db, {
      ...base,
      client_id: clientId,
      redirect_uri: "http://127.0.0.1:5555/callback",
    });
    expect(otherPort.ok).toBe(true);
  });

  it("sends plain PKCE, a missing challenge and another resource back to the client as errors", async () => {
    const clientId = await newClient();
    const { challenge } = pkce();
    const plain = await checkAuthorizeRequest(api.db, {
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "plain",
      state: "s",
    });
    expect(plain.ok).toBe(false);
    if (plain.ok || plain.kind !== "redirect") throw new Error("expected a redirect");
    const url = new URL(plain.redirectTo);
    expect(url.origin + url.pathname).toBe(REDIRECT);
    expect(url.searchParams.get("error")).toBe("invalid_request");
    expect(url.searchParams.get("state")).toBe("s");
    const none = await checkAuthorizeRequest(api.db, { response_type: "code", client_id: clientId, redirect_uri: REDIRECT });
    expect(none).toMatchObject({ ok: false, kind: "redirect" });
    const target = await checkAuthorizeRequest(api.db, {
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource: "https://other.example/mcp",
    });
    if (target.ok || target.kind !== "redirect") throw new Error("expected a redirect");
    expect(new URL(target.redirectTo).searchParams.get("error")).toBe("invalid_target");
  });

  it("approving refuses plain PKCE and a foreign redirect_uri (400)", async () => {
    const clientId = await newClient();
    const { challenge } = pkce();
    const body = { client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256" };
    expectApiError(
      await api.call("POST", "/v1/oauth/authorizations", { body: { ...body, code_challenge_method: "plain" } }),
      400,
      "validation_error",
    );
    expectApiError(
      await api.call("POST", "/v1/oauth/authorizations", { body: { ...body, redirect_uri: "https://evil.example/cb" } }),
      400,
      "validation_error",
    );
  });

  it("creates an agent named after the client, created_via oauth, with the grants given, and audits it", async () => {
    const clientId = await newClient("Claude Desktop");
    const { challenge } = pkce();
    const { agentId, redirect } = await approve(clientId, challenge);
    expect(redirect.searchParams.get("state")).toBe("st-1");
    expect(redirect.searchParams.get("iss")).toBe(oauthUrls().issuer);
    const agent = await api.call("GET", `/v1/agents/${agentId}`);
    expect(agent.body.data).toMatchObject({ name: "Claude Desktop", created_via: "oauth", status: "active", token_hint: null });
    expect(agent.body.data.grants).toEqual([
      expect.objectContaining({ scope: "finances:observe", resource: "*", level: "recommend" }),
    ]);
    const audit = await api.db.auditEntry.findFirst({ where: { ownerId, targetId: agentId, action: "agent.created" } });
    expect(audit?.details).toMatchObject({ created_via: "oauth", client_id: clientId });
    const listed = await api.call("GET", "/v1/agents?limit=100");
    const byId = (listed.body.data as Array<{ id: string; created_via: string }>).find((item) => item.id === agentId);
    expect(byId?.created_via).toBe("oauth");
  });
});

describe("POST /oauth/token", () => {
  it("exchanges the code with its verifier for an hour-long agent token valid on /v1 and /mcp", async () => {
    const { tokens, agentId } = await connect();
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "finances:observe" });
    expect(tokens.access_token).toMatch(/^agt_/);
    const me = await api.call("GET", "/v1/agents/me", { token: tokens.access_token });
    expect(me.status, me.text).toBe(200);
    expect(me.body.data.agent).toMatchObject({ id: agentId, created_via: "oauth" });
    const listed = await mcpCall(tokens.access_token);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    // Hashes only at rest.
    const row = await api.db.agentToken.findFirst({ where: { agentId } });
    expect(row?.tokenHash).not.toContain(tokens.access_token);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(3590_000);
    const refreshRow = await api.db.oAuthRefreshToken.findFirst({ where: { agentId } });
    expect(refreshRow?.tokenHash).toBe(createHash("sha256").update(tokens.refresh_token).digest("hex"));
  });

  it("refuses a wrong verifier, and the code is spent by that attempt", async () => {
    const clientId = await newClient();
    const { verifier, challenge } = pkce();
    const { code } = await approve(clientId, challenge);
    const wrong = await tokenCall({
      grant_type: "authorization_code",
      code,
      code_verifier: pkce().verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");
    const right = await tokenCall({ grant_type: "authorization_code", code, code_verifier: verifier, client_id: clientId });
    expect(right.body.error).toBe("invalid_grant");
  });

  it("refuses a reused code and revokes the tokens it gave", async () => {
    const clientId = await newClient();
    const { verifier, challenge } = pkce();
    const { code } = await approve(clientId, challenge);
    const form = { grant_type: "authorization_code", code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT };
    const first = await tokenCall(form);
    expect(first.status).toBe(200);
    const again = await tokenCall(form);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expectApiError(await api.call("GET", "/v1/agents/me", { token: first.body.access_token }), 401, "token_revoked");
    expect((await refresh(clientId, first.body.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("refuses an expired code (10 minutes)", async () => {
    const clientId = await newClient();
    const { verifier, challenge } = pkce();
    const { code, agentId } = await approve(clientId, challenge);
    const row = await api.db.oAuthAuthorizationCode.findFirstOrThrow({ where: { agentId } });
    expect(Math.abs(row.expiresAt.getTime() - row.createdAt.getTime() - 10 * 60 * 1000)).toBeLessThan(2000);
    await api.db.oAuthAuthorizationCode.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await tokenCall({ grant_type: "authorization_code", code, code_verifier: verifier, client_id: clientId });
    expect(expired.body).toMatchObject({ error: "invalid_grant" });
    expect(expired.body.error_description).toMatch(/expired/);
  });

  it("refuses another redirect_uri, another client and an unknown client", async () => {
    const clientId = await newClient();
    const otherClient = await newClient("Other");
    const { verifier, challenge } = pkce();
    const { code } = await approve(clientId, challenge);
    const form = { grant_type: "authorization_code", code, code_verifier: verifier };
    expect((await tokenCall({ ...form, client_id: otherClient })).body.error).toBe("invalid_grant");
    const unknown = await tokenCall({ ...form, client_id: "mcp_unknown" });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe("invalid_client");
    const redirect = await tokenCall({ ...form, client_id: clientId, redirect_uri: "http://127.0.0.1:1/other" });
    expect(redirect.body.error).toBe("invalid_grant");
    expect((await tokenCall({ grant_type: "password", client_id: clientId })).body.error).toBe("unsupported_grant_type");
    const notForm = await post(token, JSON.stringify(form), "application/json");
    expect(notForm.body.error).toBe("invalid_request");
  });

  it("rotates refresh tokens; reusing one revokes the whole chain", async () => {
    const { clientId, tokens } = await connect();
    const second = await refresh(clientId, tokens.refresh_token);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(second.body.access_token).toMatch(/^agt_/);
    expect((await api.call("GET", "/v1/agents/me", { token: second.body.access_token })).status).toBe(200);
    // The first refresh token again: the chain ends, the new tokens with it.
    const reused = await refresh(clientId, tokens.refresh_token);
    expect(reused.body.error).toBe("invalid_grant");
    expectApiError(await api.call("GET", "/v1/agents/me", { token: second.body.access_token }), 401, "token_revoked");
    expect((await refresh(clientId, second.body.refresh_token)).body.error).toBe("invalid_grant");
    expect((await mcpCall(second.body.access_token)).status).toBe(401);
  });

  it("revoking the agent ends its access and refresh tokens", async () => {
    const { clientId, agentId, tokens } = await connect();
    expect((await api.call("POST", `/v1/agents/${agentId}/revoke`, { token: OWNER_TOKEN })).status).toBe(200);
    expectApiError(await api.call("GET", "/v1/agents/me", { token: tokens.access_token }), 401, "token_revoked");
    expect((await refresh(clientId, tokens.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("suspending the agent ends its tokens too", async () => {
    const { clientId, agentId, tokens } = await connect();
    const suspended = await api.call("PATCH", `/v1/agents/${agentId}`, { body: { status: "suspended" } });
    expect(suspended.status, suspended.text).toBe(200);
    expect((await refresh(clientId, tokens.refresh_token)).body.error).toBe("invalid_grant");
    await api.call("PATCH", `/v1/agents/${agentId}`, { body: { status: "active" } });
    expectApiError(await api.call("GET", "/v1/agents/me", { token: tokens.access_token }), 401, "token_revoked");
  });
});
