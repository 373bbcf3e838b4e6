// Businesses and projects (issue 14): names unique per owner (businesses) and per business
// (projects), compared without case, answered 409 state_conflict naming the field; archive and
// restore through PATCH status, the status filter of the lists, history kept. PGlite and PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, seedOwner, seedProject } from "../../test/helpers/seed";

let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => api?.close());

const unique = (base: string) => `${base} ${randomUUID().slice(0, 8)}`;

describe("unique names", () => {
  it("refuses a business named like another of the owner's, in any case, with 409 naming name; writes nothing", async () => {
    const name = unique("Northwind");
    await seedBusiness(api, { name });
    const before = await api.db.business.count();
    const again = await api.call("POST", "/v1/businesses", { body: { name: name.toUpperCase(), currency: "USD" } });
    expectApiError(again, 409, "state_conflict", { details: { reason: "name_taken" } });
    expect(again.body.error.details.issues[0].path).toBe("name");
    expect(await api.db.business.count()).toBe(before);
    // Another owner may use it.
    const bob = await seedOwner(api);
    expect((await api.call("POST", "/v1/businesses", { token: bob.token, body: { name, currency: "USD" } })).status).toBe(201);
  });

  it("refuses a rename onto another business's name (409) and allows a change of case of its own", async () => {
    const taken = await seedBusiness(api, { name: unique("Harbor") });
    const mine = await seedBusiness(api, { name: unique("Lantern") });
    const clash = await api.call("PATCH", `/v1/businesses/${mine.id}`, { body: { name: ` ${taken.name.toLowerCase()} ` } });
    expectApiError(clash, 409, "state_conflict");
    expect((await api.db.business.findUniqueOrThrow({ where: { id: mine.id } })).name).toBe(mine.name);
    const recased = await api.call("PATCH", `/v1/businesses/${mine.id}`, { body: { name: mine.name.toUpperCase() } });
    expect(recased.status, recased.text).toBe(200);
    expect(recased.body.data.name).toBe(mine.name.toUpperCase());
    const audit = await api.db.auditEntry.findFirst({ where: { targetId: mine.id, action: "business.updated" } });
    expect(audit?.details).toMatchObject({ fields: ["name"] });
  });

  it("keeps project names unique within a business, not across businesses", async () => {
    const a = await seedBusiness(api, { name: unique("Projects A") });
    const b = await seedBusiness(api, { name: unique("Projects B") });
    const web = await seedProject(api, a.id, { name: "Website" });
    expectApiError(
      await api.call("POST", `/v1/businesses/${a.id}/projects`, { body: { name: "WEBSITE" } }),
      409,
      "state_conflict",
    );
    expect((await api.call("POST", `/v1/businesses/${b.id}/projects`, { body: { name: "Website" } })).status).toBe(201);
    const shop = await seedProject(api, a.id, { name: "Shop" });
    expectApiError(await api.call("PATCH", `/v1/projects/${shop.id}`, { body: { name: "website" } }), 409, "state_conflict");
    expect((await api.call("GET", `/v1/projects/${web.id}`)).body.data.name).toBe("Website");
  });

  it("enforces the rule in the database itself: a direct insert of a duplicate name fails", async () => {
    const business = await seedBusiness(api, { name: unique("Direct") });
    const { ownerId } = await api.db.business.findUniqueOrThrow({ where: { id: business.id } });
    await expect(
      api.db.business.create({ data: { ownerId, name: business.name.toLowerCase(), currency: "EUR" } }),
    ).rejects.toMatchObject({ code: "P2002" });
  });
});

