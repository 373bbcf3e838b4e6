// A figure too large to show exactly (issue 32, item 4; pinned-wave3 §1.4): each amount is
// refused at write time beyond ±(2^53 − 1) minor units, but a sum of many can still pass it.
// An aggregate or a simulation whose exact result is beyond that answers 422
// amount_out_of_range naming the field, never a 500 and never a rounded number; the owner's
// other reads keep working. On PGlite and on PostgreSQL.
//
// The owner's base is USD (the default): two revenues of 2^53 − 1 USD cents dated today make
// every sum over today 2^54 − 2.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayUtc } from "../../lib/days";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, seedOwner, type TSeedOwner } from "../../test/helpers/seed";

const MAX = Number.MAX_SAFE_INTEGER; // 2^53 − 1

let api: TTestApi;
let owner: TSeedOwner;
let businessId: string;

beforeAll(async () => {
  api = await createTestApi();
  owner = await seedOwner(api);
  businessId = (await seedBusiness(api, { currency: "USD" }, owner.token)).id;
  for (const description of ["first", "second"]) {
    const revenue = await api.call("POST", "/v1/revenues", {
      token: owner.token,
      body: { business_id: businessId, amount_minor: MAX, currency: "USD", occurred_on: todayUtc(), description },
    });
    expect(revenue.status, revenue.text).toBe(201);
  }
});
afterAll(async () => api?.close());

const get = (path: string) => api.call("GET", path, { token: owner.token });

function expectOutOfRange(response: Awaited<ReturnType<typeof get>>, field: string | RegExp) {
  const error = expectApiError(response, 422, "amount_out_of_range");
  expect(error.details.field, response.text).toMatch(field);
  // The figure is named, never shown rounded.
  expect(response.text).not.toMatch(/18014398509481984|18014398509481982/);
}

describe("an owner whose totals pass 2^53 − 1", () => {
  it("a financial summary answers 422 amount_out_of_range naming revenue_minor, never 500", async () => {
    expectOutOfRange(await get(`/v1/businesses/${businessId}/financial-summary`), /^revenue_minor$/);
  });

  it("a forecast answers 422 amount_out_of_range naming the 90-day run rate, never 500", async () => {
    // T_in = 2^54 − 2 is beyond the range; the 30 days' share of it (a third) is not.
    const response = await get(`/v1/businesses/${businessId}/forecast`);
    expectOutOfRange(response, /^run_rate\.in_minor$/);
    expectOutOfRange(await get("/v1/forecast"), /^run_rate\.in_minor$/);
  });

  it("the overview answers 422 amount_out_of_range naming last_30_days.in_minor, never 500", async () => {
    expectOutOfRange(await get("/v1/overview"), /^last_30_days\.in_minor$/);
  });

  it("the daily brief answers 422 amount_out_of_range naming day.in_minor, never 500", async () => {
    expectOutOfRange(await get("/v1/daily-brief"), /^day\.in_minor$/);
  });

  it("the events' totals answer 422 amount_out_of_range naming in_minor, never 500", async () => {
    expectOutOfRange(await get("/v1/events/totals"), /^in_minor$/);
  });

  it("the business context names the part of it the figure belongs to", async () => {
    expectOutOfRange(await get(`/v1/businesses/${businessId}/context`), /^(summary_30d|forecast_30d_totals)\./);
  });

  it("keeps the owner's other reads working: events, coverage, personal summary, free capital", async () => {
    const events = await get("/v1/events?limit=10");
    expect(events.status, events.text).toBe(200);
    expect(events.body.data.map((e: { amount_minor: number }) => e.amount_minor)).toEqual([MAX, MAX]);
    for (const path of ["/v1/me", "/v1/coverage", "/v1/personal/financial-summary", "/v1/free-capital", "/v1/businesses"]) {
      const response = await get(path);
      expect(response.status, `${path}: ${response.text}`).toBe(200);
    }
    // A period without the two revenues is an ordinary summary.
    const yesterday = await get(`/v1/businesses/${businessId}/financial-summary?to=2020-01-31`);
    expect(yesterday.status, yesterday.text).toBe(200);
    expect(yesterday.body.data.revenue_minor).toBe(0);
  });
});

describe("a simulation whose result passes 2^53 − 1", () => {
  it("answers 422 amount_out_of_range naming simulated.committed_out_minor, never 500", async () => {
    const expense = { kind: "add_expense", amount_minor: MAX, currency: "USD", on: todayUtc() };
    const response = await api.call("POST", "/v1/simulations", {
      token: owner.token,
      idempotencyKey: null,
      body: { personal: true, changes: [expense, expense] },
    });
    expectOutOfRange(response, /^simulated\.committed_out_minor$/);
    // One of them fits: the same simulation answers.
    const one = await api.call("POST", "/v1/simulations", {
      token: owner.token,
      idempotencyKey: null,
      body: { personal: true, changes: [expense] },
    });
    expect(one.status, one.text).toBe(200);
    expect(one.body.data.delta.committed_out_minor).toBe(MAX);
  });
});
