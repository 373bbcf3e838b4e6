// Fixing mistakes (issue 14): POST /v1/events/{id}/void and /correct for manual events, by the
// contract's restatement model (the old version voided, the new linked by
// supersedes_event_id, nothing deleted, both audited), with the summaries following.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayUtc } from "../../lib/days";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { insertEventRow } from "../../test/helpers/event-rows";
import { seedAgent, seedBusiness, seedEvent, seedOwner, seedProject, type TSeedOwner } from "../../test/helpers/seed";

let api: TTestApi;
let owner: TSeedOwner;
let other: TSeedOwner;
let businessId: string;
let projectId: string;
let otherBusinessId: string;

const DAY = "2026-01-15";
const PERIOD = "from=2026-01-01&to=2026-01-31";

async function euroOwner(): Promise<TSeedOwner> {
  const seeded = await seedOwner(api);
  await api.db.owner.update({ where: { id: seeded.ownerId }, data: { baseCurrency: "EUR" } });
  return seeded;
}

function post(path: string, body: unknown, options: { token?: string; idempotencyKey?: string | null } = {}) {
  return api.call("POST", path, { token: options.token ?? owner.token, body, idempotencyKey: options.idempotencyKey });
}

async function expense(body: Record<string, unknown> = {}, token = owner.token, scope: Record<string, unknown> = {}) {
  return seedEvent(api, "expense", { business_id: businessId, occurred_on: DAY, amount_minor: 10_000, ...scope, ...body }, token);
}

async function netOfBusiness(id = businessId): Promise<number> {
  const summary = await api.call("GET", `/v1/businesses/${id}/financial-summary?${PERIOD}`, { token: owner.token });
  expect(summary.status, summary.text).toBe(200);
  return summary.body.data.net_minor as number;
}

async function totals(query = ""): Promise<{ out_minor: number; counted: number; not_counted: number }> {
  return (await api.call("GET", `/v1/events/totals?${PERIOD}${query}`, { token: owner.token })).body.data;
}

async function audits(targetId: string): Promise<string[]> {
  const rows = await api.db.auditEntry.findMany({ where: { targetId }, orderBy: { createdAt: "asc" } });
  return rows.map((row) => row.action).sort();
}

beforeAll(async () => {
  api = await createTestApi();
  owner = await euroOwner();
  other = await euroOwner();
  businessId = (await seedBusiness(api, { name: "Fixes", currency: "EUR" }, owner.token)).id;
  projectId = (await seedProject(api, businessId, { name: "Site" }, owner.token)).id;
  otherBusinessId = (await seedBusiness(api, { name: "Other" }, other.token)).id;
});
afterAll(async () => api?.close());

