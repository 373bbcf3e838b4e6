// Goals over /v1 (pinned-wave2 §3.6): create, read, update, delete, the always-empty list and
// its validation, and the panel's own list (not on /v1). Progress and proposals on hand-computed
// ledgers are in goal-progress.int.test.ts. Both engines.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedAgent, seedBusiness, seedOwner, seedProject, staticOwner } from "../../test/helpers/seed";
import type { TActor } from "../auth/actor";
import { createRequestContext } from "../auth/request-context";
import { toAppError } from "../errors/to-app-error";
import { appRouter } from "../router";
import { fixedClock } from "../shared/clock";
import { createContext } from "../trpc/context";
import { createCallerFactory } from "../trpc/init";

// The read clock: 2027-06-15 10:00 UTC; the static owner keeps the books in EUR, in UTC.
const NOW = "2027-06-15T10:00:00Z";
const TODAY = "2027-06-15";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNKNOWN = "5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00";
const MAX_EXACT = Number.MAX_SAFE_INTEGER;

let api: TTestApi;
let ownerId: string;
let businessId: string;
let projectId: string;
const clock = fixedClock(NOW);

const createCaller = createCallerFactory(appRouter);
const ownerActor = (id: string): TActor => ({ type: "owner", ownerId: id, credential: "static", tokenKey: `test:${id}` });
const callerFor = (actor: TActor) =>
  createCaller(createContext(createRequestContext(new Headers(), { clock, requestId: "req_goals_test" }), { db: api.db, actor }));

beforeAll(async () => {
  api = await createTestApi({ clock, env: { FX_SOURCE: "mock" } });
  ownerId = (await staticOwner(api)).ownerId;
  await api.db.owner.update({ where: { id: ownerId }, data: { baseCurrency: "EUR", timezone: "UTC" } });
  businessId = (await seedBusiness(api, { name: "Atlas" })).id;
  projectId = (await seedProject(api, businessId, { name: "Web" })).id;
});
afterAll(async () => api?.close());

const post = (body: unknown, options: { token?: string; idempotencyKey?: string | null } = {}) =>
  api.call("POST", "/v1/goals", { body, ...options });
const patch = (id: string, body: unknown) => api.call("PATCH", `/v1/goals/${id}`, { body });

/** A personal goal to save 1 000.00 EUR, unless `body` says otherwise; answers its id. */
async function goal(body: Record<string, unknown> = {}): Promise<string> {
  const response = await post({
    personal: true,
    kind: "save",
    name: "Buffer",
    target_amount_minor: 100_000,
    currency: "EUR",
    ...body,
  });
  expect(response.status, response.text).toBe(201);
  return response.body.data.id as string;
}

async function auditOf(id: string) {
  return api.db.auditEntry.findMany({ where: { targetType: "goal", targetId: id }, orderBy: { createdAt: "asc" } });
}

/** The paths of a 400's issues. */
function issuePaths(response: { body: any }): string[] {
  return (response.body.error.details.issues as { path: string }[]).map((issue) => issue.path).sort();
}

