// Budget reservations over /v1: create, list, partial and full release, the 409s, and
// concurrent releases that must never release more than the reservation (run on PostgreSQL
// too, where they really race).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayUtc } from "../../lib/days";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { walkPages } from "../../test/helpers/pages";
import { seedBusiness, seedProject, seedReservation } from "../../test/helpers/seed";

let api: TTestApi;
let businessId: string;
let projectId: string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TODAY = todayUtc();
const UNKNOWN = "5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00";

/** A reservation of 10.00 USD on the business for "Q4 ads", unless `body` says otherwise. */
function reserve(body: Record<string, unknown> = {}) {
  return seedReservation(api, { business_id: businessId, amount_minor: 1000, currency: "USD", ...body });
}

const release = (id: string, body: unknown = {}) => api.call("POST", `/v1/budget-reservations/${id}/release`, { body });

beforeAll(async () => {
  api = await createTestApi();
  businessId = (await seedBusiness(api)).id;
  projectId = (await seedProject(api, businessId)).id;
});
afterAll(async () => api?.close());

describe("POST /v1/budget-reservations", () => {
  it("creates an active reservation (201) with base amounts and an audit entry", async () => {
    const response = await api.call("POST", "/v1/budget-reservations", {
      body: {
        project_id: projectId,
        amount_minor: 50_000,
        currency: "EUR",
        purpose: " Launch campaign ",
        expires_on: "2099-01-31",
      },
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({
      id: expect.stringMatching(UUID),
      business_id: businessId,
      project_id: projectId,
      personal: false,
      amount_minor: 50_000,
      released_minor: 0,
      remaining_minor: 50_000,
      currency: "EUR",
      base_amount_minor: 54_210,
      base_currency: "USD",
      fx: { rate: "1.08420000", as_of: TODAY, source: "mock", kind: "current", stale: false },
      purpose: "Launch campaign",
      status: "active",
      expires_on: "2099-01-31",
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(await api.db.auditEntry.count({ where: { action: "reservation.created", targetId: response.body.data.id } })).toBe(1);
    const personal = await reserve({ business_id: undefined, personal: true });
    expect(personal).toMatchObject({ personal: true, business_id: null, expires_on: null });
  });

  it.each([
    [{ amount_minor: 0 }, "amount_minor"],
    [{ amount_minor: -10 }, "amount_minor"],
    [{ amount_minor: 1.5 }, "amount_minor"],
    [{ purpose: "" }, "purpose"],
    [{ purpose: undefined }, "purpose"],
    [{ currency: "eur" }, "currency"],
    [{ currency: "XYZ" }, "currency"],
    [{ business_id: undefined }, "business_id"],
    [{ personal: true }, "business_id"],
    [{ expires_on: "2000-01-01" }, "expires_on"],
    [{ expires_on: "tomorrow" }, "expires_on"],
  ])("refuses %j with 400 naming %s, writing nothing", async (patch, field) => {
    const before = await api.db.budgetReservation.count();
    const response = await api.call("POST", "/v1/budget-reservations", {
      body: { business_id: businessId, amount_minor: 1000, currency: "USD", purpose: "x", ...patch },
    });
    expectApiError(response, 400, "validation_error", { issue: field });
    expect(await api.db.budgetReservation.count()).toBe(before);
  });

  it("answers 404 for a scope that is not the owner's and 422 for an uncovered currency, writing nothing", async () => {
    const before = await api.db.budgetReservation.count();
    const body = { amount_minor: 1000, currency: "USD", purpose: "x" };
    expect((await api.call("POST", "/v1/budget-reservations", { body: { ...body, business_id: UNKNOWN } })).status).toBe(404);
    expect((await api.call("POST", "/v1/budget-reservations", { body: { ...body, project_id: UNKNOWN } })).status).toBe(404);
    const brl = await api.call("POST", "/v1/budget-reservations", {
      body: { ...body, business_id: businessId, currency: "BRL" },
    });
    expectApiError(brl, 422, "currency_unsupported");
    expect(await api.db.budgetReservation.count()).toBe(before);
  });
});

describe("GET /v1/budget-reservations", () => {
  it("lists newest first with filters and cursor pages", async () => {
    const other = (await seedBusiness(api, { name: "Other", currency: "USD" })).id;
    const mine = await reserve({ business_id: other, currency: "GBP" });
    const filtered = await api.call("GET", `/v1/budget-reservations?business_id=${other}`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.map((r: { id: string }) => r.id)).toEqual([mine.id]);
    expect(filtered.body.data[0]).toMatchObject({ currency: "GBP", base_currency: "USD", fx: { source: "mock" } });
    await release(mine.id);
    expect((await api.call("GET", `/v1/budget-reservations?business_id=${other}&status=active`)).body.data).toEqual([]);
    expect((await api.call("GET", `/v1/budget-reservations?business_id=${other}&status=released`)).body.data).toHaveLength(1);
    const all = (await api.call("GET", "/v1/budget-reservations?limit=200")).body.data.map((r: { id: string }) => r.id);
    expect(await walkPages(api, "/v1/budget-reservations")).toEqual(all);
  });
});

describe("POST /v1/budget-reservations/{id}/release", () => {
  it("releases in parts, then the rest; the last part closes it", async () => {
    const created = await reserve({ amount_minor: 1000 });
    const first = await release(created.id, { amount_minor: 300 });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ released_minor: 300, remaining_minor: 700, status: "active" });
    const exact = await release(created.id, { amount_minor: 700 });
    expect(exact.body.data).toMatchObject({ released_minor: 1000, remaining_minor: 0, status: "released" });
    const full = await reserve({ amount_minor: 500 });
    await release(full.id, { amount_minor: 100 });
    const rest = await release(full.id);
    expect(rest.status).toBe(200);
    expect(rest.body.data).toMatchObject({ released_minor: 500, remaining_minor: 0, status: "released" });
    expect(await api.db.auditEntry.count({ where: { action: "reservation.released", targetId: full.id } })).toBe(2);
  });

  it("answers 409 state_conflict for more than remains and for a released reservation, changing nothing", async () => {
    const created = await reserve({ amount_minor: 1000 });
    await release(created.id, { amount_minor: 400 });
    const tooMuch = await release(created.id, { amount_minor: 601 });
    expectApiError(tooMuch, 409, "state_conflict", { details: { status: "active", remaining_minor: 600 } });
    const stored = await api.db.budgetReservation.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored.releasedMinor).toBe(400n);
    await release(created.id);
    for (const body of [{}, { amount_minor: 1 }]) {
      const again = await release(created.id, body);
      expectApiError(again, 409, "state_conflict");
    }
  });

  it("refuses a non-positive amount (400) and answers 404 for an unknown reservation", async () => {
    const created = await reserve();
    for (const amount_minor of [0, -5, 2.5]) {
      const response = await release(created.id, { amount_minor });
      expectApiError(response, 400, "validation_error", { issue: "amount_minor" });
    }
    expect((await release(UNKNOWN)).status).toBe(404);
  });

  it("never releases more than the amount under 10 concurrent partial releases", async () => {
    const created = await reserve({ amount_minor: 1000 });
    const responses = await Promise.all(Array.from({ length: 10 }, () => release(created.id, { amount_minor: 150 })));
    const ok = responses.filter((r) => r.status === 200);
    const conflicts = responses.filter((r) => r.status === 409);
    expect(ok).toHaveLength(6);
    expect(conflicts).toHaveLength(4);
    for (const conflict of conflicts) expectApiError(conflict, 409, "state_conflict");
    const stored = await api.db.budgetReservation.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored.releasedMinor).toBe(900n);
    expect(stored.status).toBe("active");
    expect(await api.db.auditEntry.count({ where: { action: "reservation.released", targetId: created.id } })).toBe(6);
  });

  it("closes exactly once when 10 concurrent releases use up the amount, and lets one full release win", async () => {
    const exact = await reserve({ amount_minor: 1000 });
    const parts = await Promise.all(Array.from({ length: 10 }, () => release(exact.id, { amount_minor: 100 })));
    expect(parts.map((r) => r.status)).toEqual(Array(10).fill(200));
    const stored = await api.db.budgetReservation.findUniqueOrThrow({ where: { id: exact.id } });
    expect(stored).toMatchObject({ releasedMinor: 1000n, status: "released" });

    const full = await reserve({ amount_minor: 1000 });
    const fulls = await Promise.all(Array.from({ length: 10 }, (_, i) => release(full.id, i % 2 ? {} : { amount_minor: 700 })));
    const statuses = fulls.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const after = await api.db.budgetReservation.findUniqueOrThrow({ where: { id: full.id } });
    expect(after.releasedMinor <= 1000n).toBe(true);
    expect(after.status).toBe(after.releasedMinor === 1000n ? "released" : "active");
  });
});
