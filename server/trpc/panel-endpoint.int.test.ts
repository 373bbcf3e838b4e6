// The panel's tRPC endpoint with real requests, a real session and a real database: the cookie
// is ambient authority, so a cookie call must pass the CSRF rule; a bearer call is exempt only
// because the bearer itself authenticates it, never the cookie beside it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { seedAgent } from "../../test/helpers/seed";
import { signInOwner, stopSharedSmtpSink } from "../../test/helpers/owners";
import { setDatabase } from "../db/client";
import { handlePanelTrpc } from "./panel-endpoint";

const BASE_URL = "http://localhost:3000";
const EVIL = "https://evil.example";

let api: TTestApi;
let owner: { token: string; ownerId: string };

beforeAll(async () => {
  api = await createTestApi({ env: { PUBLIC_BASE_URL: BASE_URL } });
  setDatabase(api.database);
  owner = await signInOwner(api, "trpc-csrf-owner@example.test");
});
afterAll(async () => {
  setDatabase(undefined);
  await api?.close();
  await stopSharedSmtpSink();
});

/** A cross-site write to the panel: a foreign page's fetch, with whatever headers it may add. */
function createBusiness(headers: Record<string, string>, name: string): Promise<Response> {
  return handlePanelTrpc(
    new Request(`${BASE_URL}/api/trpc/businesses.create`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ name, currency: "EUR" }),
    }),
  );
}

async function businessNamed(name: string): Promise<number> {
  return api.db.business.count({ where: { ownerId: owner.ownerId, name } });
}

describe("the panel's tRPC endpoint: bearer or cookie, never a bearer that falls back to the cookie", () => {
  it("refuses a junk bearer beside a valid cookie with 401, without CSRF token, and writes nothing", async () => {
    const response = await createBusiness(
      { authorization: "Bearer junk", cookie: `fbo_token=${owner.token}`, origin: EVIL, "sec-fetch-site": "cross-site" },
      "Forged by junk bearer",
    );
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain("Forged by junk bearer");
    expect(await businessNamed("Forged by junk bearer")).toBe(0);

    // Reads too: the owner's data never answers a junk bearer.
    const read = await handlePanelTrpc(
      new Request(`${BASE_URL}/api/trpc/me.get?input=${encodeURIComponent("{}")}`, {
        headers: { authorization: "Bearer junk", cookie: `fbo_token=${owner.token}` },
      }),
    );
    expect(read.status).toBe(401);
    expect(await read.text()).not.toContain("trpc-csrf-owner@example.test");
  });

  it("refuses an agent's bearer (the panel is the owner's) even with the owner's cookie", async () => {
    const agent = await seedAgent(api, { name: "Panel intruder" });
    const response = await createBusiness(
      { authorization: `Bearer ${agent.token}`, cookie: `fbo_token=${owner.token}`, origin: EVIL },
      "Forged by agent bearer",
    );
    expect(response.status).toBe(401);
    expect(await businessNamed("Forged by agent bearer")).toBe(0);
  });

  it("serves a valid owner bearer (no cookie, no Origin needed)", async () => {
    const response = await createBusiness({ authorization: `Bearer ${owner.token}` }, "Created by bearer");
    expect(response.status).toBe(200);
    expect(await businessNamed("Created by bearer")).toBe(1);
  });

  it("still refuses a cookie call from another site (403 csrf_rejected), and serves one from this site", async () => {
    const refused = await createBusiness({ cookie: `fbo_token=${owner.token}`, origin: EVIL }, "Forged by cookie");
    expect(refused.status).toBe(403);
    expect(await businessNamed("Forged by cookie")).toBe(0);

    const served = await createBusiness(
      { cookie: `fbo_token=${owner.token}`, origin: BASE_URL, "sec-fetch-site": "same-origin" },
      "Created by cookie",
    );
    expect(served.status).toBe(200);
    expect(await businessNamed("Created by cookie")).toBe(1);
  });
});

describe("the panel's tRPC endpoint keeps JSON types", () => {
  const createExpense = (amount_minor: unknown) =>
    handlePanelTrpc(
      new Request(`${BASE_URL}/api/trpc/ledger.createExpense`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${owner.token}` },
        body: JSON.stringify({ personal: true, amount_minor, currency: "EUR", occurred_on: "2024-05-01" }),
      }),
    );
  const expenses = () => api.db.financialEvent.count({ where: { ownerId: owner.ownerId } });

  it("refuses a number sent as a string with 400, also after /v1 converted query strings, and writes nothing", async () => {
    const before = await expenses();
    expect((await createExpense("100")).status).toBe(400);
    expect((await api.call("GET", "/v1/events?limit=2&personal=true")).status).toBe(200);
    expect((await createExpense("100")).status).toBe(400);
    expect(await expenses()).toBe(before);
    expect((await createExpense(100)).status).toBe(200);
    expect(await expenses()).toBe(before + 1);
  });
});
