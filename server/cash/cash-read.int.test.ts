// Reading cash snapshots back (additive, issue 14): GET /v1/cash-snapshots (every snapshot,
// newest first, cursor pages, filters) and GET /v1/cash-snapshots/latest (the latest balance of
// each account per scope). Owner-only; another owner's snapshots are never seen.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedAgent, seedBusiness, seedOwner } from "../../test/helpers/seed";

let api: TTestApi;
let atlas: string;
let borealis: string;

type TSnapshot = { id: string; business_id: string | null; personal: boolean; account_id: string; amount_minor: number };

const record = async (body: Record<string, unknown>, token?: string) => {
  const response = await api.call<{ data: TSnapshot }>("POST", "/v1/cash-snapshots", {
    token,
    body: { amount_minor: 100, currency: "EUR", payload: { account_id: "main" }, ...body },
  });
  expect(response.status, response.text).toBeLessThan(300);
  return response.body.data;
};

beforeAll(async () => {
  api = await createTestApi();
  atlas = (await seedBusiness(api, { name: "Atlas" })).id;
  borealis = (await seedBusiness(api, { name: "Borealis" })).id;
  // Atlas main: three days, the last one twice (a later as_of replaces the day's balance).
  await record({ business_id: atlas, amount_minor: 1_000, as_of: "2026-03-01T09:00:00Z" });
  await record({ business_id: atlas, amount_minor: 2_000, as_of: "2026-03-02T09:00:00Z" });
  await record({ business_id: atlas, amount_minor: 3_000, as_of: "2026-03-03T09:00:00Z" });
  await record({ business_id: atlas, amount_minor: 3_500, as_of: "2026-03-03T18:00:00Z" });
  // An older balance recorded later does not become the latest.
  await record({ business_id: atlas, amount_minor: 500, as_of: "2026-02-01T09:00:00Z" });
  await record({
    business_id: atlas,
    amount_minor: -250,
    currency: "USD",
    as_of: "2026-03-02T09:00:00Z",
    payload: { account_id: "card" },
  });
  // One account label in two scopes stays two accounts.
  await record({ business_id: borealis, amount_minor: 7_000, as_of: "2026-03-01T09:00:00Z" });
  await record({ personal: true, amount_minor: 42_00, as_of: "2026-03-04T09:00:00Z" });
});
afterAll(async () => api?.close());

