// Connecting an assistant by OAuth 2.1 (issue 34, pinned-wave3 §2.2), driven as a real client
// would: it reads the metadata a 401 from /mcp points at, registers itself, sends the owner's
// browser (Chromium, not signed in) to the consent page, where the owner signs in, picks a
// template's grants and allows; the browser lands on the client's own loopback callback (a real
// HTTP server of this spec); the client exchanges the code with its PKCE verifier, calls /mcp and
// /v1 with the token, refreshes, and a reused refresh token revokes the chain. A second connection
// shows on the Agents page as connected by OAuth and ends when the owner revokes it; a third is
// refused. The consent page passes axe at 390 px and on a desktop (screenshots kept).
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { asBearer, E2E_BASE_URL, E2E_OWNER_TOKEN, openTokenForm, seriousViolations } from "./support";

test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const SHOTS = "test-results/screenshots";
const CLIENT_NAME = `Claude e2e ${randomBytes(3).toString("hex")}`;

/** The client's loopback redirect endpoint: records each query it is sent. */
let callback: { server: http.Server; url: string; hits: URLSearchParams[] };
let clientId: string;

test.beforeAll(async () => {
  const hits: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    hits.push(new URL(req.url ?? "/", "http://127.0.0.1").searchParams);
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><title>Connected</title><h1>You can close this window</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  callback = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, hits };
});
test.afterAll(async () => {
  await new Promise((resolve) => callback?.server.close(resolve));
});

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

function authorizeUrl(authorizationEndpoint: string, challenge: string, state: string): string {
  const url = new URL(authorizationEndpoint);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: callback.url,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state,
    resource: `${E2E_BASE_URL}/mcp`,
  }).toString();
  return url.toString();
}

const tokenRequest = (request: APIRequestContext, form: Record<string, string>) =>
  request.post(`${E2E_BASE_URL}/oauth/token`, { form });

