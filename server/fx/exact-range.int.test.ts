// Amounts beyond the exact range of a JSON number (issue #11, item 4): every path that stores
// or converts an amount refuses one whose value or base conversion is beyond ±(2^53 − 1), and
// reads never fail on a stored one. On PGlite and on PostgreSQL.
//
// The owner's base is USD (the default) and the mock source's rates are fixed: 1 EUR = 1.0842
// USD, so 2^53 − 1 EUR cents are beyond the range in USD, while 2^53 − 1 JPY (about 0.6 USD
// cents each) fit.
import { randomUUID } from "node:crypto";
import { todayUtc, utcMidnightOf } from "../../lib/days";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callMultipart, createTestApi, type TApiResponse, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { ingestItem } from "../../test/helpers/ingest-items";
import { seedBusiness, seedIntegration, seedOwner, seedProject, staticOwner } from "../../test/helpers/seed";
import { ingestEvents } from "../ingest/ingest-service";
import { convertBetween } from "./money";
import { MOCK_EUR_RATES } from "./providers/mock";

const MAX = Number.MAX_SAFE_INTEGER; // 2^53 − 1
const DAY = "2026-03-02";

let api: TTestApi;
let ownerId: string;
let businessId: string;

beforeAll(async () => {
  api = await createTestApi();
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
});
afterAll(async () => api?.close());

async function counts() {
  const db = api.db;
  return {
    events: await db.financialEvent.count(),
    subscriptions: await db.subscription.count(),
    reservations: await db.budgetReservation.count(),
    cash: await db.cashSnapshot.count(),
  };
}

function expectAmountRefused(response: TApiResponse) {
  expectApiError(response, 400, "validation_error", { issue: "amount_minor", message: /exact/ });
}

const expense = (amount: number, currency: string) => ({
  business_id: businessId,
  amount_minor: amount,
  currency,
  occurred_on: DAY,
});

describe("manual writes (REST)", () => {
  it("refuses an expense whose base conversion is beyond the range: 400 naming amount_minor, nothing written", async () => {
    const before = await counts();
    expectAmountRefused(await api.call("POST", "/v1/expenses", { body: expense(MAX, "EUR") }));
    expectAmountRefused(await api.call("POST", "/v1/revenues", { body: expense(MAX, "EUR") }));
    expectAmountRefused(
      await api.call("POST", "/v1/planned-expenses", {
        body: { ...expense(MAX, "EUR"), occurred_on: todayUtc() },
      }),
    );
    expect(await counts()).toEqual(before);
    const list = await api.call("GET", "/v1/events?limit=100");
    expect(list.status, list.text).toBe(200);
  });

  it("accepts 2^53 − 1 where the base conversion fits (USD itself, JPY) and refuses 2^53", async () => {
    const usd = await api.call("POST", "/v1/expenses", { body: expense(MAX, "USD") });
    expect(usd.status, usd.text).toBe(201);
    expect(usd.body.data).toMatchObject({ amount_minor: MAX, base_amount_minor: MAX, base_currency: "USD" });
    const jpy = await api.call("POST", "/v1/expenses", { body: expense(MAX, "JPY") });
    expect(jpy.status, jpy.text).toBe(201);
    const rate = jpy.body.data.fx.rate;
    expect(jpy.body.data.base_amount_minor).toBe(Number(convertBetween(BigInt(MAX), "JPY", "USD", rate)));

    const before = await counts();
    const over = await api.call("POST", "/v1/expenses", { body: { ...expense(MAX, "USD"), amount_minor: 2 ** 53 } });
    expectApiError(over, 400, "validation_error");
    expect(await counts()).toEqual(before);
  });

  it("refuses a recurring expense (event + subscription) beyond the range, writing neither", async () => {
    const before = await counts();
    expectAmountRefused(
      await api.call("POST", "/v1/recurring-expenses", {
        body: {
          business_id: businessId,
          name: "Huge",
          amount_minor: MAX,
          currency: "EUR",
          billing_interval: "month",
          next_charge_on: todayUtc(),
        },
      }),
    );
    expect(await counts()).toEqual(before);
  });
});