describe("GET /v1/cash-snapshots", () => {
  it("lists every snapshot newest first, in cursor pages", async () => {
    const seen: TSnapshot[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=3&cursor=${cursor}` : "?limit=3";
      const response = await api.call("GET", `/v1/cash-snapshots${query}`);
      expect(response.status, response.text).toBe(200);
      seen.push(...response.body.data);
      cursor = response.body.page.next_cursor;
      expect(response.body.page.has_more).toBe(cursor !== null);
    } while (cursor);
    // 8 writes, one of which replaced its day's snapshot.
    expect(seen.map((s) => s.amount_minor)).toEqual([4200, 7000, -250, 500, 3500, 2000, 1000]);
    expect(new Set(seen.map((s) => s.id)).size).toBe(7);
  });

  it("filters by business, personal and account", async () => {
    const byBusiness = await api.call("GET", `/v1/cash-snapshots?business_id=${borealis}`);
    expect(byBusiness.body.data.map((s: TSnapshot) => s.amount_minor)).toEqual([7000]);
    const personal = await api.call("GET", "/v1/cash-snapshots?personal=true");
    expect(personal.body.data.map((s: TSnapshot) => s.amount_minor)).toEqual([4200]);
    const card = await api.call("GET", `/v1/cash-snapshots?business_id=${atlas}&account_id=card`);
    expect(card.body.data).toEqual([
      expect.objectContaining({ account_id: "card", amount_minor: -250, currency: "USD", base_currency: "USD" }),
    ]);
  });

  it("refuses a bad filter with the contract's 400", async () => {
    expectApiError(await api.call("GET", "/v1/cash-snapshots?business_id=nope"), 400, "validation_error");
    expectApiError(await api.call("GET", "/v1/cash-snapshots?limit=0"), 400, "validation_error");
  });
});

describe("GET /v1/cash-snapshots/latest", () => {
  it("answers the latest balance of each account of each scope, with its base amount", async () => {
    const response = await api.call("GET", "/v1/cash-snapshots/latest");
    expect(response.status, response.text).toBe(200);
    expect(response.body.truncated).toBe(false);
    const rows = response.body.data.map((s: TSnapshot & { as_of: string }) => ({
      scope: s.personal ? "personal" : s.business_id === atlas ? "atlas" : "borealis",
      account: s.account_id,
      amount: s.amount_minor,
      as_of: s.as_of,
    }));
    expect(rows).toHaveLength(4);
    expect(rows).toEqual(
      expect.arrayContaining([
        { scope: "atlas", account: "main", amount: 3500, as_of: "2026-03-03T18:00:00.000Z" },
        { scope: "atlas", account: "card", amount: -250, as_of: "2026-03-02T09:00:00.000Z" },
        { scope: "borealis", account: "main", amount: 7000, as_of: "2026-03-01T09:00:00.000Z" },
        { scope: "personal", account: "main", amount: 4200, as_of: "2026-03-04T09:00:00.000Z" },
      ]),
    );
    // Businesses first, personal last; accounts in order within a business.
    expect(rows.at(-1).scope).toBe("personal");
    const atlasRows = rows.filter((r: { scope: string }) => r.scope === "atlas").map((r: { account: string }) => r.account);
    expect(atlasRows).toEqual(["card", "main"]);
    expect(response.body.data[0]).toHaveProperty("base_amount_minor");
  });

  it("filters by scope", async () => {
    const atlasOnly = await api.call("GET", `/v1/cash-snapshots/latest?business_id=${atlas}`);
    expect(atlasOnly.body.data.map((s: TSnapshot) => s.amount_minor).sort()).toEqual([-250, 3500].sort());
    const personal = await api.call("GET", "/v1/cash-snapshots/latest?personal=true");
    expect(personal.body.data.map((s: TSnapshot) => s.amount_minor)).toEqual([4200]);
  });
});

describe("tenant isolation and access", () => {
  it("never shows another owner's snapshots, and filters by another owner's business find nothing", async () => {
    const other = await seedOwner(api);
    const theirs = (await seedBusiness(api, { name: "Other" }, other.token)).id;
    await record({ business_id: theirs, amount_minor: 999, as_of: "2026-03-01T09:00:00Z" }, other.token);
    const mine = await api.call("GET", "/v1/cash-snapshots?limit=200");
    expect(mine.body.data.map((s: TSnapshot) => s.amount_minor)).not.toContain(999);
    expect((await api.call("GET", `/v1/cash-snapshots?business_id=${theirs}`)).body.data).toEqual([]);
    expect((await api.call("GET", `/v1/cash-snapshots/latest?business_id=${theirs}`)).body.data).toEqual([]);
    const theirLatest = await api.call("GET", "/v1/cash-snapshots/latest", { token: other.token });
    expect(theirLatest.body.data.map((s: TSnapshot) => s.amount_minor)).toEqual([999]);
  });

  it("is owner-only: an agent gets 403 scope_denied", async () => {
    const agent = await seedAgent(api);
    expectApiError(await api.call("GET", "/v1/cash-snapshots", { token: agent.token }), 403, "scope_denied");
    expectApiError(await api.call("GET", "/v1/cash-snapshots/latest", { token: agent.token }), 403, "scope_denied");
  });

  it("appears in /v1/openapi.json", async () => {
    const doc = (await api.call("GET", "/v1/openapi.json")).body;
    expect(doc.paths["/v1/cash-snapshots"].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["limit", "cursor", "business_id", "personal", "account_id"]),
    );
    expect(doc.paths["/v1/cash-snapshots/latest"].get).toBeDefined();
  });
});
