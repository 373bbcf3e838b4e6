// GET /v1/me/base-currency-preview (additive, issue 14): the read-only dry run of a base
// currency change that Settings shows before the owner confirms it. Counts what PATCH /v1/me
// would restate and how, today's rates into the new base, and the refusal PATCH would answer,
// writing nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedAgent, seedEvent, seedOwner, seedReservation, seedSubscription } from "../../test/helpers/seed";

let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi();
  await seedEvent(api, "expense", { personal: true, amount_minor: 10_000, currency: "USD", occurred_on: "2026-03-01" });
  await seedEvent(api, "expense", { personal: true, amount_minor: 4_200, currency: "EUR", occurred_on: "2026-03-02" });
  await seedEvent(api, "revenue", { personal: true, amount_minor: 9_900, currency: "EUR", occurred_on: "2026-03-03" });
  await seedEvent(api, "planned_expense", { personal: true, amount_minor: 50_000, currency: "JPY", occurred_on: "2027-02-01" });
  await seedSubscription(api, { personal: true });
  await seedReservation(api, { personal: true });
});
afterAll(async () => api?.close());

const preview = (currency: string, token?: string) =>
  api.call("GET", `/v1/me/base-currency-preview?base_currency=${currency}`, { token });

describe("GET /v1/me/base-currency-preview", () => {
  it("counts the events to restate by currency, with today's rates into the new base, and writes nothing", async () => {
    const before = await api.db.financialEvent.findMany({ orderBy: { id: "asc" } });
    const response = await preview("EUR");
    expect(response.status, response.text).toBe(200);
    const data = response.body.data;
    expect(data).toMatchObject({
      from: "USD",
      to: "EUR",
      changes: true,
      events: { actual: 3, planned: 1 },
      converted_on_read: { subscriptions: 1, budget_reservations: 1, cash_snapshots: 0 },
      refusal: null,
    });
    expect(data.by_currency).toEqual([
      { currency: "EUR", actual_events: 2, planned_events: 0, rate_today: { rate: "1.00000000", as_of: expect.any(String) } },
      {
        currency: "JPY",
        actual_events: 0,
        planned_events: 1,
        rate_today: { rate: expect.stringMatching(/^0\.\d{8}$/), as_of: expect.any(String) },
      },
      {
        currency: "USD",
        actual_events: 1,
        planned_events: 0,
        rate_today: { rate: expect.stringMatching(/^\d+\.\d{8}$/), as_of: expect.any(String) },
      },
    ]);
    expect(data.old_base_rate_today.rate).toBe(data.by_currency[2].rate_today.rate);
    expect(await api.db.financialEvent.findMany({ orderBy: { id: "asc" } })).toEqual(before);
    expect((await api.call("GET", "/v1/me")).body.data.base_currency).toBe("USD");
  });

  it("agrees with PATCH: the change it previews then restates that many events", async () => {
    const counted = (await preview("GBP")).body.data.events;
    const patched = await api.call("PATCH", "/v1/me", { body: { base_currency: "GBP" } });
    expect(patched.status, patched.text).toBe(200);
    const entry = await api.db.auditEntry.findFirstOrThrow({ where: { action: "me.updated" }, orderBy: { createdAt: "desc" } });
    expect(entry.details).toMatchObject({
      base_currency_change: { from: "USD", to: "GBP", events: counted.actual + counted.planned },
    });
    await api.call("PATCH", "/v1/me", { body: { base_currency: "USD" } });
  });

  it("answers changes false and nothing to restate for the current base", async () => {
    const data = (await preview("USD")).body.data;
    expect(data).toMatchObject({ from: "USD", to: "USD", changes: false, events: { actual: 0, planned: 0 }, by_currency: [] });
    expect(data.old_base_rate_today).toBeNull();
    expect(data.refusal).toBeNull();
  });

  it("shows the refusal PATCH would answer for a base the rate source cannot convert to", async () => {
    const data = (await preview("ZAR")).body.data;
    expect(data.refusal).toMatchObject({ code: "currency_unsupported", details: expect.objectContaining({ currency: "ZAR" }) });
    expect(data.old_base_rate_today).toBeNull();
    expectApiError(await api.call("PATCH", "/v1/me", { body: { base_currency: "ZAR" } }), 422, "currency_unsupported");
  });

  it("refuses what is not a currency code like PATCH does", async () => {
    expectApiError(await preview("eur"), 400, "validation_error");
    const patch = await api.call("PATCH", "/v1/me", { body: { base_currency: "XYZ" } });
    expectApiError(await preview("XYZ"), patch.status, patch.body.error.code);
    expectApiError(await api.call("GET", "/v1/me/base-currency-preview"), 400, "validation_error");
  });

  it("is the caller's own: another owner sees only theirs; an agent gets 403 scope_denied", async () => {
    const other = await seedOwner(api);
    const theirs = (await preview("EUR", other.token)).body.data;
    expect(theirs.events).toEqual({ actual: 0, planned: 0 });
    expect(theirs.converted_on_read).toEqual({ subscriptions: 0, budget_reservations: 0, cash_snapshots: 0 });
    const agent = await seedAgent(api);
    expectApiError(await preview("EUR", agent.token), 403, "scope_denied");
  });

  it("appears in /v1/openapi.json", async () => {
    const doc = (await api.call("GET", "/v1/openapi.json")).body;
    expect(doc.paths["/v1/me/base-currency-preview"].get.parameters.map((p: { name: string }) => p.name)).toContain(
      "base_currency",
    );
  });
});