describe("POST /v1/goals", () => {
  it("creates each kind (201) in the pinned shape, active, with progress, audited goal.created", async () => {
    const save = await post({
      business_id: businessId,
      kind: "save",
      name: "  Three months of burn ",
      target_amount_minor: 4_050_000,
      currency: "EUR",
      target_date: "2027-09-13",
    });
    expect(save.status, save.text).toBe(201);
    expect(save.body.data).toEqual({
      id: expect.stringMatching(UUID),
      business_id: businessId,
      project_id: null,
      personal: false,
      kind: "save",
      name: "Three months of burn",
      target_amount_minor: 4_050_000,
      currency: "EUR",
      target_days: null,
      target_date: "2027-09-13",
      status: "active",
      // No cash in Atlas: free capital, and so the progress, is unknown.
      progress: { current_minor: null, current_days: null, ratio: null, as_of: "2027-06-15T10:00:00.000Z" },
      created_at: "2027-06-15T10:00:00.000Z",
      updated_at: "2027-06-15T10:00:00.000Z",
    });
    const [entry] = await auditOf(save.body.data.id);
    expect(entry).toMatchObject({
      action: "goal.created",
      actorType: "owner",
      details: {
        kind: "save",
        name: "Three months of burn",
        business_id: businessId,
        project_id: null,
        personal: false,
        target_amount_minor: 4_050_000,
        currency: "EUR",
        target_days: null,
        target_date: "2027-09-13",
        status: "active",
      },
    });

    const runway = await post({ project_id: projectId, kind: "runway", name: "Half a year", target_days: 180 });
    expect(runway.status, runway.text).toBe(201);
    expect(runway.body.data).toMatchObject({
      business_id: businessId,
      project_id: projectId,
      personal: false,
      kind: "runway",
      target_amount_minor: null,
      currency: null,
      target_days: 180,
      target_date: null,
      progress: { current_days: null, ratio: null },
    });

    for (const kind of ["revenue", "spend_cap"]) {
      const response = await post({ personal: true, kind, name: kind, target_amount_minor: 1, currency: "USD" });
      expect(response.status, response.text).toBe(201);
      expect(response.body.data).toMatchObject({ kind, personal: true, target_amount_minor: 1, currency: "USD" });
    }
  });

  it("names every wrong field in one 400 and writes nothing", async () => {
    const before = await api.db.goal.count();
    const response = await post({ business_id: businessId, personal: true, kind: "save", name: "", target_days: 30 });
    expectApiError(response, 400, "validation_error");
    expect(issuePaths(response)).toEqual(["business_id", "currency", "name", "target_amount_minor", "target_days"]);
    const runway = await post({ personal: true, kind: "runway", name: "x".repeat(201), target_amount_minor: 5, currency: "EUR" });
    expectApiError(runway, 400, "validation_error");
    expect(issuePaths(runway)).toEqual(["currency", "name", "target_amount_minor", "target_days"]);
    // The checks the schema cannot make (an unknown currency, a date before today) come together too.
    const late = await post({
      personal: true,
      kind: "save",
      name: "x",
      target_amount_minor: 5,
      currency: "XYZ",
      target_date: "2027-06-14",
    });
    expectApiError(late, 400, "validation_error");
    expect(issuePaths(late)).toEqual(["currency", "target_date"]);
    expect(await api.db.goal.count()).toBe(before);
  });

  it("money kinds: target_amount_minor a positive exact integer, up to 2^53 − 1, and a currency", async () => {
    for (const amount of [0, -5, 1.5, MAX_EXACT + 1, "100"]) {
      const response = await post({ personal: true, kind: "revenue", name: "x", target_amount_minor: amount, currency: "EUR" });
      expectApiError(response, 400, "validation_error", { issue: "target_amount_minor", what: String(amount) });
    }
    for (const currency of ["eur", "EURO", ""]) {
      const response = await post({ personal: true, kind: "spend_cap", name: "x", target_amount_minor: 5, currency });
      expectApiError(response, 400, "validation_error", { issue: "currency", what: currency });
    }
    const id = await goal({ kind: "spend_cap", target_amount_minor: MAX_EXACT });
    const read = await api.call("GET", `/v1/goals/${id}`);
    expect(read.body.data.target_amount_minor).toBe(MAX_EXACT);
    expect((await api.db.goal.findUniqueOrThrow({ where: { id } })).targetAmountMinor).toBe(BigInt(MAX_EXACT));
  });

  it("runway: target_days 1 to 3650, whole days", async () => {
    for (const days of [0, 3651, 1.5, -1, null]) {
      const response = await post({ personal: true, kind: "runway", name: "x", target_days: days });
      expectApiError(response, 400, "validation_error", { issue: "target_days", what: String(days) });
    }
    for (const days of [1, 3650]) {
      const response = await post({ personal: true, kind: "runway", name: "x", target_days: days });
      expect(response.status, response.text).toBe(201);
      expect(response.body.data.target_days).toBe(days);
    }
  });

  it("name: 1 to 200 characters after trimming", async () => {
    for (const name of ["", "   ", "x".repeat(201)]) {
      expectApiError(await post({ personal: true, kind: "runway", name, target_days: 10 }), 400, "validation_error", {
        issue: "name",
      });
    }
    expectApiError(await post({ personal: true, kind: "runway", target_days: 10 }), 400, "validation_error", { issue: "name" });
    const longest = await post({ personal: true, kind: "runway", name: "x".repeat(200), target_days: 10 });
    expect(longest.status, longest.text).toBe(201);
  });

  it("kind must be one of save, revenue, spend_cap, runway; one scope exactly", async () => {
    expectApiError(await post({ personal: true, kind: "profit", name: "x" }), 400, "validation_error", { issue: "kind" });
    expectApiError(await post({ kind: "runway", name: "x", target_days: 5 }), 400, "validation_error", { issue: "business_id" });
    expectApiError(
      await post({ business_id: businessId, project_id: projectId, kind: "runway", name: "x", target_days: 5 }),
      400,
      "validation_error",
      { issue: "business_id" },
    );
  });

  it("target_date: not before today in the owner's timezone (today itself is fine)", async () => {
    expect((await post({ personal: true, kind: "runway", name: "x", target_days: 5, target_date: TODAY })).status).toBe(201);
    expectApiError(
      await post({ personal: true, kind: "runway", name: "x", target_days: 5, target_date: "2027-06-14" }),
      400,
      "validation_error",
      { issue: "target_date" },
    );
    expectApiError(
      await post({ personal: true, kind: "runway", name: "x", target_days: 5, target_date: "2027-02-30" }),
      400,
      "validation_error",
      { issue: "target_date" },
    );
    // In Auckland (UTC+12) it is 2027-06-15 22:00 at the clock's 10:00 UTC: the same day; at
    // 13:00 UTC it is already the 16th there, so the 15th is yesterday.
    const kiwi = await seedOwner(api);
    await api.db.owner.update({ where: { id: kiwi.ownerId }, data: { timezone: "Pacific/Auckland" } });
    clock.set("2027-06-15T13:00:00Z");
    try {
      const body = { personal: true, kind: "runway", name: "x", target_days: 5 };
      expectApiError(await post({ ...body, target_date: TODAY }, { token: kiwi.token }), 400, "validation_error", {
        issue: "target_date",
        message: /2027-06-16/,
      });
      expect((await post({ ...body, target_date: "2027-06-16" }, { token: kiwi.token })).status).toBe(201);
      // The static owner (UTC) is still on the 15th.
      expect((await post({ ...body, target_date: TODAY })).status).toBe(201);
    } finally {
      clock.set(NOW);
    }
  });

  it("another owner's or an unknown business or project: 404, nothing written", async () => {
    const bob = await seedOwner(api);
    const theirs = (await seedBusiness(api, { name: "Bob's" }, bob.token)).id;
    const theirProject = (await seedProject(api, theirs, { name: "Bob's web" }, bob.token)).id;
    const before = await api.db.goal.count();
    for (const scope of [
      { business_id: theirs },
      { project_id: theirProject },
      { business_id: UNKNOWN },
      { project_id: UNKNOWN },
    ]) {
      expectApiError(await post({ ...scope, kind: "runway", name: "x", target_days: 5 }), 404, "not_found");
    }
    expect(await api.db.goal.count()).toBe(before);
  });

  it("needs an Idempotency-Key; a replay answers the first goal; an agent is refused (owner only)", async () => {
    const body = { personal: true, kind: "runway", name: "Keyed", target_days: 30 };
    expectApiError(await post(body, { idempotencyKey: null }), 400, "missing_idempotency_key");
    const key = randomUUID();
    const first = await post(body, { idempotencyKey: key });
    const again = await post(body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await api.db.goal.count({ where: { name: "Keyed" } })).toBe(1);

    const agent = await seedAgent(api, { grants: [{ scope: "finances:observe", resource: "*", level: "recommend" }] });
    expectApiError(await post(body, { token: agent.token }), 403, "scope_denied");
    expectApiError(await api.call("GET", "/v1/goals", { token: agent.token }), 403, "scope_denied");
    expectApiError(
      await api.call("POST", "/v1/goal-proposals", { token: agent.token, body: { personal: true } }),
      403,
      "scope_denied",
    );
  });
});

