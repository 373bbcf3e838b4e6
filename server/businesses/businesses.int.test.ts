// Businesses and projects over /v1: shapes, validation, pagination and tenant isolation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { walkPages } from "../../test/helpers/pages";
import { seedBusiness, seedOwner, seedProject } from "../../test/helpers/seed";

let api: TTestApi;
let otherOwnersBusinessId: string;
let otherOwnersProjectId: string;

beforeAll(async () => {
  api = await createTestApi();
  // Another owner's records.
  const other = await seedOwner(api, "other@example.test");
  otherOwnersBusinessId = (await seedBusiness(api, { name: "Not yours", currency: "USD" }, other.token)).id;
  otherOwnersProjectId = (await seedProject(api, otherOwnersBusinessId, { name: "Hidden" }, other.token)).id;
});
afterAll(async () => api?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("businesses", () => {
  it("creates a business (201) with the DESIGN.md shape", async () => {
    const response = await api.call("POST", "/v1/businesses", { body: { name: "  Atlas Studio ", currency: "EUR" } });
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({
      id: expect.stringMatching(UUID),
      name: "Atlas Studio",
      currency: "EUR",
      status: "active",
      archived_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.any(String),
    });
    const read = await api.call("GET", `/v1/businesses/${response.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(response.body.data);
  });

  it.each([
    [{ name: "X" }, "currency"],
    [{ name: "X", currency: "eur" }, "currency"],
    [{ name: "X", currency: "XYZ" }, "currency"],
    [{ name: "", currency: "EUR" }, "name"],
    [{ currency: "EUR" }, "name"],
  ])("refuses %j with 400 naming %s, writing nothing", async (body, field) => {
    const before = await api.db.business.count();
    const response = await api.call("POST", "/v1/businesses", { body });
    expectApiError(response, 400, "validation_error", { issue: field });
    expect(await api.db.business.count()).toBe(before);
  });

  it("updates name and currency with PATCH", async () => {
    const created = await api.call("POST", "/v1/businesses", { body: { name: "Old name", currency: "EUR" } });
    const patched = await api.call("PATCH", `/v1/businesses/${created.body.data.id}`, {
      body: { name: "New name", currency: "GBP" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: "New name", currency: "GBP" });
  });

  it("answers 400 for a non-UUID id and 404 for an unknown one", async () => {
    const bad = await api.call("GET", "/v1/businesses/not-a-uuid");
    expectApiError(bad, 400, "validation_error", { issue: "id" });
    const unknown = await api.call("GET", "/v1/businesses/5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00");
    expectApiError(unknown, 404, "not_found");
  });

  it("paginates by cursor, newest first, each business exactly once", async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await seedBusiness(api, { name: `Page ${i}`, currency: "USD" })).id);
    const all = (await api.call("GET", "/v1/businesses?limit=200")).body.data as { id: string; created_at: string }[];
    const seen = await walkPages(api, "/v1/businesses");
    expect(seen).toEqual(all.map((b) => b.id));
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of created) expect(seen).toContain(id);
    // Order: created_at desc, then id desc.
    const keys = all.map((b) => [b.created_at, b.id].join("|"));
    expect([...keys].sort().reverse()).toEqual(keys);
  });

  it("uses 50 as the default page size and refuses limits outside 1–200 and foreign cursors", async () => {
    expect((await api.call("GET", "/v1/businesses")).body.page).toHaveProperty("has_more");
    for (const query of ["limit=0", "limit=201", "limit=abc", "limit=1.5", "cursor=bm9wZQ", "cursor=%%%"]) {
      const response = await api.call("GET", `/v1/businesses?${query}`);
      expectApiError(response, 400, "validation_error", { what: query });
    }
  });

  it("never shows another owner's business: 404 on read and write, absent from lists", async () => {
    expect((await api.call("GET", `/v1/businesses/${otherOwnersBusinessId}`)).status).toBe(404);
    expect((await api.call("PATCH", `/v1/businesses/${otherOwnersBusinessId}`, { body: { name: "Mine now" } })).status).toBe(404);
    expect((await api.call("GET", `/v1/businesses/${otherOwnersBusinessId}/projects`)).status).toBe(404);
    expect(
      (await api.call("POST", `/v1/businesses/${otherOwnersBusinessId}/projects`, { body: { name: "Sneaky" } })).status,
    ).toBe(404);
    const list = await api.call("GET", "/v1/businesses?limit=200");
    expect(list.body.data.map((b: { id: string }) => b.id)).not.toContain(otherOwnersBusinessId);
    const untouched = await api.db.business.findUniqueOrThrow({ where: { id: otherOwnersBusinessId } });
    expect(untouched.name).toBe("Not yours");
  });
});

describe("projects", () => {
  it("creates, lists, reads and renames a project of a business", async () => {
    const business = (await api.call("POST", "/v1/businesses", { body: { name: "With projects", currency: "EUR" } })).body.data;
    const created = await api.call("POST", `/v1/businesses/${business.id}/projects`, { body: { name: "Website" } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ business_id: business.id, name: "Website", id: expect.stringMatching(UUID) });
    const list = await api.call("GET", `/v1/businesses/${business.id}/projects`);
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([created.body.data.id]);
    expect(list.body.page).toEqual({ next_cursor: null, has_more: false });
    const read = await api.call("GET", `/v1/projects/${created.body.data.id}`);
    expect(read.body.data).toEqual(created.body.data);
    const renamed = await api.call("PATCH", `/v1/projects/${created.body.data.id}`, { body: { name: "Shop" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe("Shop");
  });

  it("never shows another owner's project", async () => {
    expect((await api.call("GET", `/v1/projects/${otherOwnersProjectId}`)).status).toBe(404);
    expect((await api.call("PATCH", `/v1/projects/${otherOwnersProjectId}`, { body: { name: "x" } })).status).toBe(404);
  });
});

describe("me", () => {
  it("shows the owner's profile with the Me fields", async () => {
    const response = await api.call("GET", "/v1/me");
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      email: "owner@example.test",
      base_currency: "USD",
      timezone: "UTC",
      locale: "en-US",
      plan: "business",
      plan_status: "active",
      onboarding: { base_currency_confirmed: false },
      unread_notifications: 0,
      actor: { type: "owner", id: response.body.data.id },
    });
  });

  it("updates name, timezone, locale and base currency, which confirms it", async () => {
    const response = await api.call("PATCH", "/v1/me", {
      body: { name: "Ada", timezone: "Europe/Berlin", locale: "de-de", base_currency: "EUR" },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      name: "Ada",
      timezone: "Europe/Berlin",
      locale: "de-DE",
      base_currency: "EUR",
      onboarding: { base_currency_confirmed: true },
    });
  });

  it.each([
    [{ timezone: "Mars/Olympus" }, "timezone"],
    [{ locale: "not a locale!" }, "locale"],
    [{ base_currency: "EURO" }, "base_currency"],
    [{ base_currency: "ABC" }, "base_currency"],
  ])("refuses %j", async (body, field) => {
    const response = await api.call("PATCH", "/v1/me", { body });
    expectApiError(response, 400, "validation_error", { issue: field });
  });
});