describe("POST /v1/events/{id}/void", () => {
  it("voids a manual expense: listed as voided, audited, and the summary and totals no longer count it", async () => {
    const event = await expense({ description: "Duplicate invoice" });
    const netBefore = await netOfBusiness();
    const totalsBefore = await totals();

    const response = await post(`/v1/events/${event.id}/void`, { reason: "entered twice" });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toMatchObject({ id: event.id, status: "voided", amount_minor: 10_000 });

    expect(await netOfBusiness()).toBe(netBefore + 10_000);
    const after = await totals();
    expect(after.out_minor).toBe(totalsBefore.out_minor - 10_000);
    expect(after.not_counted).toBe(totalsBefore.not_counted + 1);
    const read = await api.call("GET", `/v1/events/${event.id}`, { token: owner.token });
    expect(read.body.data.status).toBe("voided");
    const entry = await api.db.auditEntry.findFirst({ where: { targetId: event.id, action: "event.voided" } });
    expect(entry).toMatchObject({ actorType: "owner", ownerId: owner.ownerId, details: { reason: "entered twice" } });
    expect(await api.db.financialEvent.count({ where: { id: event.id } })).toBe(1); // nothing deleted
  });

  it("a second void is 409 state_conflict and changes nothing", async () => {
    const event = await expense();
    expect((await post(`/v1/events/${event.id}/void`, {})).status).toBe(200);
    expectApiError(await post(`/v1/events/${event.id}/void`, {}), 409, "state_conflict", { details: { status: "voided" } });
    expect(await api.db.auditEntry.count({ where: { targetId: event.id, action: "event.voided" } })).toBe(1);
  });

  it("replays an idempotent retry; the same key with another body is 409; no key is 400", async () => {
    const event = await expense();
    const key = randomUUID();
    const first = await post(`/v1/events/${event.id}/void`, { reason: "mistake" }, { idempotencyKey: key });
    const retry = await post(`/v1/events/${event.id}/void`, { reason: "mistake" }, { idempotencyKey: key });
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body.data).toEqual(first.body.data);
    expect(await api.db.auditEntry.count({ where: { targetId: event.id, action: "event.voided" } })).toBe(1);
    expectApiError(
      await post(`/v1/events/${event.id}/void`, { reason: "other" }, { idempotencyKey: key }),
      409,
      "idempotency_conflict",
    );
    const fresh = await expense();
    expectApiError(await post(`/v1/events/${fresh.id}/void`, {}, { idempotencyKey: null }), 400, "missing_idempotency_key");
  });

  it("another owner's event is 404 and stays confirmed; a non-UUID id is 400", async () => {
    const theirs = await seedEvent(api, "expense", { business_id: otherBusinessId }, other.token);
    expectApiError(await post(`/v1/events/${theirs.id}/void`, {}), 404, "not_found");
    expectApiError(await post(`/v1/events/${randomUUID()}/void`, {}), 404, "not_found");
    expectApiError(await post("/v1/events/not-a-uuid/void", {}), 400, "validation_error");
    expect((await api.db.financialEvent.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe("confirmed");
  });

  it("an integration's event (source IMPORT, not a statement's line) is 409: its source restates it", async () => {
    const id = await insertEventRow(api, owner.ownerId, { businessId, type: "expense", amount: 500n, on: DAY });
    await api.db.financialEvent.update({ where: { id }, data: { sourceType: "IMPORT" } });
    expectApiError(await post(`/v1/events/${id}/void`, {}), 409, "state_conflict", { details: { source_type: "IMPORT" } });
    expectApiError(await post(`/v1/events/${id}/correct`, { amount_minor: 600 }), 409, "state_conflict", {
      details: { source_type: "IMPORT" },
    });
    expect((await api.db.financialEvent.findUniqueOrThrow({ where: { id } })).status).toBe("confirmed");
  });

  it("is owner-only: an agent is 403 scope_denied", async () => {
    const event = await expense();
    const agent = await seedAgent(api, {}, owner.token);
    expectApiError(await post(`/v1/events/${event.id}/void`, {}, { token: agent.token }), 403, "scope_denied");
    expectApiError(
      await post(`/v1/events/${event.id}/correct`, { amount_minor: 1 }, { token: agent.token }),
      403,
      "scope_denied",
    );
  });

  it("of two concurrent voids exactly one wins", async () => {
    const event = await expense();
    const answers = await Promise.all([post(`/v1/events/${event.id}/void`, {}), post(`/v1/events/${event.id}/void`, {})]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await api.db.auditEntry.count({ where: { targetId: event.id, action: "event.voided" } })).toBe(1);
  });
});

describe("POST /v1/events/{id}/correct", () => {
  it("voids the old version and writes the new one linked to it; the summary follows", async () => {
    const event = await expense({ amount_minor: 4_000, category: "Tools", description: "Figma" });
    const netBefore = await netOfBusiness();

    const response = await post(`/v1/events/${event.id}/correct`, { amount_minor: 4_500, category: null, reason: "typo" });
    expect(response.status, response.text).toBe(201);
    const corrected = response.body.data;
    expect(corrected).toMatchObject({
      type: "expense",
      state: "actual",
      status: "confirmed",
      amount_minor: 4_500,
      base_amount_minor: 4_500,
      currency: "EUR",
      occurred_on: DAY,
      business_id: businessId,
      category: null,
      description: "Figma",
      source_type: "MANUAL",
      supersedes_event_id: event.id,
      fx: { kind: "snapshot" },
    });
    expect(corrected.id).not.toBe(event.id);
    expect((await api.db.financialEvent.findUniqueOrThrow({ where: { id: event.id } })).status).toBe("voided");
    expect(await netOfBusiness()).toBe(netBefore - 500);

    expect(await audits(event.id)).toEqual(["event.created", "event.voided"]);
    expect(await audits(corrected.id)).toEqual(["event.corrected", "event.created"]);
    const entry = await api.db.auditEntry.findFirst({ where: { targetId: corrected.id, action: "event.corrected" } });
    expect(entry?.details).toMatchObject({
      supersedes_event_id: event.id,
      reason: "typo",
      changes: { amount_minor: [4_000, 4_500], category: ["Tools", null] },
    });
  });

  it("converts a new currency again and moves the scope to a project of the owner", async () => {
    const event = await expense({ amount_minor: 2_000 });
    const response = await post(`/v1/events/${event.id}/correct`, { currency: "USD", project_id: projectId });
    expect(response.status, response.text).toBe(201);
    expect(response.body.data).toMatchObject({
      currency: "USD",
      project_id: projectId,
      business_id: businessId,
      base_currency: "EUR",
    });
    expect(response.body.data.base_amount_minor).not.toBe(2_000);
  });

  it("validates as a new expense does, every issue at once, and writes nothing", async () => {
    const event = await expense();
    const before = await api.db.financialEvent.count();
    const bad = await post(`/v1/events/${event.id}/correct`, {
      amount_minor: -5,
      currency: "XXQ",
      occurred_on: "2026-02-30",
      business_id: businessId,
      personal: true,
    });
    const error = expectApiError(bad, 400, "validation_error");
    const fields = (error.details.issues as { path: string }[]).map((issue) => issue.path);
    expect(fields).toEqual(expect.arrayContaining(["amount_minor", "currency", "occurred_on", "business_id"]));
    const future = await post(`/v1/events/${event.id}/correct`, { occurred_on: "2999-01-01" });
    expectApiError(future, 400, "validation_error", { issue: "occurred_on" });
    expect(todayUtc() < "2999-01-01").toBe(true);
    expectApiError(await post(`/v1/events/${event.id}/correct`, {}), 400, "validation_error", {
      message: /changes nothing/,
      issue: "amount_minor",
    });
    expectApiError(await post(`/v1/events/${event.id}/correct`, { amount_minor: 10_000 }), 400, "validation_error");
    expect(await api.db.financialEvent.count()).toBe(before);
    expect((await api.db.financialEvent.findUniqueOrThrow({ where: { id: event.id } })).status).toBe("confirmed");
  });

  it("another owner's event, business or project is 404 and writes nothing", async () => {
    const theirs = await seedEvent(api, "expense", { business_id: otherBusinessId }, other.token);
    expectApiError(await post(`/v1/events/${theirs.id}/correct`, { amount_minor: 1 }), 404, "not_found");
    const mine = await expense();
    const before = await api.db.financialEvent.count();
    expectApiError(await post(`/v1/events/${mine.id}/correct`, { business_id: otherBusinessId }), 404, "not_found");
    expect(await api.db.financialEvent.count()).toBe(before);
    expect((await api.db.financialEvent.findUniqueOrThrow({ where: { id: mine.id } })).status).toBe("confirmed");
  });

  it("a voided event cannot be corrected (409); the corrected version can be corrected again", async () => {
    const event = await expense({ amount_minor: 100 });
    const v2 = (await post(`/v1/events/${event.id}/correct`, { amount_minor: 200 })).body.data;
    expectApiError(await post(`/v1/events/${event.id}/correct`, { amount_minor: 300 }), 409, "state_conflict");
    const v3 = await post(`/v1/events/${v2.id}/correct`, { amount_minor: 300 });
    expect(v3.status).toBe(201);
    expect(v3.body.data.supersedes_event_id).toBe(v2.id);
    const chain = await api.call("GET", `/v1/events?${PERIOD}&q=&status=confirmed&business_id=${businessId}&limit=200`, {
      token: owner.token,
    });
    const ids = chain.body.data.map((e: { id: string }) => e.id);
    expect(ids).toContain(v3.body.data.id);
    expect(ids).not.toContain(v2.id);
  });

  it("replays an idempotent retry without a second version", async () => {
    const event = await expense({ amount_minor: 700 });
    const key = randomUUID();
    const first = await post(`/v1/events/${event.id}/correct`, { amount_minor: 800 }, { idempotencyKey: key });
    const retry = await post(`/v1/events/${event.id}/correct`, { amount_minor: 800 }, { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body.data.id).toBe(first.body.data.id);
    expect(await api.db.financialEvent.count({ where: { supersedesEventId: event.id } })).toBe(1);
  });

  it("a planned expense already fulfilled cannot be corrected (409), only voided", async () => {
    const actual = await expense({ amount_minor: 5_000 });
    const planned = await seedEvent(api, "planned_expense", { business_id: businessId, occurred_on: "2030-01-01" }, owner.token);
    await api.db.financialEvent.update({ where: { id: planned.id }, data: { fulfilledByEventId: actual.id } });
    expectApiError(await post(`/v1/events/${planned.id}/correct`, { amount_minor: 1 }), 409, "state_conflict", {
      details: { fulfilled_by_event_id: actual.id },
    });
    expect((await post(`/v1/events/${planned.id}/void`, {})).status).toBe(200);
  });

  it("a planned expense stays planned and may move to a future day", async () => {
    const planned = await seedEvent(api, "planned_expense", { business_id: businessId, occurred_on: "2030-01-01" }, owner.token);
    const response = await post(`/v1/events/${planned.id}/correct`, { occurred_on: "2030-02-01" });
    expect(response.status, response.text).toBe(201);
    expect(response.body.data).toMatchObject({ type: "planned_expense", state: "planned", occurred_on: "2030-02-01" });
  });
});