describe("GET /v1/goals (always empty in this version)", () => {
  it("answers literally the empty list, whatever goals exist", async () => {
    await goal();
    for (const query of [
      "",
      `?business_id=${businessId}`,
      `?project_id=${projectId}`,
      "?personal=true",
      "?personal=false&limit=200",
    ]) {
      const response = await api.call("GET", `/v1/goals${query}`);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({
        data: [],
        page: { next_cursor: null, has_more: false },
        request_id: response.headers.get("x-request-id"),
      });
    }
  });

  it("still validates the query: several scopes 400, a foreign or unknown business or project 404, bad paging 400", async () => {
    for (const query of [
      `?business_id=${businessId}&personal=true`,
      `?business_id=${businessId}&project_id=${projectId}`,
      `?project_id=${projectId}&personal=true`,
    ]) {
      expectApiError(await api.call("GET", `/v1/goals${query}`), 400, "validation_error", { issue: "business_id", what: query });
    }
    for (const query of [
      "?business_id=nope",
      "?project_id=42",
      "?limit=0",
      "?limit=201",
      "?cursor=not-ours",
      "?personal=maybe",
    ]) {
      expectApiError(await api.call("GET", `/v1/goals${query}`), 400, "validation_error", { what: query });
    }
    const carol = await seedOwner(api);
    const theirs = (await seedBusiness(api, { name: "Carol's" }, carol.token)).id;
    const theirProject = (await seedProject(api, theirs, { name: "Carol's web" }, carol.token)).id;
    for (const query of [
      `?business_id=${theirs}`,
      `?project_id=${theirProject}`,
      `?business_id=${UNKNOWN}`,
      `?project_id=${UNKNOWN}`,
    ]) {
      expectApiError(await api.call("GET", `/v1/goals${query}`), 404, "not_found", { what: query });
    }
  });
});