describe("archive", () => {
  it("archives and restores a business: status, archived_at, the status filter, history kept, audited", async () => {
    const business = await seedBusiness(api, { name: unique("Old shop") });
    const expense = await api.call("POST", "/v1/expenses", {
      body: { business_id: business.id, amount_minor: 900, currency: "EUR", occurred_on: "2026-11-02" },
    });
    expect(expense.status, expense.text).toBe(201);
    const archived = await api.call("PATCH", `/v1/businesses/${business.id}`, { body: { status: "archived" } });
    expect(archived.status, archived.text).toBe(200);
    expect(archived.body.data).toMatchObject({ status: "archived", archived_at: expect.any(String) });
    // Archiving again keeps the first day.
    const twice = await api.call("PATCH", `/v1/businesses/${business.id}`, { body: { status: "archived" } });
    expect(twice.body.data.archived_at).toBe(archived.body.data.archived_at);

    const ids = async (query: string) =>
      ((await api.call("GET", `/v1/businesses?limit=200${query}`)).body.data as Array<{ id: string }>).map((b) => b.id);
    expect(await ids("&status=active")).not.toContain(business.id);
    expect(await ids("&status=archived")).toContain(business.id);
    expect(await ids("")).toContain(business.id);
    expectApiError(await api.call("GET", "/v1/businesses?status=gone"), 400, "validation_error", { issue: "status" });
    // Its history is kept.
    expect((await api.call("GET", `/v1/events/${expense.body.data.id}`)).status).toBe(200);
    // The name stays taken while archived.
    expectApiError(
      await api.call("POST", "/v1/businesses", { body: { name: business.name, currency: "EUR" } }),
      409,
      "state_conflict",
    );

    const restored = await api.call("PATCH", `/v1/businesses/${business.id}`, { body: { status: "active" } });
    expect(restored.body.data).toMatchObject({ status: "active", archived_at: null });
    const audit = await api.db.auditEntry.findMany({ where: { targetId: business.id, action: "business.updated" } });
    expect(audit.map((a) => (a.details as { status?: string }).status)).toEqual(expect.arrayContaining(["archived", "active"]));
  });

  it("archives a project; the business's list filters by status; another owner's stays 404", async () => {
    const business = await seedBusiness(api, { name: unique("With projects") });
    const project = await seedProject(api, business.id, { name: "Legacy" });
    const live = await seedProject(api, business.id, { name: "Live" });
    const archived = await api.call("PATCH", `/v1/projects/${project.id}`, { body: { status: "archived" } });
    expect(archived.body.data).toMatchObject({ status: "archived", archived_at: expect.any(String) });
    const active = await api.call("GET", `/v1/businesses/${business.id}/projects?status=active`);
    expect(active.body.data.map((p: { id: string }) => p.id)).toEqual([live.id]);
    const all = await api.call("GET", `/v1/businesses/${business.id}/projects`);
    expect(all.body.data.map((p: { id: string }) => p.id).sort()).toEqual([live.id, project.id].sort());

    const bob = await seedOwner(api);
    const theirs = await seedBusiness(api, { name: "Bob's" }, bob.token);
    const theirProject = await seedProject(api, theirs.id, {}, bob.token);
    expectApiError(await api.call("PATCH", `/v1/businesses/${theirs.id}`, { body: { status: "archived" } }), 404, "not_found");
    expectApiError(
      await api.call("PATCH", `/v1/projects/${theirProject.id}`, { body: { status: "archived" } }),
      404,
      "not_found",
    );
    expect((await api.db.business.findUniqueOrThrow({ where: { id: theirs.id } })).archivedAt).toBeNull();
  });
});

describe("GET /v1/openapi.json", () => {
  it("documents issue 14's additions of this slice", async () => {
    const doc = (await api.call("GET", "/v1/openapi.json", { token: null })).body;
    const params = (path: string, method: string) =>
      (doc.paths[path][method].parameters ?? []).map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(params("/v1/businesses", "get")).toContain("query:status");
    expect(params("/v1/businesses/{id}/projects", "get")).toContain("query:status");
    for (const [path, method] of [
      ["/v1/category-rules", "get"],
      ["/v1/category-rules", "post"],
      ["/v1/category-rules/{id}", "patch"],
      ["/v1/category-rules/{id}", "delete"],
      ["/v1/category-rules/dry-run", "post"],
      ["/v1/category-rules/apply", "post"],
      ["/v1/integrations/{id}/disconnect", "post"],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    // The operation's request body (inline or through a named schema) names the new fields.
    const resolved = (value: unknown): string =>
      JSON.stringify(value, (_key, inner: unknown) => {
        const ref = (inner as { $ref?: unknown } | null)?.$ref;
        return typeof ref === "string" ? doc.components.schemas[ref.split("/").pop()!] : inner;
      });
    expect(resolved(doc.paths["/v1/businesses/{id}"].patch.requestBody)).toContain('"status"');
    expect(resolved(doc.paths["/v1/projects/{id}"].patch.requestBody)).toContain('"status"');
    expect(resolved(doc.paths["/v1/imports/{id}/confirm"].post.requestBody)).toContain('"categories"');
    expect(resolved(doc.paths["/v1/businesses/{id}"].get.responses)).toContain('"archived_at"');
  });
});
