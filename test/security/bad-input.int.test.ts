// Issue 11, "Bad input gets a clear 4xx, never a 500": a NUL, a lone surrogate, JSON nested
// past 64 levels and days outside 1900–2999, in bodies, query strings, cursors, webhook items
// and CSV cells. Each answers 400 validation_error naming the field (or one rejection in a
// batch) and writes nothing; each case below answered 500 (or was stored) before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayUtc } from "../../lib/days";
import { paymentsAHeaders, serviceHeaders } from "../helpers/webhook-signing";
import { callMultipart, createTestApi, type TTestApi } from "../helpers/api";
import { expectApiError } from "../helpers/api-error";
import { seedBusiness, seedIntegration, staticOwner } from "../helpers/seed";

const GENERIC_SECRET = "bad-input-generic-secret-0123456789";
const PAYMENTS_SECRET = "whsec_bad_input";
const TODAY = todayUtc();

let api: TTestApi;
let businessId: string;
let genericId: string;

beforeAll(async () => {
  api = await createTestApi({ env: { WEBHOOK_SECRET_PAYMENTS_A: PAYMENTS_SECRET } });
  const ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
  genericId = await seedIntegration(api.db, { ownerId, provider: "generic", businessId, secret: GENERIC_SECRET });
});
afterAll(async () => api?.close());

/** Rows of the tables a refused request could touch. */
async function counts() {
  return {
    businesses: await api.db.business.count(),
    events: await api.db.financialEvent.count(),
    subscriptions: await api.db.subscription.count(),
    signals: await api.db.integrationSignal.count(),
    imports: await api.db.import.count(),
  };
}

const json = (text: string) => ({ rawBody: text, headers: { "content-type": "application/json" } });

describe("JSON bodies", () => {
  it.each([
    ["a NUL in a string", '{"name":"At\\u0000las","currency":"EUR"}', "name"],
    ["a lone high surrogate", '{"name":"At\\ud800las","currency":"EUR"}', "name"],
    ["a lone low surrogate in a nested value", '{"name":"A","currency":"EUR","x":{"y":["\\udc00"]}}', "x.y.0"],
    ["a NUL in a key", '{"name":"A","currency":"EUR","k\\u0000":1}', "k\\u0000"],
  ])("%s answers 400 naming the field, and writes nothing", async (_what, body, path) => {
    const before = await counts();
    expectApiError(await api.call("POST", "/v1/businesses", json(body)), 400, "validation_error", { issue: path });
    expect(await counts()).toEqual(before);
  });

  it("a surrogate pair (an emoji) is text and is kept", async () => {
    const response = await api.call("POST", "/v1/businesses", json('{"name":"Atlas \\ud83d\\udcb8","currency":"EUR"}'));
    expect(response.status, response.text).toBe(201);
    expect(response.body.data.name).toBe("Atlas 💸");
  });

  it("nesting deeper than 64 levels answers 400; 5,000 levels too, not a stack overflow", async () => {
    const deep = (levels: number) => '{"d":'.repeat(levels) + "1" + "}".repeat(levels);
    const before = await counts();
    expectApiError(
      await api.call("POST", "/v1/expenses", json(`{"business_id":"${businessId}","x":${deep(64)}}`)),
      400,
      "validation_error",
      { issue: `x${".d".repeat(63)}` },
    );
    const huge = await api.call("POST", "/v1/revenues", json(`{"business_id":${deep(5000)}}`));
    expect(huge.status, huge.text).toBe(400);
    expect(huge.body.error.details.issues[0].message).toMatch(/deeper than 64/);
    expect(await counts()).toEqual(before);
    // 63 levels below the body are fine (the extra field is then ignored, as any unknown field).
    const ok = await api.call("POST", "/v1/businesses", json(`{"name":"Deep","currency":"EUR","x":${deep(62)}}`));
    expect(ok.status, ok.text).toBe(201);
  });
});

describe("days outside 1900–2999", () => {
  const expense = (occurred_on: string) => ({ business_id: businessId, amount_minor: 100, currency: "EUR", occurred_on });

  it.each(["0000-01-01", "0001-01-01", "1899-12-31"])("an expense on %s answers 400 occurred_on", async (day) => {
    const before = await counts();
    expectApiError(await api.call("POST", "/v1/expenses", { body: expense(day) }), 400, "validation_error", {
      issue: "occurred_on",
    });
    expect(await counts()).toEqual(before);
  });

  it("a subscription charged in 3000 answers 400 next_charge_on", async () => {
    const body = { business_id: businessId, name: "Far", amount_minor: 100, currency: "EUR", billing_interval: "month" };
    expectApiError(
      await api.call("POST", "/v1/subscriptions", { body: { ...body, next_charge_on: "3000-01-01" } }),
      400,
      "validation_error",
      { issue: "next_charge_on" },
    );
  });

  it("1900-01-01 is accepted", async () => {
    expect((await api.call("POST", "/v1/expenses", { body: expense("1900-01-01") })).status).toBe(201);
  });

  it.each([
    ["/v1/events?from=0000-01-01", "from"],
    ["/v1/events?to=9999-12-31", "to"],
    ["/v1/audit?from=0000-01-01T00:00:00Z", "from"],
  ])("GET %s answers 400 naming the parameter", async (path, param) => {
    expectApiError(await api.call("GET", path), 400, "validation_error", { issue: param });
  });

  it("a cursor holding a day PostgreSQL cannot compare answers 400 cursor", async () => {
    for (const day of ["0000-01-01T00:00:00.000Z", "+275760-09-13T00:00:00.000Z"]) {
      const cursor = Buffer.from(JSON.stringify([day, "1b4e28ba-2fa1-41d2-883f-0016d3cca427"])).toString("base64url");
      expectApiError(await api.call("GET", `/v1/events?cursor=${cursor}`), 400, "validation_error", { issue: "cursor" });
    }
  });
});

