// Category rules over /v1 (issue 14): CRUD with tenant isolation and pattern validation, the dry
// run's counts, the explicit apply, and the rules at work at ingest (a signed generic webhook)
// and at import preview (with the owner's per-row edits honoured at confirm). PGlite and PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayUtc } from "../../lib/days";
import { callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import {
  businessGrant,
  seedAgent,
  seedBusiness,
  seedOwner,
  seedProject,
  staticOwner,
  type TSeedOwner,
} from "../../test/helpers/seed";
import { serviceHeaders } from "../../test/helpers/webhook-signing";
import { deliveryEvent, postDelivery } from "../../test/helpers/webhooks";

let api: TTestApi;
let owner: TSeedOwner;
let other: TSeedOwner;
let businessId: string;
let projectId: string;
let otherBusinessId: string;
let theirProjectId: string;

beforeAll(async () => {
  api = await createTestApi();
  owner = await staticOwner(api);
  businessId = (await seedBusiness(api, { name: "Rules Co" })).id;
  projectId = (await seedProject(api, businessId, { name: "Travel desk" })).id;
  otherBusinessId = (await seedBusiness(api, { name: "Rules Other Co" })).id;
  other = await seedOwner(api);
  const theirs = await seedBusiness(api, { name: "Theirs" }, other.token);
  theirProjectId = (await seedProject(api, theirs.id, { name: "Hidden" }, other.token)).id;
});
afterAll(async () => api?.close());

const TODAY = todayUtc();

async function createRule(body: Record<string, unknown>, token?: string) {
  const response = await api.call("POST", "/v1/category-rules", { body, token });
  expect(response.status, response.text).toBe(201);
  return response.body.data as { id: string; priority: number };
}

async function expense(description: string, fields: Record<string, unknown> = {}) {
  const response = await api.call("POST", "/v1/expenses", {
    body: {
      business_id: businessId,
      amount_minor: 1500,
      currency: "EUR",
      occurred_on: addDays(TODAY, -3),
      description,
      ...fields,
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.data as { id: string };
}

describe("rules: create, list, update, delete", () => {
  it("creates rules in order, lists them by priority, updates and deletes one, each audited", async () => {
    const tag = randomUUID().slice(0, 6);
    const first = await api.call("POST", "/v1/category-rules", {
      body: { field: "description", operator: "contains", pattern: `Coffee ${tag}`, category: "meals", priority: 10 },
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data).toEqual({
      id: expect.any(String),
      field: "description",
      operator: "contains",
      pattern: `Coffee ${tag}`,
      category: "meals",
      project_id: null,
      priority: expect.any(Number),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const second = await createRule({
      field: "counterparty",
      operator: "equals",
      pattern: `Air ${tag}`,
      category: "travel",
      project_id: projectId,
    });
    expect(second.priority).toBeGreaterThan(first.body.data.priority);
    const early = await createRule({
      field: "description",
      operator: "regex",
      pattern: `^tea ${tag}`,
      category: "meals",
      priority: 0,
    });

    const list = (await api.call("GET", "/v1/category-rules")).body.data as Array<{ id: string }>;
    const ids = list.map((rule) => rule.id);
    expect(ids.indexOf(early.id)).toBeLessThan(ids.indexOf(first.body.data.id));
    expect(ids.indexOf(first.body.data.id)).toBeLessThan(ids.indexOf(second.id));

    const patched = await api.call("PATCH", `/v1/category-rules/${second.id}`, {
      body: { category: "flights", project_id: null },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ category: "flights", project_id: null, pattern: `Air ${tag}` });

    const deleted = await api.call("DELETE", `/v1/category-rules/${second.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.data).toEqual({ id: second.id, deleted: true });
    expectApiError(await api.call("DELETE", `/v1/category-rules/${second.id}`), 404, "not_found");
    const actions = await api.db.auditEntry.findMany({ where: { targetId: second.id }, orderBy: { createdAt: "asc" } });
    expect(actions.map((a) => a.action)).toEqual(["category_rule.created", "category_rule.updated", "category_rule.deleted"]);
    for (const id of [first.body.data.id, early.id]) await api.call("DELETE", `/v1/category-rules/${id}`);
  });

  it("keeps owners apart: another owner's rule and project are 404, and their rules are not listed", async () => {
    const theirs = await createRule(
      { field: "description", operator: "contains", pattern: "secret", category: "x" },
      other.token,
    );
    expectApiError(await api.call("PATCH", `/v1/category-rules/${theirs.id}`, { body: { category: "mine" } }), 404, "not_found");
    expectApiError(await api.call("DELETE", `/v1/category-rules/${theirs.id}`), 404, "not_found");
    const list = (await api.call("GET", "/v1/category-rules")).body.data as Array<{ id: string }>;
    expect(list.map((rule) => rule.id)).not.toContain(theirs.id);
    const withTheirProject = {
      field: "description",
      operator: "contains",
      pattern: "x",
      category: "x",
      project_id: theirProjectId,
    };
    expectApiError(await api.call("POST", "/v1/category-rules", { body: withTheirProject }), 404, "not_found");
    expectApiError(await api.call("POST", "/v1/category-rules/dry-run", { body: withTheirProject }), 404, "not_found");
    const mine = await createRule({ field: "description", operator: "contains", pattern: "x", category: "x" });
    expectApiError(
      await api.call("PATCH", `/v1/category-rules/${mine.id}`, { body: { project_id: theirProjectId } }),
      404,
      "not_found",
    );
    await api.call("DELETE", `/v1/category-rules/${mine.id}`);
    expect((await api.db.categoryRule.findUniqueOrThrow({ where: { id: theirs.id } })).category).toBe("x");
  });

  it("is the owner's alone: an agent gets 403 scope_denied, audited", async () => {
    const agent = await seedAgent(api, { grants: [businessGrant(businessId)] });
    const body = { field: "description", operator: "contains", pattern: "x", category: "x" };
    expectApiError(await api.call("GET", "/v1/category-rules", { token: agent.token }), 403, "scope_denied");
    expectApiError(await api.call("POST", "/v1/category-rules", { token: agent.token, body }), 403, "scope_denied");
    expectApiError(await api.call("POST", "/v1/category-rules/dry-run", { token: agent.token, body }), 403, "scope_denied");
    expect(await api.db.auditEntry.count({ where: { actorId: agent.id, action: "access.denied" } })).toBeGreaterThanOrEqual(3);
  });

  it.each([
    [{ operator: "regex", pattern: "(a)\\1" }, "pattern"],
    [{ operator: "regex", pattern: "(?=lookahead)" }, "pattern"],
    [{ operator: "regex", pattern: "[unclosed" }, "pattern"],
    [{ operator: "regex", pattern: ".{1,1000}.{1,1000}" }, "pattern"],
    [{ operator: "contains", pattern: "x".repeat(201) }, "pattern"],
    [{ operator: "contains", pattern: "   " }, "pattern"],
    [{ operator: "like", pattern: "x" }, "operator"],
    [{ operator: "contains", pattern: "x", field: "amount" }, "field"],
    [{ operator: "contains", pattern: "x", category: "" }, "category"],
  ])("refuses %j with 400 naming %s, writing nothing", async (fields, issue) => {
    const before = await api.db.categoryRule.count();
    const body = { field: "description", category: "c", ...fields };
    expectApiError(await api.call("POST", "/v1/category-rules", { body }), 400, "validation_error", { issue });
    expectApiError(await api.call("POST", "/v1/category-rules/dry-run", { body }), 400, "validation_error", { issue });
    expect(await api.db.categoryRule.count()).toBe(before);
  });

  it("checks a PATCH's pattern against the operator the rule will have", async () => {
    const rule = await createRule({ field: "description", operator: "contains", pattern: "(a)\\1", category: "c" });
    expectApiError(
      await api.call("PATCH", `/v1/category-rules/${rule.id}`, { body: { operator: "regex" } }),
      400,
      "validation_error",
      {
        issue: "pattern",
      },
    );
    expect((await api.db.categoryRule.findUniqueOrThrow({ where: { id: rule.id } })).operator).toBe("contains");
    await api.call("DELETE", `/v1/category-rules/${rule.id}`);
  });

  it("accepts a pattern that hangs a backtracking engine and matches it in linear time", async () => {
    const body = { field: "description", operator: "regex", pattern: "^(a+)+$", category: "c" };
    await expense(`${"a".repeat(40)}!`);
    const started = Date.now();
    const dry = await api.call("POST", "/v1/category-rules/dry-run", { body });
    expect(dry.status, dry.text).toBe(200);
    // A backtracking engine takes hours on 40 a's and a '!'; RE2 answers at once (generous bound).
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe("POST /v1/category-rules/dry-run and /apply", () => {
  it("counts matching events and those it would change (no category yet), with examples; apply fills them, audited", async () => {
    const tag = randomUUID().slice(0, 8);
    const ride = await expense(`Uber ride ${tag}`);
    const eats = await expense(`UBER EATS ${tag}`);
    await expense(`uber ${tag} to the airport`, { category: "travel" });
    await expense(`Lyft ${tag}`);

    const dry = await api.call("POST", "/v1/category-rules/dry-run", {
      body: { field: "description", operator: "contains", pattern: `uber`, category: "transport" },
    });
    expect(dry.status, dry.text).toBe(200);
    const uber = await api.call("POST", "/v1/category-rules/dry-run", {
      body: { field: "description", operator: "regex", pattern: `^uber.*${tag}$`, category: "transport" },
    });
    expect(uber.body.data).toMatchObject({ matched: 2, would_change: 2, truncated: false });
    expect(uber.body.data.examples.map((e: { event_id: string }) => e.event_id).sort()).toEqual([ride.id, eats.id].sort());
    expect(uber.body.data.examples[0]).toMatchObject({ category_before: null, category_after: "transport" });
    const anyCase = await api.call("POST", "/v1/category-rules/dry-run", {
      body: { field: "description", operator: "contains", pattern: `UBER ${tag}`, category: "transport" },
    });
    expect(anyCase.body.data).toMatchObject({ matched: 1, would_change: 0 });
    const equals = await api.call("POST", "/v1/category-rules/dry-run", {
      body: { field: "description", operator: "equals", pattern: `  lyft ${tag} `, category: "transport" },
    });
    expect(equals.body.data).toMatchObject({ matched: 1, would_change: 1 });
    // The dry run wrote nothing.
    expect((await api.db.financialEvent.findUniqueOrThrow({ where: { id: ride.id } })).category).toBeNull();

    const rule = await createRule({
      field: "description",
      operator: "regex",
      pattern: `^uber.*${tag}$`,
      category: "transport",
      project_id: projectId,
    });
    const applied = await api.call("POST", "/v1/category-rules/apply", { body: {} });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.data.updated).toBeGreaterThanOrEqual(2);
    for (const id of [ride.id, eats.id]) {
      expect(await api.db.financialEvent.findUniqueOrThrow({ where: { id } })).toMatchObject({
        category: "transport",
        projectId,
        amountMinor: 1500n,
      });
    }
    const audit = await api.db.auditEntry.findFirst({ where: { ownerId: owner.ownerId, action: "category_rules.applied" } });
    expect(audit?.details).toMatchObject({ updated: applied.body.data.updated });
    await api.call("DELETE", `/v1/category-rules/${rule.id}`);
  });
});

describe("rules at ingest", () => {
  it("gives an ingested event without a category the first matching rule's; one with a category keeps it", async () => {
    const tag = randomUUID().slice(0, 8);
    const connected = await api.call("POST", "/v1/integrations/generic/connect", { body: { business_id: businessId } });
    expect(connected.status, connected.text).toBe(201);
    const { integration_id: integrationId, secret } = connected.body.data;
    const low = await createRule({
      field: "counterparty",
      operator: "equals",
      pattern: `ACME ${tag}`,
      category: "suppliers",
      priority: 5,
    });
    const high = await createRule({
      field: "description",
      operator: "contains",
      pattern: `hosting ${tag}`,
      category: "infrastructure",
      project_id: projectId,
      priority: 0,
    });
    const raw = JSON.stringify({
      events: [
        deliveryEvent(`a-${tag}`, { description: `Hosting ${tag} November`, payload: { counterparty: `acme ${tag}` } }),
        deliveryEvent(`b-${tag}`, { description: "Something else", payload: { counterparty: `Acme ${tag}` } }),
        deliveryEvent(`c-${tag}`, { description: `hosting ${tag}`, category: "kept" }),
        deliveryEvent(`d-${tag}`, { description: "No rule matches" }),
      ],
    });
    const delivered = await postDelivery(api, `/v1/webhooks/generic/${integrationId}`, raw, serviceHeaders(secret, raw));
    expect(delivered.status, delivered.text).toBe(200);
    const events = await api.db.financialEvent.findMany({ where: { integrationId }, orderBy: { externalId: "asc" } });
    expect(events.map((e) => [e.externalId, e.category, e.projectId])).toEqual([
      [`a-${tag}`, "infrastructure", projectId],
      [`b-${tag}`, "suppliers", null],
      [`c-${tag}`, "kept", null],
      [`d-${tag}`, null, null],
    ]);
    for (const id of [low.id, high.id]) await api.call("DELETE", `/v1/category-rules/${id}`);
  });

  it("sets a rule's project only on events of that project's business", async () => {
    const tag = randomUUID().slice(0, 8);
    const connected = await api.call("POST", "/v1/integrations/generic/connect", { body: { business_id: otherBusinessId } });
    const { integration_id: integrationId, secret } = connected.body.data;
    const rule = await createRule({
      field: "description",
      operator: "contains",
      pattern: tag,
      category: "ops",
      project_id: projectId,
    });
    const raw = JSON.stringify({ events: [deliveryEvent(`x-${tag}`, { description: `Ops ${tag}` })] });
    expect((await postDelivery(api, `/v1/webhooks/generic/${integrationId}`, raw, serviceHeaders(secret, raw))).status).toBe(200);
    const event = await api.db.financialEvent.findFirstOrThrow({ where: { integrationId } });
    expect(event).toMatchObject({ category: "ops", projectId: null, businessId: otherBusinessId });
    await api.call("DELETE", `/v1/category-rules/${rule.id}`);
  });
});

describe("rules at import preview", () => {
  it("shows the rule's category and project in the preview; confirm writes them, or the owner's edits", async () => {
    const tag = randomUUID().slice(0, 8);
    const rule = await createRule({
      field: "description",
      operator: "contains",
      pattern: `train ${tag}`,
      category: "travel",
      project_id: projectId,
    });
    const file = [
      "Date,Amount,Currency,Description",
      `${addDays(TODAY, -5)},-40.00,EUR,Train ${tag} Berlin`,
      `${addDays(TODAY, -4)},-42.00,EUR,TRAIN ${tag} Hamburg`,
      `${addDays(TODAY, -3)},-9.00,EUR,Kiosk ${tag}`,
    ].join("\n");
    const uploaded = await callMultipart(api.handler, "/v1/imports", {
      fields: { business_id: businessId },
      file: { bytes: new TextEncoder().encode(file), name: "statement.csv" },
    });
    expect(uploaded.status, uploaded.text).toBe(200);
    const rows = uploaded.body.data.preview.rows as Array<{ external_id: string; category?: string; project_id?: string }>;
    expect(rows.map((row) => [row.category ?? null, row.project_id ?? null])).toEqual([
      ["travel", projectId],
      ["travel", projectId],
      [null, null],
    ]);
    // The same in the stored preview (GET).
    const read = await api.call("GET", `/v1/imports/${uploaded.body.data.import_id}`);
    expect(read.body.data.rows[0]).toMatchObject({ category: "travel", project_id: projectId });

    const confirmed = await api.call("POST", `/v1/imports/${uploaded.body.data.import_id}/confirm`, {
      body: {
        categories: [
          { external_id: rows[1]!.external_id, category: "commute", project_id: null },
          { external_id: rows[2]!.external_id, category: "snacks" },
        ],
      },
    });
    expect(confirmed.status, confirmed.text).toBe(201);
    const events = await api.db.financialEvent.findMany({
      where: { ownerId: owner.ownerId, externalId: { in: rows.map((row) => row.external_id) } },
    });
    const byId = new Map(events.map((e) => [e.externalId, [e.category, e.projectId]]));
    expect(rows.map((row) => byId.get(row.external_id))).toEqual([
      ["travel", projectId],
      ["commute", null],
      ["snacks", null],
    ]);
    await api.call("DELETE", `/v1/category-rules/${rule.id}`);
  });

  it("refuses a per-row project outside the import's business (404), writing nothing", async () => {
    const tag = randomUUID().slice(0, 8);
    const file = ["Date,Amount,Currency,Description", `${addDays(TODAY, -5)},-40.00,EUR,Row ${tag}`].join("\n");
    const uploaded = await callMultipart(api.handler, "/v1/imports", {
      fields: { business_id: businessId },
      file: { bytes: new TextEncoder().encode(file), name: "statement.csv" },
    });
    const externalId = uploaded.body.data.preview.rows[0].external_id;
    const response = await api.call("POST", `/v1/imports/${uploaded.body.data.import_id}/confirm`, {
      body: { categories: [{ external_id: externalId, category: "x", project_id: theirProjectId }] },
    });
    expectApiError(response, 404, "not_found");
    expect(await api.db.financialEvent.count({ where: { externalId } })).toBe(0);
  });
});