describe("GET /v1/goals/{id}", () => {
  it("reads one goal; a non-UUID id 400; an unknown id 404", async () => {
    const id = await goal({ name: "Readable" });
    const response = await api.call("GET", `/v1/goals/${id}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id, name: "Readable", kind: "save", status: "active" });
    expectApiError(await api.call("GET", "/v1/goals/not-a-uuid"), 400, "validation_error", { issue: "id" });
    expectApiError(await api.call("GET", `/v1/goals/${UNKNOWN}`), 404, "not_found");
  });
});

describe("PATCH /v1/goals/{id}", () => {
  it("changes the fields sent, keeps the rest; null removes target_date; audited goal.updated", async () => {
    const id = await goal({ target_date: "2027-12-31" });
    clock.set("2027-06-15T11:00:00Z");
    try {
      const response = await patch(id, {
        name: "Bigger buffer",
        target_amount_minor: 250_000,
        currency: "USD",
        target_date: null,
      });
      expect(response.status, response.text).toBe(200);
      expect(response.body.data).toMatchObject({
        id,
        kind: "save",
        personal: true,
        name: "Bigger buffer",
        target_amount_minor: 250_000,
        currency: "USD",
        target_date: null,
        status: "active",
        created_at: "2027-06-15T10:00:00.000Z",
        updated_at: "2027-06-15T11:00:00.000Z",
      });
    } finally {
      clock.set(NOW);
    }
    const entries = await auditOf(id);
    expect(entries.map((e) => e.action)).toEqual(["goal.created", "goal.updated"]);
    expect(entries[1]!.details).toEqual({ fields: ["name", "target_amount_minor", "currency", "target_date"] });

    const runway = await goal({ kind: "runway", target_amount_minor: null, currency: null, target_days: 90 });
    const longer = await patch(runway, { target_days: 365, target_date: "2028-01-01" });
    expect(longer.body.data).toMatchObject({ target_days: 365, target_date: "2028-01-01" });
  });

  it("kind and the scope are immutable (400, with the other fields' issues); nothing changes", async () => {
    const id = await goal({ name: "Fixed" });
    for (const body of [
      { kind: "revenue" },
      { kind: "save" },
      { business_id: businessId },
      { project_id: projectId },
      { personal: true },
    ]) {
      const field = Object.keys(body)[0]!;
      expectApiError(await patch(id, body), 400, "validation_error", { issue: field, message: /cannot be changed/ });
    }
    const all = await patch(id, { kind: "runway", business_id: businessId, project_id: projectId, personal: false, name: "" });
    expectApiError(all, 400, "validation_error");
    expect(issuePaths(all)).toEqual(["business_id", "kind", "name", "personal", "project_id"]);
    const read = await api.call("GET", `/v1/goals/${id}`);
    expect(read.body.data).toMatchObject({ name: "Fixed", kind: "save", personal: true, business_id: null });
  });

  it("refuses a target of the other family, a past target_date, bad values; all at once", async () => {
    const save = await goal();
    expectApiError(await patch(save, { target_days: 30 }), 400, "validation_error", { issue: "target_days" });
    const runway = await goal({ kind: "runway", target_amount_minor: null, currency: null, target_days: 90 });
    const wrong = await patch(runway, { target_amount_minor: 5, currency: "EUR", target_date: "2027-06-14" });
    expectApiError(wrong, 400, "validation_error");
    expect(issuePaths(wrong)).toEqual(["currency", "target_amount_minor", "target_date"]);
    const bad = await patch(save, { target_amount_minor: 0, currency: "eur", target_date: "someday", status: "done", name: "" });
    expectApiError(bad, 400, "validation_error");
    expect(issuePaths(bad)).toEqual(["currency", "name", "status", "target_amount_minor", "target_date"]);
    expectApiError(await patch(save, { currency: "XYZ" }), 400, "validation_error", { issue: "currency" });
    expect((await api.call("GET", `/v1/goals/${save}`)).body.data).toMatchObject({
      target_amount_minor: 100_000,
      currency: "EUR",
    });
  });

  it("status: active ↔ achieved, active ↔ abandoned; achieved ↔ abandoned 409; never moved by the service", async () => {
    const cases: Array<[from: string, to: string, status: number]> = [
      ["active", "achieved", 200],
      ["active", "abandoned", 200],
      ["achieved", "active", 200],
      ["abandoned", "active", 200],
      ["achieved", "abandoned", 409],
      ["abandoned", "achieved", 409],
      ["active", "active", 200],
      ["achieved", "achieved", 200],
    ];
    for (const [from, to, status] of cases) {
      const id = await goal({ name: `${from} → ${to}` });
      if (from !== "active") expect((await patch(id, { status: from })).status).toBe(200);
      const response = await patch(id, { status: to, name: "moved" });
      if (status === 409) {
        expectApiError(response, 409, "state_conflict", { details: { status: from }, what: `${from} → ${to}` });
        expect((await api.call("GET", `/v1/goals/${id}`)).body.data).toMatchObject({ status: from, name: `${from} → ${to}` });
      } else {
        expect(response.status, `${from} → ${to}: ${response.text}`).toBe(200);
        expect(response.body.data).toMatchObject({ status: to, name: "moved" });
      }
    }
    const id = await goal();
    await patch(id, { status: "achieved" });
    const entries = await auditOf(id);
    expect(entries.at(-1)!.details).toEqual({ fields: ["status"], status: { from: "active", to: "achieved" } });
  });

  it("404 for an unknown goal; 400 for a non-UUID id, or a bad field whatever the goal (validation first)", async () => {
    expectApiError(await patch(UNKNOWN, { name: "x" }), 404, "not_found");
    expectApiError(await patch(UNKNOWN, { target_date: "2027-06-14" }), 400, "validation_error", { issue: "target_date" });
    expectApiError(await patch(UNKNOWN, { kind: "save" }), 400, "validation_error", { issue: "kind" });
    expectApiError(await patch("nope", { name: "x" }), 400, "validation_error", { issue: "id" });
  });
});

describe("DELETE /v1/goals/{id}", () => {
  it("200 { id, deleted: true }; the same key replays; a new key 404; audited goal.deleted", async () => {
    const id = await goal({ name: "Short-lived" });
    const key = randomUUID();
    const first = await api.call("DELETE", `/v1/goals/${id}`, { idempotencyKey: key });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toEqual({ id, deleted: true });
    const replay = await api.call("DELETE", `/v1/goals/${id}`, { idempotencyKey: key });
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual({ id, deleted: true });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expectApiError(await api.call("DELETE", `/v1/goals/${id}`), 404, "not_found");
    expectApiError(await api.call("GET", `/v1/goals/${id}`), 404, "not_found");
    expect(await api.db.goal.count({ where: { id } })).toBe(0);
    const entries = await auditOf(id);
    expect(entries.map((e) => e.action)).toEqual(["goal.created", "goal.deleted"]);
    expect(entries[1]!.details).toMatchObject({ kind: "save", name: "Short-lived", personal: true });
  });

  it("needs an Idempotency-Key; 404 for an unknown goal", async () => {
    const id = await goal();
    expectApiError(await api.call("DELETE", `/v1/goals/${id}`, { idempotencyKey: null }), 400, "missing_idempotency_key");
    expectApiError(await api.call("DELETE", `/v1/goals/${UNKNOWN}`), 404, "not_found");
  });
});

describe("tenant isolation", () => {
  it("another owner's goal is 404 on every path and in no list, and stays unchanged", async () => {
    const id = await goal({ name: "Mine" });
    const dave = await seedOwner(api);
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "Dave was here" }],
      ["PATCH", { status: "abandoned" }],
      ["DELETE", undefined],
    ] as const) {
      expectApiError(await api.call(method, `/v1/goals/${id}`, { token: dave.token, body }), 404, "not_found", { what: method });
    }
    const theirs = await callerFor(ownerActor(dave.ownerId)).goals.all({ limit: 200 });
    expect(theirs.data).toEqual([]);
    expect((await api.call("GET", `/v1/goals/${id}`)).body.data).toMatchObject({ name: "Mine", status: "active" });
  });
});

describe("goals.all (panel only)", () => {
  it("lists every goal of the owner, newest first, with progress, in pages", async () => {
    const erin = await seedOwner(api);
    await api.db.owner.update({ where: { id: erin.ownerId }, data: { baseCurrency: "EUR" } });
    const ids: string[] = [];
    try {
      for (const name of ["first", "second", "third"]) {
        clock.advance(1000);
        const response = await post({ personal: true, kind: "runway", name, target_days: 30 }, { token: erin.token });
        ids.push(response.body.data.id);
      }
    } finally {
      clock.set(NOW);
    }
    const caller = callerFor(ownerActor(erin.ownerId));
    const first = await caller.goals.all({ limit: 2 });
    expect(first.data.map((g) => g.id)).toEqual([ids[2], ids[1]]);
    expect(first.page.has_more).toBe(true);
    const rest = await caller.goals.all({ limit: 2, cursor: first.page.next_cursor });
    expect(rest.data.map((g) => g.id)).toEqual([ids[0]]);
    expect(rest.page).toEqual({ next_cursor: null, has_more: false });
    // Erin has no personal cash: runway unknown.
    expect(first.data[0]!.progress).toEqual({ current_minor: null, current_days: null, ratio: null, as_of: expect.any(String) });
  });

  it("refuses anyone but an owner, validates limit, and is not part of /v1", async () => {
    const anonymous = toAppError(
      await callerFor({ type: "public" })
        .goals.all({ limit: 10 })
        .catch((e: unknown) => e),
    );
    expect(anonymous.code).toBe("unauthenticated");
    const agent = toAppError(
      await callerFor({ type: "agent", ownerId, agentId: randomUUID(), tokenKey: "agent", grants: [] })
        .goals.all({ limit: 10 })
        .catch((e: unknown) => e),
    );
    expect(agent.code).toBe("scope_denied");
    for (const limit of [0, 201, 2.5]) {
      const error = toAppError(
        await callerFor(ownerActor(ownerId))
          .goals.all({ limit })
          .catch((e: unknown) => e),
      );
      expect(error.code, String(limit)).toBe("validation_error");
    }
    expect(
      api.handler.routes.routes.some((route) => route.target.kind === "procedure" && route.target.procedurePath === "goals.all"),
    ).toBe(false);
    const doc = await api.call("GET", "/v1/openapi.json", { token: null });
    expect(doc.text).not.toContain("goals.all");
    expect(
      Object.keys(doc.body.paths)
        .filter((path) => path.includes("goal"))
        .sort(),
    ).toEqual(["/v1/goal-proposals", "/v1/goals", "/v1/goals/{id}"]);
  });
});
