// Subscriptions over /v1: shapes with base amounts, scope lists, PATCH and its final state,
// allocations (replace, validation, exact split) and capacity. Every refusal writes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayUtc } from "../../lib/days";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { walkPages } from "../../test/helpers/pages";
import { seedBusiness, seedProject, seedSubscription, staticOwner } from "../../test/helpers/seed";
import type { TCaller } from "../auth/caller";
import { inTransaction } from "../db/transaction";
import { createSubscription } from "./subscription-service";

let api: TTestApi;
let ownerId: string;
let businessId: string;
let otherBusinessId: string;
let projects: string[];
let otherBusinessProject: string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TODAY = todayUtc();

/** A monthly "Design tool" of 100.00 USD of the business, unless `body` says otherwise. */
function subscription(body: Record<string, unknown> = {}) {
  return seedSubscription(api, { business_id: businessId, amount_minor: 10_000, currency: "USD", ...body });
}

async function counts() {
  const [subscriptions, allocations, capacities] = await Promise.all([
    api.db.subscription.count(),
    api.db.subscriptionAllocation.count(),
    api.db.subscriptionCapacity.count(),
  ]);
  return { subscriptions, allocations, capacities };
}

beforeAll(async () => {
  api = await createTestApi();
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
  otherBusinessId = (await seedBusiness(api, { name: "Borealis" })).id;
  projects = [];
  for (const name of ["Web", "App", "Ads"]) projects.push((await seedProject(api, businessId, { name })).id);
  otherBusinessProject = (await seedProject(api, otherBusinessId, { name: "Elsewhere" })).id;
});
afterAll(async () => api?.close());