describe("query strings and path parameters", () => {
  it.each(["__proto__", "constructor", "toString"])(
    "?%s=1 is an unknown parameter, ignored (it broke the adapter: 500)",
    async (name) => {
      const response = await api.call("GET", `/v1/me?${name}=1`);
      expect(response.status, response.text).toBe(200);
    },
  );

  it.each([
    ["/v1/events?business_id=%00", "business_id"],
    ["/v1/events?type=expense%00", "type"],
    ["/v1/businesses?x%00=1", "x\\u0000"],
  ])("a NUL in %s answers 400 naming the parameter", async (path, param) => {
    expectApiError(await api.call("GET", path), 400, "validation_error", { issue: param });
  });

  it.each(["not-a-uuid", "%00", "1B4E28BA-2FA1-11D2-883F-0016D3CCA42%00"])(
    "a non-UUID id (%s) in a path answers 400 id, as every path parameter does",
    async (id) => {
      expectApiError(await api.call("GET", `/v1/events/${id}`), 400, "validation_error", { issue: "id" });
      expectApiError(await api.call("PATCH", `/v1/businesses/${id}`, { body: { name: "x" } }), 400, "validation_error", {
        issue: "id",
      });
    },
  );
});

describe("webhook items", () => {
  const sendGeneric = (body: unknown) => {
    const raw = JSON.stringify(body);
    return api.call("POST", `/v1/webhooks/generic/${genericId}`, {
      rawBody: raw,
      token: null,
      idempotencyKey: null,
      headers: serviceHeaders(GENERIC_SECRET, raw),
    });
  };
  const event = (external_id: string, extra: Record<string, unknown> = {}) => ({
    external_id,
    type: "revenue",
    state: "actual",
    amount_minor: 500,
    currency: "EUR",
    occurred_on: TODAY,
    ...extra,
  });

  it("an event with a NUL or a lone surrogate is one rejection; the others go in", async () => {
    const response = await sendGeneric({
      events: [
        event("bad-nul", { description: "a\u0000b" }),
        event("good-1"),
        event("bad-surrogate", { payload: { note: "\ud800" } }),
        event("bad-day", { occurred_on: "1899-12-31" }),
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.inserted).toBe(1);
    const rejected = response.body.data.rejected;
    expect(rejected.map((r: { index: number; code: string }) => [r.index, r.code])).toEqual([
      [0, "validation_error"],
      [2, "validation_error"],
      [3, "validation_error"],
    ]);
    expect(rejected[0].message).toMatch(/description.*NUL/);
    expect(rejected[1].message).toMatch(/payload\.note.*surrogate/);
    expect(await api.db.financialEvent.count({ where: { integrationId: genericId } })).toBe(1);
  });

  it("a signal with a NUL is that signal's rejection, naming it; the delivery's event goes in", async () => {
    const response = await sendGeneric({
      events: [event("with-bad-signal")],
      signals: [{ external_id: "s1", code: "payout_paid", occurred_at: new Date().toISOString(), message: "x\u0000" }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.inserted).toBe(1);
    // A signal's index follows the delivery's events (server/ingest).
    expect(response.body.data.rejected).toMatchObject([{ index: 1, external_id: "s1", code: "validation_error" }]);
    expect(response.body.data.rejected[0].message).toMatch(/message.*NUL/);
    expect(await api.db.integrationSignal.count({ where: { integrationId: genericId } })).toBe(0);
  });

  it("a provider delivery naming an account with a NUL answers 401 like any unconnected account", async () => {
    const raw = JSON.stringify({
      id: "evt_nul",
      type: "charge.succeeded",
      account: "acct_\u0000",
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: "ch_nul", object: "charge", amount: 100, currency: "eur", created: Math.floor(Date.now() / 1000) } },
    });
    const response = await api.call("POST", "/v1/webhooks/payments_a", {
      rawBody: raw,
      token: null,
      idempotencyKey: null,
      headers: paymentsAHeaders(PAYMENTS_SECRET, raw),
    });
    expectApiError(response, 401, "unauthenticated");
  });
});

describe("statement imports", () => {
  it("a row dated 0000-01-01 is a rejected row of the preview (it answered 500)", async () => {
    const file = `Date,Amount,Currency,Description\n0000-01-01,-12.00,EUR,Year zero\n${TODAY},-3.50,EUR,Coffee\n`;
    const response = await callMultipart(api.handler, "/v1/imports", {
      fields: { business_id: businessId },
      file: { bytes: file },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.preview).toMatchObject({ total_rows: 2, would_insert: 1, rejected_count: 1 });
    expect(response.body.data.preview.rejected[0].reject_reason).toMatch(/outside 1900-01-01/);
  });
});