async function mcpToolsList(request: APIRequestContext, token: string) {
  return request.post(`${E2E_BASE_URL}/mcp`, {
    headers: { Authorization: `Bearer ${token}`, Accept: "application/json, text/event-stream" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
}

/** The owner allows on the consent page; answers the code the callback received. */
async function allow(page: Page, state: string): Promise<string> {
  await page.getByRole("button", { name: "Allow access" }).click();
  await page.waitForURL((url) => url.href.startsWith(callback.url));
  const hit = callback.hits.at(-1)!;
  expect(hit.get("state")).toBe(state);
  expect(hit.get("iss")).toBe(E2E_BASE_URL);
  return hit.get("code")!;
}

let endpoints: { authorization_endpoint: string; token_endpoint: string; registration_endpoint: string };

test("an assistant discovers, registers, is approved, exchanges with PKCE, calls /mcp and /v1, refreshes; reuse revokes the chain", async ({
  page,
  request,
}) => {
  // Discovery as an MCP client does it: the 401's WWW-Authenticate, then the two documents.
  const unauthorized = await request.post(`${E2E_BASE_URL}/mcp`, {
    headers: { Accept: "application/json, text/event-stream" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(unauthorized.status()).toBe(401);
  const challengeHeader = unauthorized.headers()["www-authenticate"] ?? "";
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challengeHeader)?.[1];
  expect(metadataUrl).toBe(`${E2E_BASE_URL}/.well-known/oauth-protected-resource`);
  const resource = (await (await request.get(metadataUrl!)).json()) as { resource: string; authorization_servers: string[] };
  expect(resource.resource).toBe(`${E2E_BASE_URL}/mcp`);
  endpoints = await (await request.get(`${resource.authorization_servers[0]}/.well-known/oauth-authorization-server`)).json();

  const registered = await request.post(endpoints.registration_endpoint, {
    data: { client_name: CLIENT_NAME, redirect_uris: [callback.url] },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  clientId = ((await registered.json()) as { client_id: string }).client_id;

  // The owner's browser, not signed in: sign-in first, then back to the consent page.
  const { verifier, challenge } = pkce();
  await page.goto(authorizeUrl(endpoints.authorization_endpoint, challenge, "first"));
  await expect(page).toHaveURL(/\/sign-in/);
  await openTokenForm(page);
  await page.getByLabel("Owner token").fill(E2E_OWNER_TOKEN);
  await page.getByRole("button", { name: "Sign in with token" }).click();
  await expect(page).toHaveURL(/\/oauth\/authorize\?/);
  await expect(page.getByRole("heading", { level: 1, name: `Connect ${CLIENT_NAME}` })).toBeVisible();
  // The read-only template is preselected; the owner picks the forecaster's two grants instead.
  await expect(page.getByLabel("Start from")).toHaveValue("bookkeeper");
  await page.getByLabel("Start from").selectOption("forecaster");
  await expect(page.getByLabel("Agent name")).toHaveValue(CLIENT_NAME);

  for (const [scheme, viewport, label] of [
    ["light", { width: 1280, height: 900 }, "desktop"],
    ["dark", { width: 390, height: 844 }, "phone"],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize(viewport);
    expect(await seriousViolations(page), `axe ${label}`).toEqual([]);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `width on ${label}`).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: `${SHOTS}/oauth-consent-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  const code = await allow(page, "first");
  const exchanged = await tokenRequest(request, {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: callback.url,
  });
  expect(exchanged.status(), await exchanged.text()).toBe(200);
  const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string; expires_in: number; scope: string };
  expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "finances:observe forecast:observe" });
  expect(tokens.access_token).toMatch(/^agt_/);
  // The code is single use.
  const again = await tokenRequest(request, {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    client_id: clientId,
  });
  expect(((await again.json()) as { error: string }).error).toBe("invalid_grant");

  // That reuse ended the first tokens (OAuth 2.1: a code used twice revokes what it gave); connect again.
  const second = pkce();
  await page.goto(authorizeUrl(endpoints.authorization_endpoint, second.challenge, "second"));
  await expect(page.getByRole("heading", { level: 1, name: `Connect ${CLIENT_NAME}` })).toBeVisible();
  const code2 = await allow(page, "second");
  const fresh = (await (
    await tokenRequest(request, {
      grant_type: "authorization_code",
      code: code2,
      code_verifier: second.verifier,
      client_id: clientId,
    })
  ).json()) as typeof tokens;

  const tools = await mcpToolsList(request, fresh.access_token);
  expect(tools.status(), await tools.text()).toBe(200);
  expect(((await tools.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
  const me = await asBearer(request, fresh.access_token, "GET", "/v1/agents/me");
  expect(me.status()).toBe(200);
  const self = ((await me.json()) as { data: { agent: { name: string; created_via: string; grants: unknown[] } } }).data.agent;
  expect(self).toMatchObject({ name: CLIENT_NAME, created_via: "oauth" });
  expect(self.grants).toHaveLength(1); // this consent kept the preselected read-only template

  // Refresh rotates; the old refresh token used again revokes the whole chain.
  const rotated = await tokenRequest(request, {
    grant_type: "refresh_token",
    refresh_token: fresh.refresh_token,
    client_id: clientId,
  });
  expect(rotated.status(), await rotated.text()).toBe(200);
  const next = (await rotated.json()) as typeof tokens;
  expect(next.refresh_token).not.toBe(fresh.refresh_token);
  expect((await mcpToolsList(request, next.access_token)).status()).toBe(200);
  const reused = await tokenRequest(request, {
    grant_type: "refresh_token",
    refresh_token: fresh.refresh_token,
    client_id: clientId,
  });
  expect(reused.status()).toBe(400);
  expect(((await reused.json()) as { error: string }).error).toBe("invalid_grant");
  expect((await mcpToolsList(request, next.access_token)).status()).toBe(401);
  expect((await asBearer(request, next.access_token, "GET", "/v1/agents/me")).status()).toBe(401);
  const afterChain = await tokenRequest(request, {
    grant_type: "refresh_token",
    refresh_token: next.refresh_token,
    client_id: clientId,
  });
  expect(((await afterChain.json()) as { error: string }).error).toBe("invalid_grant");
});

test("the agent shows on the Agents page as connected by OAuth; revoking it ends access; refusing sends access_denied", async ({
  page,
  request,
}) => {
  const { verifier, challenge } = pkce();
  // A browser of its own: signing in from the consent page again.
  await page.goto(authorizeUrl(endpoints.authorization_endpoint, challenge, "third"));
  await openTokenForm(page);
  await page.getByLabel("Owner token").fill(E2E_OWNER_TOKEN);
  await page.getByRole("button", { name: "Sign in with token" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Connect ${CLIENT_NAME}` })).toBeVisible();
  await page.getByLabel("Agent name").fill(`${CLIENT_NAME} revoked`);
  const code = await allow(page, "third");
  const tokens = (await (
    await tokenRequest(request, { grant_type: "authorization_code", code, code_verifier: verifier, client_id: clientId })
  ).json()) as { access_token: string; refresh_token: string };
  expect((await mcpToolsList(request, tokens.access_token)).status()).toBe(200);

  await page.goto("/agents");
  const row = page.getByRole("row").filter({ hasText: `${CLIENT_NAME} revoked` });
  await expect(row.getByTestId("agent-oauth-badge")).toHaveText("OAuth");
  await row.getByRole("link", { name: `${CLIENT_NAME} revoked` }).click();
  await expect(page.getByTestId("agent-created-via")).toContainText("By OAuth");
  await page.getByRole("button", { name: "Revoke agent…" }).click();
  await page.getByRole("button", { name: "Yes, revoke it" }).click();
  await expect(page.getByText("Revoked for good.")).toBeVisible();

  await expect.poll(async () => (await mcpToolsList(request, tokens.access_token)).status()).toBe(401);
  expect((await asBearer(request, tokens.access_token, "GET", "/v1/agents/me")).status()).toBe(401);
  const refreshed = await tokenRequest(request, {
    grant_type: "refresh_token",
    refresh_token: tokens.refresh_token,
    client_id: clientId,
  });
  expect(((await refreshed.json()) as { error: string }).error).toBe("invalid_grant");

  // The owner refuses: back to the client with error=access_denied, no agent made.
  await page.goto(authorizeUrl(endpoints.authorization_endpoint, pkce().challenge, "fourth"));
  await page.getByTestId("consent-refuse").click();
  await page.waitForURL((url) => url.href.startsWith(callback.url));
  expect(callback.hits.at(-1)!.get("error")).toBe("access_denied");
  expect(callback.hits.at(-1)!.get("state")).toBe("fourth");
});
