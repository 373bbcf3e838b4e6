// Writes that depend on "now" or "today" read the request's clock (the request context's, once
// per request), never the wall clock: an actual expense may not be after today, a reservation
// may not expire in the past, a cash snapshot may not be from the future. The injected clock is
// four years ahead of the wall clock, so a write that read the wall clock would answer otherwise.
// The calls go through the typed client (client/), so they are also checked against the document.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idempotent, type TFinanceClient } from "../client";
import { fixedClock } from "../server/shared/clock";
import { createTestApi, type TTestApi } from "./helpers/api";
import { expectApiError } from "./helpers/api-error";
import { answer, clientFor } from "./helpers/client";
import { seedBusiness, staticOwner } from "./helpers/seed";

const clock = fixedClock("2030-01-10T10:00:00Z");
let api: TTestApi;
let finance: TFinanceClient;
let businessId: string;

beforeAll(async () => {
  api = await createTestApi({ clock });
  finance = clientFor(api);
  await staticOwner(api);
  businessId = (await seedBusiness(api, { name: "Clockwork", currency: "EUR" })).id;
});
afterAll(async () => api?.close());

const write = () => ({ header: idempotent() });

describe("the request's clock in writes", () => {
  it("an actual expense on the request's today is accepted; the day after is refused", async () => {
    const body = { business_id: businessId, amount_minor: 1_00, currency: "EUR" };
    const today = await finance.POST("/v1/expenses", { params: write(), body: { ...body, occurred_on: "2030-01-10" } });
    expect(today.response.status, JSON.stringify(today.error)).toBe(201);
    const tomorrow = await finance.POST("/v1/expenses", { params: write(), body: { ...body, occurred_on: "2030-01-11" } });
    expectApiError(answer(tomorrow), 400, "validation_error");
  });

  it("a recurring expense charged on the request's today is actual, tomorrow's planned", async () => {
    const body = {
      business_id: businessId,
      name: "Hosting",
      amount_minor: 5_00,
      currency: "EUR",
      billing_interval: "month" as const,
    };
    const now = await finance.POST("/v1/recurring-expenses", {
      params: write(),
      body: { ...body, next_charge_on: "2030-01-10" },
    });
    expect(now.response.status, JSON.stringify(now.error)).toBe(201);
    expect(now.data?.data.event.state).toBe("actual");
    const later = await finance.POST("/v1/recurring-expenses", {
      params: write(),
      body: { ...body, next_charge_on: "2030-01-11" },
    });
    expect(later.data?.data.event.state).toBe("planned");
  });

  it("a reservation may expire today but not yesterday (the request's days)", async () => {
    const body = { business_id: businessId, amount_minor: 10_00, currency: "EUR", purpose: "Launch" };
    const today = await finance.POST("/v1/budget-reservations", { params: write(), body: { ...body, expires_on: "2030-01-10" } });
    expect(today.response.status, JSON.stringify(today.error)).toBe(201);
    const yesterday = await finance.POST("/v1/budget-reservations", {
      params: write(),
      body: { ...body, expires_on: "2030-01-09" },
    });
    expectApiError(answer(yesterday), 400, "validation_error");
  });

  it("a cash snapshot as of the request's last hour is accepted; one an hour ahead of it is refused", async () => {
    const body = { business_id: businessId, amount_minor: 100_00, currency: "EUR", payload: { account_id: "main" } };
    const past = await finance.POST("/v1/cash-snapshots", { params: write(), body: { ...body, as_of: "2030-01-10T09:00:00Z" } });
    expect(past.response.status, JSON.stringify(past.error)).toBe(201);
    const ahead = await finance.POST("/v1/cash-snapshots", { params: write(), body: { ...body, as_of: "2030-01-10T11:00:00Z" } });
    expectApiError(answer(ahead), 400, "validation_error");
  });
});