describe("POST /v1/subscriptions", () => {
  it("creates a subscription (201) with scope, base amounts and an audit entry", async () => {
    const response = await api.call("POST", "/v1/subscriptions", {
      body: {
        business_id: businessId,
        name: " Figma ",
        amount_minor: 4500,
        currency: "USD",
        billing_interval: "month",
        next_charge_on: "2026-12-01",
        category: "software",
      },
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({
      id: expect.stringMatching(UUID),
      business_id: businessId,
      project_id: null,
      personal: false,
      name: "Figma",
      amount_minor: 4500,
      currency: "USD",
      base_amount_minor: 4500,
      base_currency: "USD",
      fx: { rate: "1.00000000", as_of: TODAY, source: "identity", kind: "current", stale: false },
      billing_interval: "month",
      next_charge_on: "2026-12-01",
      category: "software",
      status: "active",
      source_type: "MANUAL",
      provenance: { source: { type: "MANUAL", integration_id: null, external_id: null } },
      confidence: 1,
      allocations: [],
      capacity: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    const read = await api.call("GET", `/v1/subscriptions/${response.body.data.id}`);
    expect(read.body.data).toEqual(response.body.data);
    const audit = await api.db.auditEntry.findFirst({
      where: { action: "subscription.created", targetId: response.body.data.id },
    });
    expect(audit).not.toBeNull();
  });

  it("converts another currency to the owner's base at today's current rate", async () => {
    const created = await subscription({ amount_minor: 10_000, currency: "EUR" });
    expect(created).toMatchObject({
      amount_minor: 10_000,
      currency: "EUR",
      base_amount_minor: 10_842,
      base_currency: "USD",
      fx: { rate: "1.08420000", source: "mock", kind: "current", as_of: TODAY, stale: false },
    });
  });

  it("scopes to a project (its business implied) or to personal", async () => {
    const forProject = await subscription({ business_id: undefined, project_id: projects[0] });
    expect(forProject).toMatchObject({ business_id: businessId, project_id: projects[0], personal: false });
    const personal = await subscription({ business_id: undefined, personal: true });
    expect(personal).toMatchObject({ business_id: null, project_id: null, personal: true });
  });

  it.each([
    [{ business_id: undefined }, "business_id"],
    [{ personal: true }, "business_id"],
    [{ amount_minor: -1 }, "amount_minor"],
    [{ amount_minor: 12.5 }, "amount_minor"],
    [{ currency: "usd" }, "currency"],
    [{ currency: "XYZ" }, "currency"],
    [{ billing_interval: "day" }, "billing_interval"],
    [{ next_charge_on: "2026-02-30" }, "next_charge_on"],
    [{ name: "" }, "name"],
    [{ category: "" }, "category"],
  ])("refuses %j with 400 naming %s, writing nothing", async (patch, field) => {
    const before = await counts();
    const response = await api.call("POST", "/v1/subscriptions", {
      body: {
        business_id: businessId,
        name: "X",
        amount_minor: 100,
        currency: "USD",
        billing_interval: "month",
        next_charge_on: "2026-12-01",
        ...patch,
      },
    });
    expectApiError(response, 400, "validation_error", { issue: field });
    expect(await counts()).toEqual(before);
  });

  it("answers 404 for a business or project that is not the owner's, and 422 for an uncovered currency", async () => {
    const before = await counts();
    const base = { name: "X", amount_minor: 100, currency: "USD", billing_interval: "month", next_charge_on: "2026-12-01" };
    const unknown = "5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00";
    expect((await api.call("POST", "/v1/subscriptions", { body: { ...base, business_id: unknown } })).status).toBe(404);
    expect((await api.call("POST", "/v1/subscriptions", { body: { ...base, project_id: unknown } })).status).toBe(404);
    const brl = await api.call("POST", "/v1/subscriptions", { body: { ...base, business_id: businessId, currency: "BRL" } });
    expectApiError(brl, 422, "currency_unsupported");
    expect(await counts()).toEqual(before);
  });

  it("createSubscription joins the caller's transaction (a rollback leaves nothing)", async () => {
    const caller: TCaller = {
      ownerId,
      actor: { type: "owner", ownerId, credential: "static", tokenKey: "test" },
      requestId: "req_test",
      now: new Date(),
    };
    const before = await counts();
    const audits = await api.db.auditEntry.count();
    await expect(
      inTransaction(api.db, async (tx) => {
        const created = await createSubscription(tx, caller, {
          personal: true,
          name: "Rolled back",
          amount_minor: 999,
          currency: "USD",
          billing_interval: "year",
          next_charge_on: "2027-01-01",
        });
        expect(created.name).toBe("Rolled back");
        throw new Error("the recurring expense failed");
      }),
    ).rejects.toThrow("the recurring expense failed");
    expect(await counts()).toEqual(before);
    expect(await api.db.auditEntry.count()).toBe(audits);
    const imported = await createSubscription(
      api.db,
      caller,
      {
        personal: true,
        name: "Imported",
        amount_minor: 1299,
        currency: "USD",
        billing_interval: "month",
        next_charge_on: "2027-01-01",
      },
      {
        source_type: "IMPORT",
        confidence: 0.8,
        provenance: { source: { type: "IMPORT", integration_id: null, external_id: "x" } },
      },
    );
    expect(imported).toMatchObject({ source_type: "IMPORT", confidence: 0.8 });
  });
});

describe("subscription lists", () => {
  let listBusiness: string;
  let listProject: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    listBusiness = (await seedBusiness(api, { name: "Lists", currency: "USD" })).id;
    listProject = (await seedProject(api, listBusiness, { name: "P" })).id;
    ids.business = (await subscription({ business_id: listBusiness, name: "b" })).id;
    ids.project = (await subscription({ business_id: undefined, project_id: listProject, name: "p", currency: "EUR" })).id;
    ids.personal = (await subscription({ business_id: undefined, personal: true, name: "me" })).id;
    ids.elsewhere = (await subscription({ business_id: otherBusinessId, name: "elsewhere" })).id;
  });

  it("lists a business's subscriptions including its projects', newest first", async () => {
    const response = await api.call("GET", `/v1/businesses/${listBusiness}/subscriptions`);
    expect(response.status).toBe(200);
    expect(response.body.data.map((s: { id: string }) => s.id)).toEqual([ids.project, ids.business]);
    expect(response.body.page).toEqual({ next_cursor: null, has_more: false });
    expect(response.body.data[0]).toMatchObject({ currency: "EUR", base_currency: "USD", fx: { kind: "current" } });
    expect((await api.call("GET", "/v1/businesses/5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00/subscriptions")).status).toBe(404);
  });

  it("lists only personal subscriptions on /v1/personal/subscriptions", async () => {
    const response = await api.call("GET", "/v1/personal/subscriptions?limit=200");
    const listed = response.body.data as { id: string; personal: boolean }[];
    expect(listed.map((s) => s.id)).toContain(ids.personal);
    expect(listed.every((s) => s.personal)).toBe(true);
  });

  it("lists all with filters and pages by cursor, each subscription exactly once", async () => {
    const filtered = await api.call("GET", `/v1/subscriptions?business_id=${listBusiness}&currency=EUR`);
    expect(filtered.body.data.map((s: { id: string }) => s.id)).toEqual([ids.project]);
    const personal = await api.call("GET", "/v1/subscriptions?personal=true&limit=200");
    expect(personal.body.data.every((s: { personal: boolean }) => s.personal)).toBe(true);
    const all = (await api.call("GET", "/v1/subscriptions?limit=200")).body.data.map((s: { id: string }) => s.id);
    const seen = await walkPages(api, "/v1/subscriptions", { limit: 3 });
    expect(seen).toEqual(all);
    for (const id of Object.values(ids)) expect(seen).toContain(id);
    expect((await api.call("GET", "/v1/subscriptions?status=nope")).status).toBe(400);
  });
});

describe("PATCH /v1/subscriptions/{id}", () => {
  it("changes fields, pauses and resumes; cancelled is final (409)", async () => {
    const created = await subscription();
    const patched = await api.call("PATCH", `/v1/subscriptions/${created.id}`, {
      body: {
        name: "Renamed",
        amount_minor: 12_000,
        currency: "EUR",
        billing_interval: "year",
        category: "tools",
        status: "paused",
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      name: "Renamed",
      amount_minor: 12_000,
      currency: "EUR",
      base_amount_minor: 13_010,
      billing_interval: "year",
      category: "tools",
      status: "paused",
    });
    const cleared = await api.call("PATCH", `/v1/subscriptions/${created.id}`, { body: { category: null, status: "active" } });
    expect(cleared.body.data).toMatchObject({ category: null, status: "active" });
    expect((await api.call("PATCH", `/v1/subscriptions/${created.id}`, { body: { status: "cancelled" } })).status).toBe(200);
    for (const [method, path, body] of [
      ["PATCH", `/v1/subscriptions/${created.id}`, { status: "active" }],
      ["PATCH", `/v1/subscriptions/${created.id}`, { name: "again" }],
      ["PUT", `/v1/subscriptions/${created.id}/allocations`, { allocations: [{ project_id: projects[0], share_bps: 10_000 }] }],
      ["PUT", `/v1/subscriptions/${created.id}/capacity`, { unit: "seats", total: 1, used: 0 }],
    ] as const) {
      const response = await api.call(method, path, { body });
      expectApiError(response, 409, "state_conflict", { what: `${method} ${path}` });
    }
    const stored = await api.call("GET", `/v1/subscriptions/${created.id}`);
    expect(stored.body.data).toMatchObject({ status: "cancelled", name: "Renamed", allocations: [], capacity: null });
  });

  it("refuses bad values (400) and an uncovered currency (422) without changing anything", async () => {
    const created = await subscription();
    for (const body of [{ status: "deleted" }, { amount_minor: -5 }, { next_charge_on: "soon" }]) {
      expect((await api.call("PATCH", `/v1/subscriptions/${created.id}`, { body })).status).toBe(400);
    }
    const brl = await api.call("PATCH", `/v1/subscriptions/${created.id}`, { body: { currency: "BRL", name: "changed" } });
    expectApiError(brl, 422, "currency_unsupported");
    const stored = (await api.call("GET", `/v1/subscriptions/${created.id}`)).body.data;
    expect(stored).toEqual(created);
    expect((await api.call("PATCH", "/v1/subscriptions/5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00", { body: {} })).status).toBe(404);
  });
});

describe("PUT /v1/subscriptions/{id}/allocations", () => {
  const put = (id: string, allocations: unknown) =>
    api.call("PUT", `/v1/subscriptions/${id}/allocations`, { body: { allocations } });

  it("replaces the whole list and splits the amount exactly by largest remainder", async () => {
    const created = await subscription({ amount_minor: 100, currency: "USD" });
    const response = await put(created.id, [
      { project_id: projects[0], share_bps: 3333 },
      { project_id: projects[1], share_bps: 3334 },
      { project_id: projects[2], share_bps: 3333 },
    ]);
    expect(response.status).toBe(200);
    const allocations = response.body.data.allocations;
    // Order: share_bps desc, then project_id; 33.34 → 34 (remainder .34), 33.33 → 33 each.
    const [lowFirst, lowSecond] = [projects[0]!, projects[2]!].sort();
    expect(allocations).toEqual([
      expect.objectContaining({
        project_id: projects[1],
        share_bps: 3334,
        amount_minor: 34,
        currency: "USD",
        base_amount_minor: 34,
      }),
      expect.objectContaining({ project_id: lowFirst, share_bps: 3333, amount_minor: 33 }),
      expect.objectContaining({ project_id: lowSecond, share_bps: 3333, amount_minor: 33 }),
    ]);
    expect(allocations[0].fx).toEqual(response.body.data.fx);
    const replaced = await put(created.id, [{ project_id: projects[2], share_bps: 10_000 }]);
    expect(replaced.body.data.allocations).toEqual([
      expect.objectContaining({ project_id: projects[2], share_bps: 10_000, amount_minor: 100 }),
    ]);
    expect(await api.db.subscriptionAllocation.count({ where: { subscriptionId: created.id } })).toBe(1);
    expect((await api.call("GET", `/v1/subscriptions/${created.id}`)).body.data.allocations).toEqual(
      replaced.body.data.allocations,
    );
  });

  it("gives the leftover units to the largest remainders, and base amounts sum to the base too", async () => {
    const created = await subscription({ amount_minor: 999, currency: "EUR" });
    const response = await put(created.id, [
      { project_id: projects[0], share_bps: 5000 },
      { project_id: projects[1], share_bps: 2500 },
      { project_id: projects[2], share_bps: 2500 },
    ]);
    const data = response.body.data;
    const parts = data.allocations.map((a: { amount_minor: number }) => a.amount_minor);
    expect(parts[0]).toBe(499); // 499.5 rounds down: its remainder (.5) is smaller than .75 twice
    expect(parts.slice(1).sort()).toEqual([250, 250]);
    expect(parts.reduce((a: number, b: number) => a + b, 0)).toBe(999);
    const baseParts = data.allocations.map((a: { base_amount_minor: number }) => a.base_amount_minor);
    expect(baseParts.reduce((a: number, b: number) => a + b, 0)).toBe(data.base_amount_minor);
  });

  it("answers 422 allocation_sum_invalid when the shares do not sum to 10000, changing nothing", async () => {
    const created = await subscription();
    await put(created.id, [{ project_id: projects[0], share_bps: 10_000 }]);
    const before = (await api.call("GET", `/v1/subscriptions/${created.id}`)).body.data;
    for (const list of [
      [
        { project_id: projects[0], share_bps: 5000 },
        { project_id: projects[1], share_bps: 4999 },
      ],
      [
        { project_id: projects[0], share_bps: 5000 },
        { project_id: projects[1], share_bps: 5001 },
      ],
      [{ project_id: projects[1], share_bps: 1 }],
    ]) {
      const response = await put(created.id, list);
      expectApiError(response, 422, "allocation_sum_invalid");
    }
    expect((await api.call("GET", `/v1/subscriptions/${created.id}`)).body.data).toEqual(before);
  });

  it.each([
    [
      [
        { project_id: "P0", share_bps: 5000 },
        { project_id: "P0", share_bps: 5000 },
      ],
      "allocations.1.project_id",
    ],
    [
      [
        { project_id: "P0", share_bps: 0 },
        { project_id: "P1", share_bps: 10_000 },
      ],
      "allocations.0.share_bps",
    ],
    [[{ project_id: "P0", share_bps: 10_001 }], "allocations.0.share_bps"],
    [[{ project_id: "P0", share_bps: 50.5 }], "allocations.0.share_bps"],
    [[{ project_id: "nope", share_bps: 10_000 }], "allocations.0.project_id"],
    [
      [
        { project_id: "P0", share_bps: 5000 },
        { project_id: "OTHER", share_bps: 5000 },
      ],
      "allocations.1.project_id",
    ],
    [
      [
        { project_id: "P0", share_bps: 5000 },
        { project_id: "UNKNOWN", share_bps: 5000 },
      ],
      "allocations.1.project_id",
    ],
  ])("refuses %j with 400 naming %s", async (template, field) => {
    const created = await subscription();
    const ids: Record<string, string> = {
      P0: projects[0]!,
      P1: projects[1]!,
      OTHER: otherBusinessProject,
      UNKNOWN: "5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00",
    };
    const list = template.map((entry) => ({ ...entry, project_id: ids[entry.project_id] ?? entry.project_id }));
    const response = await put(created.id, list);
    expectApiError(response, 400, "validation_error", { issue: field });
    expect(await api.db.subscriptionAllocation.count({ where: { subscriptionId: created.id } })).toBe(0);
  });

  it("clears with an empty list; a personal subscription cannot be allocated (409); unknown id 404", async () => {
    const created = await subscription();
    await put(created.id, [{ project_id: projects[0], share_bps: 10_000 }]);
    const cleared = await put(created.id, []);
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.allocations).toEqual([]);
    const personal = await subscription({ business_id: undefined, personal: true });
    const refused = await put(personal.id, [{ project_id: projects[0], share_bps: 10_000 }]);
    expectApiError(refused, 409, "state_conflict");
    expect((await put(personal.id, [])).status).toBe(200);
    expect((await put("5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00", [])).status).toBe(404);
    expect((await api.call("PUT", `/v1/subscriptions/${created.id}/allocations`, { body: {} })).status).toBe(400);
  });

  it("allows a project-scoped subscription to be shared by its business's projects", async () => {
    const created = await subscription({ business_id: undefined, project_id: projects[0] });
    const response = await put(created.id, [
      { project_id: projects[0], share_bps: 7000 },
      { project_id: projects[1], share_bps: 3000 },
    ]);
    expect(response.status).toBe(200);
    expect(response.body.data.allocations.map((a: { amount_minor: number }) => a.amount_minor)).toEqual([7000, 3000]);
  });

  it("serialises concurrent replacements: every one succeeds and the last list stands whole", async () => {
    const created = await subscription({ amount_minor: 1000 });
    const lists = Array.from({ length: 10 }, (_, i) => [
      { project_id: projects[0], share_bps: 1000 + i * 100 },
      { project_id: projects[1], share_bps: 9000 - i * 100 },
    ]);
    const responses = await Promise.all(lists.map((list) => put(created.id, list)));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    const stored = await api.db.subscriptionAllocation.findMany({ where: { subscriptionId: created.id } });
    expect(stored).toHaveLength(2);
    expect(stored.reduce((sum, row) => sum + row.shareBps, 0)).toBe(10_000);
  });
});

describe("subscription capacity", () => {
  it("is { data: null } until set; PUT answers available and utilization; the subscription shows it", async () => {
    const created = await subscription();
    const empty = await api.call("GET", `/v1/subscriptions/${created.id}/capacity`);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ data: null });
    const put = await api.call("PUT", `/v1/subscriptions/${created.id}/capacity`, {
      body: { unit: "seats", total: 10, used: 4 },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual({
      unit: "seats",
      total: 10,
      used: 4,
      available: 6,
      utilization: 0.4,
      updated_at: expect.any(String),
    });
    expect((await api.call("GET", `/v1/subscriptions/${created.id}/capacity`)).body.data).toEqual(put.body.data);
    expect((await api.call("GET", `/v1/subscriptions/${created.id}`)).body.data.capacity).toEqual(put.body.data);
    const full = await api.call("PUT", `/v1/subscriptions/${created.id}/capacity`, {
      body: { unit: "seats", total: 4, used: 4 },
    });
    expect(full.body.data).toMatchObject({ available: 0, utilization: 1 });
    const zero = await api.call("PUT", `/v1/subscriptions/${created.id}/capacity`, { body: { unit: "GB", total: 0, used: 0 } });
    expect(zero.body.data).toMatchObject({ unit: "GB", available: 0, utilization: 0 });
  });

  it("answers 422 capacity_exceeded when used > total, writing nothing", async () => {
    const created = await subscription();
    const refused = await api.call("PUT", `/v1/subscriptions/${created.id}/capacity`, {
      body: { unit: "seats", total: 3, used: 4 },
    });
    expectApiError(refused, 422, "capacity_exceeded");
    expect((await api.call("GET", `/v1/subscriptions/${created.id}/capacity`)).body.data).toBeNull();
    await api.call("PUT", `/v1/subscriptions/${created.id}/capacity`, { body: { unit: "seats", total: 5, used: 1 } });
    const again = await api.call("PUT", `/v1/subscriptions/${created.id}/capacity`, {
      body: { unit: "seats", total: 5, used: 6 },
    });
    expect(again.status).toBe(422);
    expect((await api.call("GET", `/v1/subscriptions/${created.id}/capacity`)).body.data).toMatchObject({ total: 5, used: 1 });
  });

  it.each([
    [{ unit: "seats", total: -1, used: 0 }, "total"],
    [{ unit: "seats", total: 1.5, used: 0 }, "total"],
    [{ unit: "seats", total: 5, used: -1 }, "used"],
    [{ unit: "", total: 5, used: 1 }, "unit"],
    [{ total: 5, used: 1 }, "unit"],
  ])("refuses %j with 400 naming %s", async (body, field) => {
    const created = await subscription();
    const response = await api.call("PUT", `/v1/subscriptions/${created.id}/capacity`, { body });
    expectApiError(response, 400, "validation_error", { issue: field });
  });

  it("answers 404 for an unknown subscription", async () => {
    const unknown = "5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00";
    expect((await api.call("GET", `/v1/subscriptions/${unknown}/capacity`)).status).toBe(404);
    expect(
      (await api.call("PUT", `/v1/subscriptions/${unknown}/capacity`, { body: { unit: "x", total: 1, used: 0 } })).status,
    ).toBe(404);
  });
});
