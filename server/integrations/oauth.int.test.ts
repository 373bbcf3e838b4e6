// Search Ads OAuth end to end: connect answers an authorize URL with a signed state; the
// callback (no bearer) exchanges the code at a real local token server (node:http, real HTTP)
// and stores the refresh token encrypted. Forged, expired, reused and foreign states, a
// declined authorization and a failed exchange all redirect with their error and write nothing.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { applyTestEnv, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, seedOwner, staticOwner } from "../../test/helpers/seed";
import { decryptJson } from "../crypto/secret-box";
import { signOAuthState, verifyOAuthState } from "./oauth-state";

const PUBLIC_BASE_URL = "https://books.example.test";
const PANEL = `${PUBLIC_BASE_URL}/integrations`;
const CALLBACK = "/v1/integrations/search_ads/callback";
const REFRESH_TOKEN = "rt_live_4f9a1c2e7b8d0e3f5a6b7c8d9e0f1a2b";

type TTokenRequest = { path: string; contentType: string | undefined; form: Record<string, string> };

let api: TTestApi;
let ownerId: string;
let businessId: string;
let server: Server;
let tokenUrl: string;
const tokenRequests: TTokenRequest[] = [];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** A token endpoint: good-code → a refresh token; no-refresh → an answer without one; else 400. */
async function startTokenServer(): Promise<Server> {
  const s = createServer(async (req, res) => {
    const body = await readBody(req);
    const form = Object.fromEntries(new URLSearchParams(body));
    tokenRequests.push({ path: req.url ?? "", contentType: req.headers["content-type"], form });
    const reply = (status: number, json: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(json));
    };
    if (req.method !== "POST" || form.grant_type !== "authorization_code") return reply(400, { error: "unsupported_grant_type" });
    if (form.client_id !== "test-client" || form.client_secret !== "test-client-secret")
      return reply(401, { error: "invalid_client" });
    if (form.code === "good-code" || form.code === "race-code") {
      return reply(200, {
        access_token: "at_short_lived",
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: REFRESH_TOKEN,
        scope: "ads.read",
      });
    }
    if (form.code === "no-refresh") return reply(200, { access_token: "at_only", token_type: "Bearer" });
    if (form.code === "not-json") {
      res.writeHead(200, { "Content-Type": "text/html" });
      return res.end("<html>oops</html>");
    }
    return reply(400, { error: "invalid_grant" });
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return s;
}

beforeAll(async () => {
  server = await startTokenServer();
  tokenUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`;
  api = await createTestApi({
    env: {
      PUBLIC_BASE_URL,
      SEARCH_ADS_CLIENT_ID: "test-client",
      SEARCH_ADS_CLIENT_SECRET: "test-client-secret",
      SEARCH_ADS_TOKEN_URL: tokenUrl,
      SEARCH_ADS_AUTHORIZE_URL: "https://auth.search-ads.example/authorize?prompt=consent",
    },
  });
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api, { name: "Ads Co" })).id;
});
afterAll(async () => {
  await api?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});
beforeEach(() => {
  tokenRequests.length = 0;
  applyTestEnv({ SEARCH_ADS_TOKEN_URL: tokenUrl });
});

/** A pending search_ads integration and the state of its authorize URL. */
async function startConnect(): Promise<{ id: string; state: string; authorizeUrl: URL }> {
  const response = await api.call("POST", "/v1/integrations/search_ads/connect", {
    body: { business_id: businessId, account_id: `cust-${randomUUID()}` },
  });
  expect(response.status).toBe(201);
  const authorizeUrl = new URL(response.body.data.authorize_url);
  return { id: response.body.data.id, state: authorizeUrl.searchParams.get("state")!, authorizeUrl };
}

async function callback(query: Record<string, string>, options: { token?: string | null } = { token: null }) {
  const response = await api.call("GET", `${CALLBACK}?${new URLSearchParams(query)}`, options);
  return { ...response, location: response.headers.get("location") };
}

async function snapshot(id: string) {
  const row = await api.db.integration.findUniqueOrThrow({ where: { id } });
  const audits = await api.db.auditEntry.count({ where: { action: "integration.authorized" } });
  return { row, audits };
}

describe("GET /v1/integrations/search_ads/callback", () => {
  it("keeps the authorize URL's own query and adds the OAuth parameters", async () => {
    const { authorizeUrl } = await startConnect();
    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe("https://auth.search-ads.example/authorize");
    expect(authorizeUrl.searchParams.get("prompt")).toBe("consent");
    expect(authorizeUrl.searchParams.get("client_id")).toBe("test-client");
    expect(authorizeUrl.searchParams.get("redirect_uri")).toBe(`${PUBLIC_BASE_URL}${CALLBACK}`);
    expect(authorizeUrl.searchParams.get("response_type")).toBe("code");
  });

  it("exchanges the code, stores the refresh token encrypted, activates the integration and redirects to the panel", async () => {
    const { id, state } = await startConnect();
    const response = await callback({ code: "good-code", state });
    expect(response.status).toBe(302);
    expect(response.location).toBe(`${PANEL}?connected=search_ads`);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);

    expect(tokenRequests).toHaveLength(1);
    expect(tokenRequests[0]).toEqual({
      path: "/oauth/token",
      contentType: "application/x-www-form-urlencoded",
      form: {
        grant_type: "authorization_code",
        code: "good-code",
        redirect_uri: `${PUBLIC_BASE_URL}${CALLBACK}`,
        client_id: "test-client",
        client_secret: "test-client-secret",
      },
    });

    const row = await api.db.integration.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe("active");
    expect(row.config).not.toHaveProperty("oauth_nonce");
    const stored = Buffer.from(row.credentialsEncrypted!);
    expect(stored.includes(Buffer.from(REFRESH_TOKEN))).toBe(false);
    expect(stored.toString("latin1")).not.toContain(REFRESH_TOKEN);
    expect(await decryptJson(row.credentialsEncrypted!)).toMatchObject({ refresh_token: REFRESH_TOKEN, scope: "ads.read" });
    expect(JSON.stringify(row.config)).not.toContain(REFRESH_TOKEN);
    expect(JSON.stringify(await decryptJson(row.credentialsEncrypted!))).not.toContain("at_short_lived");

    const audit = await api.db.auditEntry.findFirstOrThrow({ where: { action: "integration.authorized", targetId: id } });
    expect(audit).toMatchObject({ actorType: "owner", actorId: ownerId, ownerId });
    expect(JSON.stringify(audit)).not.toContain(REFRESH_TOKEN);
    const listed = await api.call("GET", "/v1/integrations?provider=search_ads&limit=200");
    expect(listed.body.data.find((i: { id: string }) => i.id === id).status).toBe("active");
    expect(listed.text).not.toContain(REFRESH_TOKEN);
  });

  it("works once: the same state again is oauth_state_invalid and changes nothing", async () => {
    const { id, state } = await startConnect();
    expect((await callback({ code: "good-code", state })).location).toBe(`${PANEL}?connected=search_ads`);
    const before = await snapshot(id);
    tokenRequests.length = 0;
    const again = await callback({ code: "good-code", state });
    expect(again.status).toBe(302);
    expect(again.location).toBe(`${PANEL}?error=oauth_state_invalid`);
    expect(tokenRequests).toHaveLength(0);
    expect(await snapshot(id)).toEqual(before);
  });

  it("refuses forged, tampered, foreign, expired and missing states without calling the token endpoint", async () => {
    const { id, state } = await startConnect();
    const row = await api.db.integration.findUniqueOrThrow({ where: { id } });
    const nonce = (row.config as { oauth_nonce: string }).oauth_nonce;
    const [body, signature] = state.split(".") as [string, string];
    const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    const reencode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const other = await seedOwner(api, "oauth-other@example.test");
    const eleven = new Date(Date.now() - 11 * 60 * 1000);

    const bad: Array<[string, Record<string, string>]> = [
      ["no state", { code: "good-code" }],
      ["empty state", { code: "good-code", state: "" }],
      ["not signed", { code: "good-code", state: body }],
      [
        "signature flipped",
        { code: "good-code", state: `${body}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}` },
      ],
      ["signature truncated", { code: "good-code", state: `${body}.${signature.slice(0, 10)}` }],
      [
        "claims changed, old signature",
        { code: "good-code", state: `${reencode({ ...claims, exp: claims.exp + 3600 })}.${signature}` },
      ],
      ["another owner", { code: "good-code", state: await signOAuthState({ owner: other.ownerId, integration: id, nonce }) }],
      [
        "another nonce",
        { code: "good-code", state: await signOAuthState({ owner: ownerId, integration: id, nonce: "guessed" }) },
      ],
      ["expired", { code: "good-code", state: await signOAuthState({ owner: ownerId, integration: id, nonce }, eleven) }],
      ["garbage", { code: "good-code", state: "...." }],
    ];
    const before = await snapshot(id);
    for (const [what, query] of bad) {
      const response = await callback(query);
      expect(response.status, what).toBe(302);
      expect(response.location, what).toBe(`${PANEL}?error=oauth_state_invalid`);
    }
    expect(tokenRequests).toHaveLength(0);
    expect(await snapshot(id)).toEqual(before);
    expect(before.row.status).toBe("pending");

    // The genuine state still works afterwards.
    expect((await callback({ code: "good-code", state })).location).toBe(`${PANEL}?connected=search_ads`);
  });

  it("signs states that expire after 10 minutes", async () => {
    const now = new Date();
    const state = await signOAuthState({ owner: ownerId, integration: "x", nonce: "n" }, now);
    expect(await verifyOAuthState(state, new Date(now.getTime() + 9 * 60 * 1000))).not.toBeNull();
    expect(await verifyOAuthState(state, new Date(now.getTime() + 10 * 60 * 1000))).toBeNull();
  });

  it("redirects with oauth_denied when the owner declined, writing nothing", async () => {
    const { id, state } = await startConnect();
    const before = await snapshot(id);
    const response = await callback({ error: "access_denied", error_description: "The user denied access", state });
    expect(response.status).toBe(302);
    expect(response.location).toBe(`${PANEL}?error=oauth_denied`);
    expect(tokenRequests).toHaveLength(0);
    expect(await snapshot(id)).toEqual(before);
  });

  it.each([
    ["a refused code", { code: "expired-code" }],
    ["an answer without refresh_token", { code: "no-refresh" }],
    ["an answer that is not JSON", { code: "not-json" }],
    ["no code", {}],
  ])("redirects with oauth_exchange_failed for %s, writing nothing", async (_what, query) => {
    const { id, state } = await startConnect();
    const before = await snapshot(id);
    const response = await callback({ ...query, state });
    expect(response.status).toBe(302);
    expect(response.location).toBe(`${PANEL}?error=oauth_exchange_failed`);
    expect(await snapshot(id)).toEqual(before);
    expect(before.row.credentialsEncrypted).toBeNull();
  });

  it("redirects with oauth_exchange_failed when the token endpoint is unreachable", async () => {
    const closed = await startTokenServer();
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    applyTestEnv({ SEARCH_ADS_TOKEN_URL: `http://127.0.0.1:${port}/oauth/token` });
    const { id, state } = await startConnect();
    const before = await snapshot(id);
    const response = await callback({ code: "good-code", state });
    expect(response.location).toBe(`${PANEL}?error=oauth_exchange_failed`);
    expect(await snapshot(id)).toEqual(before);
  });

  it("activates once when two callbacks with one state race", async () => {
    const { id, state } = await startConnect();
    const responses = await Promise.all([1, 2, 3].map(() => callback({ code: "race-code", state })));
    const locations = responses.map((r) => r.location).sort();
    expect(locations.filter((l) => l === `${PANEL}?connected=search_ads`)).toHaveLength(1);
    expect(locations.filter((l) => l === `${PANEL}?error=oauth_state_invalid`)).toHaveLength(2);
    expect(await api.db.auditEntry.count({ where: { action: "integration.authorized", targetId: id } })).toBe(1);
  });

  it("is public but refuses an invalid bearer, like every public operation", async () => {
    const { state } = await startConnect();
    const response = await callback({ code: "good-code", state }, { token: "not-a-valid-token" });
    expectApiError(response, 401, "unauthenticated");
    expect(tokenRequests).toHaveLength(0);
  });
});