describe("subscriptions, reservations, cash snapshots", () => {
  it("refuses a subscription beyond the range on create and on update; the stored one is unchanged", async () => {
    const before = await counts();
    const body = {
      business_id: businessId,
      name: "Big",
      amount_minor: MAX,
      currency: "EUR",
      billing_interval: "month",
      next_charge_on: DAY,
    };
    expectAmountRefused(await api.call("POST", "/v1/subscriptions", { body }));
    expect(await counts()).toEqual(before);

    const created = await api.call("POST", "/v1/subscriptions", { body: { ...body, amount_minor: 1_000 } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id;
    expectAmountRefused(await api.call("PATCH", `/v1/subscriptions/${id}`, { body: { amount_minor: MAX } }));
    const row = await api.db.subscription.findUniqueOrThrow({ where: { id } });
    expect(row.amountMinor).toBe(1_000n);
    // The same amount in a currency where it fits is accepted (2^53 − 1 USD: identity).
    const fits = await api.call("PATCH", `/v1/subscriptions/${id}`, { body: { amount_minor: MAX, currency: "USD" } });
    expect(fits.status, fits.text).toBe(200);
    expect(fits.body.data).toMatchObject({ amount_minor: MAX, base_amount_minor: MAX });
    await api.call("PATCH", `/v1/subscriptions/${id}`, { body: { status: "cancelled" } });
  });

  it("refuses a budget reservation beyond the range, writing nothing", async () => {
    const before = await counts();
    expectAmountRefused(
      await api.call("POST", "/v1/budget-reservations", {
        body: { business_id: businessId, amount_minor: MAX, currency: "EUR", purpose: "Runway" },
      }),
    );
    expect(await counts()).toEqual(before);
  });

  it("refuses a cash snapshot beyond the range, writing nothing", async () => {
    const before = await counts();
    expectAmountRefused(
      await api.call("POST", "/v1/cash-snapshots", {
        body: {
          business_id: businessId,
          amount_minor: -MAX,
          currency: "EUR",
          as_of: new Date().toISOString(),
          payload: { account_id: `acct-${randomUUID()}` },
        },
      }),
    );
    expect(await counts()).toEqual(before);
  });
});

describe("batches: ingest and import", () => {
  it("rejects the one event whose base amount is beyond the range; the rest goes in", async () => {
    const integrationId = await seedIntegration(api.db, { ownerId, provider: "payments_a", name: "p", businessId });
    const item = (externalId: string, amount: number) => ingestItem(integrationId, externalId, amount, { occurred_on: DAY });
    const result = await ingestEvents(api.db, ownerId, [item("ok", 1_000), item("huge", MAX), item("neg", -MAX)]);
    expect(result.inserted).toBe(1);
    expect(result.rejected).toEqual([
      { index: 1, external_id: "huge", code: "validation_error", message: expect.stringMatching(/^amount_minor: .*exact/) },
      { index: 2, external_id: "neg", code: "validation_error", message: expect.stringMatching(/^amount_minor: .*exact/) },
    ]);
    const rows = await api.db.financialEvent.findMany({ where: { integrationId } });
    expect(rows.map((r) => r.externalId)).toEqual(["ok"]);
  });

  it("lists an imported row beyond the range as rejected; the other row goes in", async () => {
    const tag = randomUUID().slice(0, 8);
    const file = [
      "Date,Amount,Currency,Description",
      `${DAY},-12.50,EUR,Coffee ${tag}`,
      `${DAY},-90071992547409.91,EUR,Huge ${tag}`,
    ].join("\n");
    const preview = await callMultipart(
      api.handler,
      "/v1/imports",
      { fields: { business_id: businessId }, file: { bytes: file } },
      {},
    );
    expect(preview.status, preview.text).toBe(200);
    const importId = preview.body.data.import_id;
    const confirmed = await api.call("POST", `/v1/imports/${importId}/confirm`, { body: {} });
    expect(confirmed.status, confirmed.text).toBe(201);
    expect(confirmed.body.data.inserted).toBe(1);
    expect(confirmed.body.data.rejected).toEqual([
      {
        row: 2,
        external_id: expect.any(String),
        reject_reason: expect.stringMatching(/^validation_error: amount_minor: .*exact/),
      },
    ]);
    const events = await api.db.financialEvent.findMany({ where: { ownerId, description: { contains: tag } } });
    expect(events.map((e) => e.amountMinor)).toEqual([1250n]);
  });
});

describe("base-currency change (PATCH /v1/me)", () => {
  it("answers 422 currency_unsupported when an event would be beyond the range in the new base; nothing changes", async () => {
    const owner = await seedOwner(api, `rebase-${randomUUID().slice(0, 8)}@example.test`);
    const call = (method: string, path: string, body?: unknown) => api.call(method, path, { token: owner.token, body });
    const business = (await seedBusiness(api, { name: "B", currency: "USD" }, owner.token)).id;
    const small = await call("POST", "/v1/expenses", {
      business_id: business,
      amount_minor: 500,
      currency: "USD",
      occurred_on: DAY,
    });
    const big = await call("POST", "/v1/expenses", {
      business_id: business,
      amount_minor: MAX,
      currency: "USD",
      occurred_on: DAY,
    });
    expect(big.status, big.text).toBe(201);
    const before = await api.db.financialEvent.findMany({ where: { ownerId: owner.ownerId }, orderBy: { id: "asc" } });

    // USD → JPY: 1 cent ≈ 1.5 yen, so 2^53 − 1 cents are beyond the range in JPY.
    const refused = await call("PATCH", "/v1/me", { base_currency: "JPY" });
    expectApiError(refused, 422, "currency_unsupported", {
      details: { currency: "JPY", field: "base_currency", reason: "amount_out_of_range" },
    });
    const ownerRow = await api.db.owner.findUniqueOrThrow({ where: { id: owner.ownerId } });
    expect(ownerRow.baseCurrency).toBe("USD");
    expect(await api.db.financialEvent.findMany({ where: { ownerId: owner.ownerId }, orderBy: { id: "asc" } })).toEqual(before);
    expect(small.status).toBe(201);

    // To EUR the same amounts fit (fewer minor units): the change goes through.
    const eur = await call("PATCH", "/v1/me", { base_currency: "EUR" });
    expect(eur.status, eur.text).toBe(200);
    const row = await api.db.financialEvent.findUniqueOrThrow({ where: { id: big.body.data.id } });
    expect(row.baseCurrency).toBe("EUR");
    expect(row.baseAmountMinor).toBe(convertBetween(BigInt(MAX), "USD", "EUR", row.fxRate!.toFixed(8)));
  });

  it("also refuses a change under which a subscription, reservation or cash snapshot could not be shown", async () => {
    const owner = await seedOwner(api, `rebase-${randomUUID().slice(0, 8)}@example.test`);
    const call = (method: string, path: string, body?: unknown) => api.call(method, path, { token: owner.token, body });
    const business = (await seedBusiness(api, { name: "B", currency: "USD" }, owner.token)).id;
    const sub = await call("POST", "/v1/subscriptions", {
      business_id: business,
      name: "Big",
      amount_minor: MAX,
      currency: "USD",
      billing_interval: "month",
      next_charge_on: DAY,
    });
    expect(sub.status, sub.text).toBe(201);
    const refused = await call("PATCH", "/v1/me", { base_currency: "JPY" });
    expectApiError(refused, 422, "currency_unsupported");
    expect((await api.db.owner.findUniqueOrThrow({ where: { id: owner.ownerId } })).baseCurrency).toBe("USD");
  });
});

describe("reads never fail on stored data", () => {
  it("shows a stored out-of-range base amount as null, the original amount and the rate kept", async () => {
    const owner = await seedOwner(api, `reads-${randomUUID().slice(0, 8)}@example.test`);
    const get = (path: string) => api.call("GET", path, { token: owner.token });
    const business = await seedBusiness(api, { name: "R" }, owner.token);
    const stored = 2n ** 60n;
    const [actual] = await api.db.$queryRawUnsafe<Array<{ id: string }>>(
      `INSERT INTO financial_events (id, owner_id, business_id, type, state, status, amount_minor, currency,
         base_amount_minor, base_currency, fx_rate, fx_as_of, fx_source, occurred_on, source_type, provenance, confidence,
         payload, variance_minor, updated_at)
       VALUES ($1::uuid, $2::uuid, $3::uuid, 'expense', 'actual', 'confirmed', 1000, 'EUR',
         ${stored}, 'USD', 1.0842, '${DAY}', 'mock', '${DAY}', 'MANUAL', '{}', 1, '{}', ${stored}, now())
       RETURNING id`,
      randomUUID(),
      owner.ownerId,
      business.id,
    );
    // A planned event whose amount fits but whose conversion at today's rate does not.
    await api.db.financialEvent.create({
      data: {
        ownerId: owner.ownerId,
        businessId: business.id,
        type: "planned_expense",
        state: "planned",
        amountMinor: BigInt(MAX),
        currency: "EUR",
        occurredOn: utcMidnightOf(todayUtc()),
        sourceType: "MANUAL",
      },
    });
    const sub = await api.db.subscription.create({
      data: {
        ownerId: owner.ownerId,
        businessId: business.id,
        name: "Big",
        amountMinor: BigInt(MAX),
        currency: "EUR",
        billingInterval: "month",
        nextChargeOn: utcMidnightOf(DAY),
        sourceType: "MANUAL",
      },
    });
    const project = await seedProject(api, business.id, { name: "P" }, owner.token);
    await api.db.subscriptionAllocation.create({ data: { subscriptionId: sub.id, projectId: project.id, shareBps: 10_000 } });
    await api.db.budgetReservation.create({
      data: { ownerId: owner.ownerId, businessId: business.id, amountMinor: BigInt(MAX), currency: "EUR", purpose: "x" },
    });
    const events = await get("/v1/events?limit=100");
    expect(events.status, events.text).toBe(200);
    const byId = new Map(events.body.data.map((e: any) => [e.id, e]));
    expect(byId.get(actual!.id)).toMatchObject({
      amount_minor: 1000,
      currency: "EUR",
      base_amount_minor: null,
      base_currency: "USD",
      fx: { rate: "1.08420000", kind: "snapshot" },
      variance_minor: null,
    });
    const planned = events.body.data.find((e: any) => e.state === "planned");
    expect(planned).toMatchObject({ amount_minor: MAX, base_amount_minor: null, base_currency: "USD" });
    expect(planned.fx).toMatchObject({ rate: MOCK_EUR_RATES.USD, kind: "current" });
    expect((await get(`/v1/events/${actual!.id}`)).status).toBe(200);

    for (const path of ["/v1/subscriptions", `/v1/businesses/${business.id}/subscriptions`, `/v1/subscriptions/${sub.id}`]) {
      const response = await get(path);
      expect(response.status, `${path}: ${response.text}`).toBe(200);
      const data = Array.isArray(response.body.data) ? response.body.data[0] : response.body.data;
      expect(data).toMatchObject({ amount_minor: MAX, base_amount_minor: null, base_currency: "USD" });
      expect(data.allocations).toEqual([expect.objectContaining({ amount_minor: MAX, base_amount_minor: null })]);
    }
    const reservations = await get("/v1/budget-reservations");
    expect(reservations.status, reservations.text).toBe(200);
    expect(reservations.body.data[0]).toMatchObject({ amount_minor: MAX, base_amount_minor: null });
  });

  it("reads events and subscriptions stored with days outside 1900–2999 (accepted before that rule)", async () => {
    const owner = await seedOwner(api, `old-days-${randomUUID().slice(0, 8)}@example.test`);
    const get = (path: string) => api.call("GET", path, { token: owner.token });
    const business = await seedBusiness(api, { name: "Old" }, owner.token);
    for (const day of ["0001-01-01", "1899-12-31"]) {
      await api.db.financialEvent.create({
        data: {
          ownerId: owner.ownerId,
          businessId: business.id,
          type: "expense",
          state: "actual",
          amountMinor: 100n,
          currency: "EUR",
          occurredOn: utcMidnightOf(day),
          sourceType: "MANUAL",
        },
      });
    }
    const sub = await api.db.subscription.create({
      data: {
        ownerId: owner.ownerId,
        businessId: business.id,
        name: "Old",
        amountMinor: 100n,
        currency: "EUR",
        billingInterval: "month",
        nextChargeOn: new Date("1899-12-31T00:00:00Z"),
        sourceType: "MANUAL",
      },
    });
    const events = await get("/v1/events?limit=100");
    expect(events.status, events.text).toBe(200);
    expect(events.body.data.map((e: any) => e.occurred_on).sort()).toEqual(["0001-01-01", "1899-12-31"]);
    const subscription = await get(`/v1/subscriptions/${sub.id}`);
    expect(subscription.status, subscription.text).toBe(200);
    expect(subscription.body.data.next_charge_on).toBe("1899-12-31");
  });
});
