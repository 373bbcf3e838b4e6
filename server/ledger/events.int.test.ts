// Financial events over /v1: manual entries (expenses, revenues, planned and recurring
// expenses), their base amounts, validation that writes nothing, the list and its filters.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addDays, todayUtc, utcDayOf } from "../../lib/days";
import { applyTestEnv, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { walkPages } from "../../test/helpers/pages";
import { seedBusiness, seedEvent, seedOwner, seedProject, staticOwner } from "../../test/helpers/seed";
import { convertBetween, crossRate } from "../fx/money";
import { MOCK_EUR_RATES } from "../fx/providers/mock";

// Spies that pass through to the real FX module: the list must convert in one batch.
vi.mock("../fx/fx-service", async (importOriginal) => {
  const real = await importOriginal<typeof import("../fx/fx-service")>();
  return { ...real, convertAmount: vi.fn(real.convertAmount), convertManySettled: vi.fn(real.convertManySettled) };
});
const fx = await import("../fx/fx-service");

let api: TTestApi;
let ownerId: string;
let businessId: string;
let projectId: string;
let otherBusinessId: string;
let otherProjectId: string;
let otherOwnersEventId: string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PAST = "2026-03-02";

function inDays(days: number): string {
  return addDays(todayUtc(), days);
}

async function counts() {
  return { events: await api.db.financialEvent.count(), subscriptions: await api.db.subscription.count() };
}

beforeAll(async () => {
  api = await createTestApi();
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
  projectId = (await seedProject(api, businessId)).id;
  const other = await seedOwner(api, "other@example.test");
  otherBusinessId = (await seedBusiness(api, { name: "Not yours", currency: "USD" }, other.token)).id;
  otherProjectId = (await seedProject(api, otherBusinessId, { name: "Hidden" }, other.token)).id;
  const otherEvent = { business_id: otherBusinessId, amount_minor: 500, currency: "USD", occurred_on: PAST };
  otherOwnersEventId = (await seedEvent(api, "expense", otherEvent, other.token)).id;
});
afterAll(async () => api?.close());

describe("POST /v1/expenses", () => {
  it("records an actual expense with a frozen EUR→USD snapshot (201, the Event shape)", async () => {
    const response = await api.call("POST", "/v1/expenses", {
      body: {
        business_id: businessId,
        amount_minor: 12_345,
        currency: "EUR",
        occurred_on: PAST,
        category: "tools",
        description: " Figma ",
      },
    });
    expect(response.status).toBe(201);
    const event = response.body.data;
    const rate = MOCK_EUR_RATES.USD!;
    expect(event).toEqual({
      id: expect.stringMatching(UUID),
      type: "expense",
      state: "actual",
      status: "confirmed",
      amount_minor: 12_345,
      currency: "EUR",
      base_amount_minor: Number(convertBetween(12_345n, "EUR", "USD", rate)),
      base_currency: "USD",
      fx: { rate, as_of: PAST, source: "mock", kind: "snapshot", stale: false },
      occurred_on: PAST,
      business_id: businessId,
      project_id: null,
      personal: false,
      category: "tools",
      description: "Figma",
      source_type: "MANUAL",
      integration_id: null,
      external_id: null,
      provenance: { source: { type: "MANUAL", actor: { type: "owner", id: ownerId } } },
      confidence: 1,
      payload: {},
      subscription_id: null,
      refunds_event_id: null,
      supersedes_event_id: null,
      supersedes_event_ids: [],
      variance_minor: null,
      direction: null,
      fulfilled_by_event_id: null,
      reconciled: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    // 123.45 EUR × 1.0842 = 133.845… USD → 13 384.5 cents, half to even → 13 384.
    expect(event.base_amount_minor).toBe(13_384);

    const row = await api.db.financialEvent.findUniqueOrThrow({ where: { id: event.id } });
    expect(row.baseAmountMinor).toBe(13_384n);
    expect(row.baseCurrency).toBe("USD");
    expect(row.fxRate?.toFixed(8)).toBe(rate);
    expect(row.fxAsOf && utcDayOf(row.fxAsOf)).toBe(PAST);
    expect(row.fxSource).toBe("mock");

    const read = await api.call("GET", `/v1/events/${event.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(event);

    const audit = await api.db.auditEntry.findFirst({ where: { action: "event.created", targetId: event.id } });
    expect(audit).toMatchObject({ actorType: "owner", targetType: "event", ownerId });
  });

  it("converts cross rates through EUR (JPY → USD, zero-digit source) and uses identity for the base currency", async () => {
    const jpy = await api.call("POST", "/v1/expenses", {
      body: { personal: true, amount_minor: 10_000, currency: "JPY", occurred_on: PAST },
    });
    expect(jpy.status).toBe(201);
    const rate = crossRate(MOCK_EUR_RATES.JPY!, MOCK_EUR_RATES.USD!);
    expect(jpy.body.data.fx).toMatchObject({ rate, source: "mock", kind: "snapshot" });
    expect(jpy.body.data.base_amount_minor).toBe(Number(convertBetween(10_000n, "JPY", "USD", rate)));
    expect(jpy.body.data).toMatchObject({ personal: true, business_id: null, project_id: null });

    const usd = await api.call("POST", "/v1/expenses", {
      body: { project_id: projectId, amount_minor: 999, currency: "USD", occurred_on: PAST },
    });
    expect(usd.status).toBe(201);
    expect(usd.body.data).toMatchObject({
      base_amount_minor: 999,
      base_currency: "USD",
      fx: { rate: "1.00000000", source: "identity", kind: "snapshot", stale: false },
      project_id: projectId,
      business_id: businessId,
    });
  });

  it("keeps the snapshot frozen when the owner's base currency changes later", async () => {
    const owner = await api.db.owner.findUniqueOrThrow({ where: { id: ownerId } });
    const created = await api.call("POST", "/v1/expenses", {
      body: { business_id: businessId, amount_minor: 1_000, currency: "GBP", occurred_on: PAST },
    });
    await api.db.owner.update({ where: { id: ownerId }, data: { baseCurrency: "EUR" } });
    try {
      const read = await api.call("GET", `/v1/events/${created.body.data.id}`);
      expect(read.body.data.base_currency).toBe("USD");
      expect(read.body.data.fx).toEqual(created.body.data.fx);
      expect(read.body.data.base_amount_minor).toBe(created.body.data.base_amount_minor);
    } finally {
      await api.db.owner.update({ where: { id: ownerId }, data: { baseCurrency: owner.baseCurrency } });
    }
  });

  const valid = { amount_minor: 100, currency: "EUR", occurred_on: PAST };
  it.each([
    [{ ...valid, amount_minor: 10.5 }, "amount_minor"],
    [{ ...valid, amount_minor: "100" }, "amount_minor"],
    [{ ...valid, amount_minor: true }, "amount_minor"],
    [{ ...valid, amount_minor: null }, "amount_minor"],
    [{ ...valid, amount_minor: undefined }, "amount_minor"],
    [{ ...valid, amount_minor: 0 }, "amount_minor"],
    [{ ...valid, amount_minor: -100 }, "amount_minor"],
    [{ ...valid, amount_minor: 2 ** 53 }, "amount_minor"],
    [{ ...valid, amount_minor: 1e300 }, "amount_minor"],
    [{ ...valid, currency: "XYZ" }, "currency"],
    [{ ...valid, currency: "eur" }, "currency"],
    [{ ...valid, currency: undefined }, "currency"],
    [{ ...valid, occurred_on: "2026-02-30" }, "occurred_on"],
    [{ ...valid, occurred_on: "2025-02-29" }, "occurred_on"],
    [{ ...valid, occurred_on: "2026-3-2" }, "occurred_on"],
    [{ ...valid, occurred_on: "2026-03-02T10:00:00Z" }, "occurred_on"],
    [{ ...valid, occurred_on: "02.03.2026" }, "occurred_on"],
    [{ ...valid, category: "" }, "category"],
  ])("refuses %j with 400 naming %s, writing nothing", async (fields, field) => {
    const before = await counts();
    const response = await api.call("POST", "/v1/expenses", { body: { business_id: businessId, ...fields } });
    expectApiError(response, 400, "validation_error", { issue: field });
    expect(await counts()).toEqual(before);
  });

  it("refuses a scope that is not exactly one of business_id, project_id, personal (400 naming business_id)", async () => {
    const before = await counts();
    for (const scope of [
      {},
      { business_id: businessId, project_id: projectId },
      { business_id: otherBusinessId, project_id: projectId },
      { business_id: businessId, personal: true },
      { personal: false },
      { business_id: "not-a-uuid" },
    ]) {
      const response = await api.call("POST", "/v1/expenses", { body: { ...scope, ...valid } });
      expectApiError(response, 400, "validation_error", { what: JSON.stringify(scope) });
      const paths = response.body.error.details.issues.map((i: { path: string }) => i.path);
      expect(
        paths.some((p: string) => ["business_id", "project_id", "personal"].includes(p)),
        JSON.stringify(paths),
      ).toBe(true);
    }
    expect(await counts()).toEqual(before);
  });

  it("refuses an actual expense dated after today (400 occurred_on): plan it instead", async () => {
    const before = await counts();
    const response = await api.call("POST", "/v1/expenses", { body: { personal: true, ...valid, occurred_on: inDays(3) } });
    expectApiError(response, 400, "validation_error", { issue: "occurred_on" });
    expect(await counts()).toEqual(before);
  });

  it("answers 404 for another owner's business or project, writing nothing", async () => {
    const before = await counts();
    for (const scope of [{ business_id: otherBusinessId }, { project_id: otherProjectId }]) {
      const response = await api.call("POST", "/v1/expenses", { body: { ...scope, ...valid } });
      expectApiError(response, 404, "not_found");
    }
    expect(await counts()).toEqual(before);
  });

  it("answers 422 currency_unsupported for an ISO currency the rate source does not cover, writing nothing", async () => {
    expect(Object.keys(MOCK_EUR_RATES)).not.toContain("BRL");
    const before = await counts();
    const auditsBefore = await api.db.auditEntry.count({ where: { action: "event.created" } });
    for (const path of ["/v1/expenses", "/v1/revenues", "/v1/planned-expenses"]) {
      const response = await api.call("POST", path, { body: { business_id: businessId, ...valid, currency: "BRL" } });
      expectApiError(response, 422, "currency_unsupported", { what: path });
    }
    expect(await counts()).toEqual(before);
    expect(await api.db.auditEntry.count({ where: { action: "event.created" } })).toBe(auditsBefore);
  });

  it("is owner-only and needs an Idempotency-Key", async () => {
    const missing = await api.call("POST", "/v1/expenses", { body: { personal: true, ...valid }, idempotencyKey: null });
    expectApiError(missing, 400, "missing_idempotency_key");
    const agent = await api.call("POST", "/v1/agents", { body: { name: "bookkeeper" } });
    const denied = await api.call("POST", "/v1/expenses", {
      token: agent.body.data.token,
      body: { personal: true, ...valid, reason: "book it" },
    });
    expectApiError(denied, 403, "scope_denied");
    expect((await api.call("GET", "/v1/events", { token: agent.body.data.token })).status).toBe(403);
  });
});

describe("POST /v1/revenues and /v1/planned-expenses", () => {
  it("records a revenue (type revenue, state actual)", async () => {
    const response = await api.call("POST", "/v1/revenues", {
      body: { business_id: businessId, amount_minor: 50_000, currency: "USD", occurred_on: PAST, description: "Invoice 7" },
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      type: "revenue",
      state: "actual",
      amount_minor: 50_000,
      base_amount_minor: 50_000,
      fx: { kind: "snapshot", source: "identity" },
      description: "Invoice 7",
    });
  });

  it("plans an expense: state planned, nothing frozen, current rate computed at read", async () => {
    const planned = inDays(30);
    const response = await api.call("POST", "/v1/planned-expenses", {
      body: { business_id: businessId, amount_minor: 20_000, currency: "EUR", occurred_on: planned, category: "hardware" },
    });
    expect(response.status).toBe(201);
    const rate = MOCK_EUR_RATES.USD!;
    expect(response.body.data).toMatchObject({
      type: "planned_expense",
      state: "planned",
      status: "confirmed",
      occurred_on: planned,
      base_amount_minor: Number(convertBetween(20_000n, "EUR", "USD", rate)),
      base_currency: "USD",
      fx: { rate, kind: "current", source: "mock", stale: false },
    });
    const row = await api.db.financialEvent.findUniqueOrThrow({ where: { id: response.body.data.id } });
    expect([row.baseAmountMinor, row.baseCurrency, row.fxRate, row.fxAsOf, row.fxSource]).toEqual([null, null, null, null, null]);

    // Valued in the owner's base currency of the moment it is read.
    const owner = await api.db.owner.findUniqueOrThrow({ where: { id: ownerId } });
    await api.db.owner.update({ where: { id: ownerId }, data: { baseCurrency: "GBP" } });
    try {
      const read = await api.call("GET", `/v1/events/${response.body.data.id}`);
      const gbpRate = MOCK_EUR_RATES.GBP!;
      expect(read.body.data).toMatchObject({
        base_currency: "GBP",
        base_amount_minor: Number(convertBetween(20_000n, "EUR", "GBP", gbpRate)),
        fx: { rate: gbpRate, kind: "current" },
      });
    } finally {
      await api.db.owner.update({ where: { id: ownerId }, data: { baseCurrency: owner.baseCurrency } });
    }
  });

  it("accepts a planned expense in the past (an overdue plan)", async () => {
    const response = await api.call("POST", "/v1/planned-expenses", {
      body: { personal: true, amount_minor: 1, currency: "USD", occurred_on: PAST },
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ state: "planned", fx: { kind: "current", source: "identity" } });
  });
});

describe("POST /v1/recurring-expenses", () => {
  it("creates the subscription and an actual first charge when next_charge_on is today or earlier", async () => {
    const before = await counts();
    const response = await api.call("POST", "/v1/recurring-expenses", {
      body: {
        business_id: businessId,
        name: "Figma",
        amount_minor: 1_500,
        currency: "EUR",
        billing_interval: "month",
        next_charge_on: PAST,
        category: "tools",
      },
    });
    expect(response.status).toBe(201);
    const { event, subscription } = response.body.data;
    expect(subscription).toMatchObject({
      id: expect.stringMatching(UUID),
      name: "Figma",
      amount_minor: 1_500,
      currency: "EUR",
      billing_interval: "month",
      next_charge_on: PAST,
      business_id: businessId,
    });
    expect(event).toMatchObject({
      type: "recurring_expense",
      state: "actual",
      occurred_on: PAST,
      amount_minor: 1_500,
      subscription_id: subscription.id,
      description: "Figma",
      category: "tools",
      base_amount_minor: Number(convertBetween(1_500n, "EUR", "USD", MOCK_EUR_RATES.USD!)),
      fx: { kind: "snapshot", as_of: PAST },
    });
    expect(await counts()).toEqual({ events: before.events + 1, subscriptions: before.subscriptions + 1 });
    expect(await api.db.subscription.findUnique({ where: { id: subscription.id } })).not.toBeNull();
    expect((await api.call("GET", `/v1/events/${event.id}`)).body.data).toEqual(event);
  });

  it("plans the first charge when next_charge_on is after today", async () => {
    const next = inDays(10);
    const response = await api.call("POST", "/v1/recurring-expenses", {
      body: {
        personal: true,
        name: "Gym",
        amount_minor: 4_000,
        currency: "GBP",
        billing_interval: "month",
        next_charge_on: next,
      },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.event).toMatchObject({
      type: "recurring_expense",
      state: "planned",
      occurred_on: next,
      personal: true,
      subscription_id: response.body.data.subscription.id,
      fx: { kind: "current" },
    });
    const row = await api.db.financialEvent.findUniqueOrThrow({ where: { id: response.body.data.event.id } });
    expect(row.fxRate).toBeNull();
  });

  it.each([
    [{ billing_interval: "daily" }, "billing_interval"],
    [{ next_charge_on: "2026-13-01" }, "next_charge_on"],
    [{ name: "" }, "name"],
    [{ amount_minor: 0 }, "amount_minor"],
    [{ amount_minor: 1.25 }, "amount_minor"],
    [{ amount_minor: "100" }, "amount_minor"],
    [{ currency: "ABC" }, "currency"],
  ])("refuses %j with 400 naming %s, writing neither record", async (fields, field) => {
    const before = await counts();
    const response = await api.call("POST", "/v1/recurring-expenses", {
      body: {
        personal: true,
        name: "X",
        amount_minor: 100,
        currency: "EUR",
        billing_interval: "year",
        next_charge_on: PAST,
        ...fields,
      },
    });
    expectApiError(response, 400, "validation_error", { issue: field });
    expect(await counts()).toEqual(before);
  });

  it("writes neither record on 404 or 422", async () => {
    const before = await counts();
    const body = { name: "X", amount_minor: 100, currency: "EUR", billing_interval: "year", next_charge_on: PAST };
    expect((await api.call("POST", "/v1/recurring-expenses", { body: { ...body, project_id: otherProjectId } })).status).toBe(
      404,
    );
    const unsupported = await api.call("POST", "/v1/recurring-expenses", { body: { ...body, personal: true, currency: "BRL" } });
    expectApiError(unsupported, 422, "currency_unsupported");
    expect(await counts()).toEqual(before);
  });

  it("rolls the subscription back when the event cannot be written (one transaction)", async () => {
    // A trigger that refuses this one event, so the failure happens after the subscription insert.
    await api.db.$executeRawUnsafe(`
      CREATE FUNCTION refuse_doomed_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.description = 'Doomed' THEN RAISE EXCEPTION 'refused by test trigger'; END IF;
        RETURN NEW;
      END $$`);
    await api.db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_doomed_event BEFORE INSERT ON financial_events FOR EACH ROW EXECUTE FUNCTION refuse_doomed_event()`,
    );
    try {
      const before = await counts();
      const response = await api.call("POST", "/v1/recurring-expenses", {
        body: {
          personal: true,
          name: "Doomed",
          amount_minor: 100,
          currency: "USD",
          billing_interval: "week",
          next_charge_on: PAST,
        },
      });
      expect(response.status).toBe(500);
      expect(await counts()).toEqual(before);
      expect(await api.db.subscription.count({ where: { name: "Doomed" } })).toBe(0);
    } finally {
      await api.db.$executeRawUnsafe(`DROP TRIGGER refuse_doomed_event ON financial_events`);
      await api.db.$executeRawUnsafe(`DROP FUNCTION refuse_doomed_event()`);
    }
  });
});

describe("GET /v1/events", () => {
  let filterBusinessId: string;
  let filterProjectId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    filterBusinessId = (await seedBusiness(api, { name: "Filters" })).id;
    filterProjectId = (await api.call("POST", `/v1/businesses/${filterBusinessId}/projects`, { body: { name: "P" } })).body.data
      .id;
    const post = async (name: string, path: string, body: Record<string, unknown>) => {
      const response = await api.call("POST", path, { body });
      expect(response.status, response.text).toBe(201);
      ids[name] = response.body.data.id;
    };
    await post("janExpense", "/v1/expenses", {
      business_id: filterBusinessId,
      amount_minor: 100,
      currency: "EUR",
      occurred_on: "2026-01-10",
    });
    await post("febRevenue", "/v1/revenues", {
      business_id: filterBusinessId,
      amount_minor: 200,
      currency: "USD",
      occurred_on: "2026-02-10",
    });
    await post("marProject", "/v1/expenses", {
      project_id: filterProjectId,
      amount_minor: 300,
      currency: "GBP",
      occurred_on: "2026-03-10",
    });
    await post("planned", "/v1/planned-expenses", {
      business_id: filterBusinessId,
      amount_minor: 400,
      currency: "CHF",
      occurred_on: "2026-12-31",
    });
    // An integration's restated (voided) event, written as the ingest path would.
    ids.voided = (
      await api.db.financialEvent.create({
        data: {
          ownerId,
          businessId: filterBusinessId,
          type: "ad_spend",
          state: "actual",
          status: "voided",
          amountMinor: 700n,
          currency: "USD",
          baseAmountMinor: 700n,
          baseCurrency: "USD",
          fxRate: "1",
          fxAsOf: new Date("2026-02-11T00:00:00Z"),
          fxSource: "identity",
          occurredOn: new Date("2026-02-11T00:00:00Z"),
          sourceType: "SOCIAL_ADS_API",
          externalId: "ads:1",
          provenance: { source: { type: "SOCIAL_ADS_API" } },
          confidence: "0.9",
          payload: { platform: "social_ads", account_id: "act_1" },
        },
      })
    ).id;
  });

  async function listIds(query: string): Promise<string[]> {
    const response = await api.call("GET", `/v1/events?business_id=${filterBusinessId}&limit=200${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body.data.map((e: { id: string }) => e.id);
  }

  it("lists the business's events newest first, voided ones included and flagged", async () => {
    expect(await listIds("")).toEqual([ids.voided, ids.planned, ids.marProject, ids.febRevenue, ids.janExpense]);
    const all = (await api.call("GET", `/v1/events?business_id=${filterBusinessId}`)).body.data;
    expect(all[0]).toMatchObject({
      status: "voided",
      source_type: "SOCIAL_ADS_API",
      confidence: 0.9,
      payload: { platform: "social_ads" },
      fx: { kind: "snapshot", source: "identity", rate: "1.00000000" },
      external_id: "ads:1",
    });
  });

  it.each([
    ["&type=expense", ["marProject", "janExpense"]],
    ["&type=revenue", ["febRevenue"]],
    ["&state=planned", ["planned"]],
    ["&state=actual&status=confirmed", ["marProject", "febRevenue", "janExpense"]],
    ["&status=voided", ["voided"]],
    ["&source_type=SOCIAL_ADS_API", ["voided"]],
    ["&source_type=MANUAL&currency=USD", ["febRevenue"]],
    ["&currency=GBP", ["marProject"]],
    ["&from=2026-02-10&to=2026-03-10", ["marProject", "voided", "febRevenue"].sort()],
    ["&from=2026-02-11", ["voided", "planned", "marProject"].sort()],
    ["&to=2026-01-10", ["janExpense"]],
    ["&personal=false&type=expense", ["marProject", "janExpense"]],
    ["&personal=true", []],
  ])("filters %s", async (query, expected) => {
    const got = await listIds(query);
    const names = got.map((id) => Object.keys(ids).find((name) => ids[name] === id));
    if (query.includes("from=")) expect([...names].sort()).toEqual(expected);
    else expect(names).toEqual(expected);
  });

  it("filters by project and by personal", async () => {
    const byProject = await api.call("GET", `/v1/events?project_id=${filterProjectId}`);
    expect(byProject.body.data.map((e: { id: string }) => e.id)).toEqual([ids.marProject]);
    const personal = (await api.call("GET", "/v1/events?personal=true&limit=200")).body.data as { personal: boolean }[];
    expect(personal.length).toBeGreaterThan(0);
    expect(personal.every((e) => e.personal)).toBe(true);
  });

  it.each([
    "type=bogus",
    "state=done",
    "status=deleted",
    "source_type=FAX",
    "currency=eur",
    "from=2026-02-30",
    "to=yesterday",
    "from=2026-03-01&to=2026-02-01",
    "business_id=nope",
    "personal=maybe",
  ])("refuses the query %s with 400", async (query) => {
    const response = await api.call("GET", `/v1/events?${query}`);
    expectApiError(response, 400, "validation_error", { what: query });
  });

  it("paginates by cursor (created_at desc, id desc), every event exactly once", async () => {
    const all = (await api.call("GET", "/v1/events?limit=200")).body.data as { id: string; created_at: string }[];
    expect(all.length).toBeGreaterThan(5);
    const seen = await walkPages(api, "/v1/events");
    expect(seen).toEqual(all.map((e) => e.id));
    const keys = all.map((e) => `${e.created_at}|${e.id}`);
    expect([...keys].sort().reverse()).toEqual(keys);
    // Filters and cursors combine.
    const first = await api.call("GET", `/v1/events?business_id=${filterBusinessId}&limit=3`);
    const second = await api.call(
      "GET",
      `/v1/events?business_id=${filterBusinessId}&limit=3&cursor=${first.body.page.next_cursor}`,
    );
    expect([...first.body.data, ...second.body.data].map((e: { id: string }) => e.id)).toEqual(await listIds(""));
    expect(second.body.page).toEqual({ next_cursor: null, has_more: false });
  });

  it("values every planned event of a page with ONE batched conversion", async () => {
    for (let i = 0; i < 6; i++) {
      const response = await api.call("POST", "/v1/planned-expenses", {
        body: {
          project_id: filterProjectId,
          amount_minor: 1_000 + i,
          currency: i % 2 ? "SEK" : "JPY",
          occurred_on: inDays(40 + i),
        },
      });
      expect(response.status).toBe(201);
    }
    vi.mocked(fx.convertManySettled).mockClear();
    vi.mocked(fx.convertAmount).mockClear();
    const response = await api.call("GET", `/v1/events?project_id=${filterProjectId}&state=planned`);
    expect(response.body.data).toHaveLength(6);
    expect(fx.convertManySettled).toHaveBeenCalledTimes(1);
    expect(vi.mocked(fx.convertManySettled).mock.calls[0]![1]).toHaveLength(6);
    expect(fx.convertAmount).not.toHaveBeenCalled();
    for (const event of response.body.data) {
      expect(event.fx.kind).toBe("current");
      const rate = crossRate(MOCK_EUR_RATES[event.currency]!, MOCK_EUR_RATES.USD!);
      expect(event.base_amount_minor).toBe(Number(convertBetween(BigInt(event.amount_minor), event.currency, "USD", rate)));
    }
    // A page of actual events only needs no conversion at all.
    vi.mocked(fx.convertManySettled).mockClear();
    await api.call("GET", `/v1/events?business_id=${filterBusinessId}&state=actual`);
    expect(fx.convertManySettled).not.toHaveBeenCalled();
  });

  it("shows a planned event with no rate any more with null base fields instead of failing the list", async () => {
    const row = await api.db.financialEvent.create({
      data: {
        ownerId,
        personal: true,
        type: "planned_expense",
        state: "planned",
        amountMinor: 100n,
        currency: "BRL",
        occurredOn: new Date("2026-12-01T00:00:00Z"),
        sourceType: "IMPORT",
      },
    });
    const list = await api.call("GET", "/v1/events?personal=true&state=planned&limit=200");
    expect(list.status).toBe(200);
    const shown = list.body.data.find((e: { id: string }) => e.id === row.id);
    expect(shown).toMatchObject({ base_amount_minor: null, base_currency: null, fx: null });
    expect(list.body.data.filter((e: { fx: unknown }) => e.fx !== null).length).toBeGreaterThan(0);
    await api.db.financialEvent.delete({ where: { id: row.id } });
  });

  it("shows an amount stored beyond the exact JSON range as null rather than round it or fail the read", async () => {
    const row = await api.db.financialEvent.create({
      data: {
        ownerId,
        personal: true,
        type: "revenue",
        state: "actual",
        amountMinor: 9_007_199_254_740_993n,
        currency: "USD",
        baseAmountMinor: 9_007_199_254_740_993n,
        baseCurrency: "USD",
        fxRate: "1",
        fxAsOf: new Date("2026-01-01T00:00:00Z"),
        fxSource: "identity",
        occurredOn: new Date("2026-01-01T00:00:00Z"),
        sourceType: "IMPORT",
      },
    });
    const response = await api.call("GET", `/v1/events/${row.id}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toMatchObject({ amount_minor: null, base_amount_minor: null, base_currency: "USD" });
    expect(response.text).not.toContain("9007199254740992");
    await api.db.financialEvent.delete({ where: { id: row.id } });
  });

  it("answers 404 for another owner's event and never lists it; 400 for a non-UUID id", async () => {
    const read = await api.call("GET", `/v1/events/${otherOwnersEventId}`);
    expectApiError(read, 404, "not_found");
    expect((await api.call("GET", "/v1/events?limit=200")).text).not.toContain(otherOwnersEventId);
    expect((await api.call("GET", `/v1/events?business_id=${otherBusinessId}`)).body.data).toEqual([]);
    expect((await api.call("GET", "/v1/events/not-a-uuid")).status).toBe(400);
  });
});

describe("with FX_SOURCE=ecb (stored rates)", () => {
  beforeAll(() => applyTestEnv({ FX_SOURCE: "ecb", FX_ECB_URL: "http://127.0.0.1:9/unreachable.xml" }));
  afterAll(async () => {
    applyTestEnv({ FX_SOURCE: undefined, FX_ECB_URL: undefined });
    await api.db.fxRate.deleteMany({ where: { source: "ecb" } });
  });

  it("answers 422 fx_unavailable with no rate at all, writing nothing (every manual write)", async () => {
    expect(await api.db.fxRate.count({ where: { source: "ecb" } })).toBe(0);
    const before = await counts();
    const body = { business_id: businessId, amount_minor: 100, currency: "EUR", occurred_on: PAST };
    for (const [path, extra] of [
      ["/v1/expenses", {}],
      ["/v1/revenues", {}],
      ["/v1/planned-expenses", {}],
      ["/v1/recurring-expenses", { name: "X", billing_interval: "month", next_charge_on: PAST }],
    ] as const) {
      const response = await api.call("POST", path, { body: { ...body, ...extra } });
      expectApiError(response, 422, "fx_unavailable", { what: path });
    }
    expect(await counts()).toEqual(before);
    // A same-currency entry needs no rate.
    const usd = await api.call("POST", "/v1/expenses", { body: { ...body, currency: "USD" } });
    expect(usd.status).toBe(201);
    expect(usd.body.data.fx).toMatchObject({ source: "identity", rate: "1.00000000" });
  });

  it("freezes the latest ECB rate on or before occurred_on, flags it stale after 5 days, refuses days before any rate", async () => {
    await api.db.fxRate.createMany({
      data: [
        { source: "ecb", day: new Date("2026-02-27T00:00:00Z"), base: "EUR", quote: "USD", rate: "1.08000000" },
        { source: "ecb", day: new Date("2026-02-26T00:00:00Z"), base: "EUR", quote: "USD", rate: "1.07000000" },
      ],
    });
    const post = (occurred_on: string) =>
      api.call("POST", "/v1/expenses", { body: { personal: true, amount_minor: 10_001, currency: "EUR", occurred_on } });

    const weekend = await post("2026-03-01");
    expect(weekend.status).toBe(201);
    expect(weekend.body.data).toMatchObject({
      base_amount_minor: 10_801, // 100.01 × 1.08 = 108.0108 → 10 801 cents
      fx: { rate: "1.08000000", as_of: "2026-02-27", source: "ecb", kind: "snapshot", stale: false },
    });
    const gap = await post("2026-03-10");
    expect(gap.body.data.fx).toMatchObject({ as_of: "2026-02-27", stale: true });
    const earlier = await post("2026-02-26");
    expect(earlier.body.data.fx).toMatchObject({ rate: "1.07000000", as_of: "2026-02-26", stale: false });
    for (const created of [weekend, gap, earlier]) {
      expect((await api.call("GET", `/v1/events/${created.body.data.id}`)).body.data).toEqual(created.body.data);
    }

    const before = await counts();
    const tooEarly = await post("2026-02-25");
    expectApiError(tooEarly, 422, "fx_unavailable");
    expect(await counts()).toEqual(before);
  });
});
