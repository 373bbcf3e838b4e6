// GET /v1/imports (issue 32, pinned-wave3 §1.2): the owner's imports, newest first, with their
// status (previewed, expired, confirmed, reverted) and counts, cursor-paginated like every list,
// filtered by business and status, and never another owner's. The literal path /v1/imports/presets
// still wins over /v1/imports/{id}. On PGlite and on PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayUtc } from "../../lib/days";
import { callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, seedEvent, seedOwner, type TSeedOwner } from "../../test/helpers/seed";

let api: TTestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => api?.close());

const daysAgo = (days: number) => addDays(todayUtc(), -days);

async function upload(owner: TSeedOwner, businessId: string, csv: string, name: string): Promise<string> {
  const response = await callMultipart(
    api.handler,
    "/v1/imports",
    { fields: { business_id: businessId }, file: { bytes: csv, name } },
    { token: owner.token },
  );
  expect(response.status, response.text).toBe(200);
  return response.body.data.import_id;
}

const list = (owner: TSeedOwner, query = "") => api.call("GET", `/v1/imports${query}`, { token: owner.token });

describe("GET /v1/imports", () => {
  it("lists the owner's imports newest first with their status and counts, and pages through them", async () => {
    const owner = await seedOwner(api);
    const businessId = (await seedBusiness(api, { name: "Books", currency: "EUR" }, owner.token)).id;
    const other = (await seedBusiness(api, { name: "Other books", currency: "EUR" }, owner.token)).id;
    const tag = randomUUID().slice(0, 8);
    await seedEvent(
      api,
      "expense",
      { business_id: businessId, amount_minor: 4_200, currency: "EUR", occurred_on: daysAgo(9) },
      owner.token,
    );
    const file = [
      "Date,Amount,Currency,Description",
      `${daysAgo(8)},-42.00,EUR,Hand ${tag}`, // matches the entry
      `${daysAgo(7)},-5.00,EUR,Coffee ${tag}`,
      `${daysAgo(6)},120.00,EUR,Sale ${tag}`,
      `31.02.2026,-1.00,EUR,Bad ${tag}`,
    ].join("\n");

    const confirmed = await upload(owner, businessId, file, "september.csv");
    const answer = await api.call("POST", `/v1/imports/${confirmed}/confirm`, { token: owner.token, body: {} });
    expect(answer.status, answer.text).toBe(201);
    const reverted = await upload(owner, businessId, file.replaceAll(tag, `${tag}r`), "wrong.csv");
    await api.call("POST", `/v1/imports/${reverted}/confirm`, { token: owner.token, body: {} });
    expect((await api.call("POST", `/v1/imports/${reverted}/revert`, { token: owner.token, body: {} })).status).toBe(200);
    const expired = await upload(owner, other, file.replaceAll(tag, `${tag}e`), "old.csv");
    await api.db.import.update({ where: { id: expired }, data: { expiresAt: new Date(Date.now() - 1000) } });
    // The same rows again: already imported by the first.
    const previewed = await upload(owner, businessId, file, "again.csv");

    const all = await list(owner);
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.map((i: { id: string }) => i.id)).toEqual([previewed, expired, reverted, confirmed]);
    const byId = Object.fromEntries(all.body.data.map((i: { id: string }) => [i.id, i]));
    expect(byId[confirmed]).toMatchObject({
      business_id: businessId,
      file_name: "september.csv",
      format: "generic",
      status: "confirmed",
      total_rows: 4,
      inserted: 3,
      deduped: 0,
      reconciled: 1,
      rejected: 1,
      reverted_at: null,
    });
    expect(byId[confirmed].confirmed_at).not.toBeNull();
    // Its hand entry was taken by the first import: nothing reconciled.
    expect(byId[reverted]).toMatchObject({ status: "reverted", inserted: 3, reconciled: 0, rejected: 1 });
    expect(byId[reverted].reverted_at).not.toBeNull();
    expect(byId[expired]).toMatchObject({ status: "expired", business_id: other, confirmed_at: null, inserted: 3 });
    expect(byId[previewed]).toMatchObject({ status: "previewed", inserted: 0, deduped: 3, reconciled: 0, rejected: 1 });

    // An import confirmed before the count was kept: counted from its preview rows.
    await api.db.$executeRaw`UPDATE imports SET result = result - 'reconciled' WHERE id = ${confirmed}::uuid`;
    expect((await list(owner, "?status=confirmed")).body.data[0]).toMatchObject({ id: confirmed, reconciled: 1 });

    // Pages of two, by cursor.
    const first = await list(owner, "?limit=2");
    expect(first.body.data.map((i: { id: string }) => i.id)).toEqual([previewed, expired]);
    expect(first.body.page.has_more).toBe(true);
    const second = await list(owner, `?limit=2&cursor=${first.body.page.next_cursor}`);
    expect(second.body.data.map((i: { id: string }) => i.id)).toEqual([reverted, confirmed]);
    expect(second.body.page).toEqual({ next_cursor: null, has_more: false });

    // Filters.
    expect((await list(owner, `?business_id=${other}`)).body.data.map((i: { id: string }) => i.id)).toEqual([expired]);
    expect((await list(owner, "?status=reverted")).body.data.map((i: { id: string }) => i.id)).toEqual([reverted]);
    expect((await list(owner, "?status=previewed")).body.data.map((i: { id: string }) => i.id)).toEqual([previewed]);
    expect((await list(owner, "?status=expired")).body.data.map((i: { id: string }) => i.id)).toEqual([expired]);
    expectApiError(await list(owner, "?status=deleted"), 400, "validation_error");
    expectApiError(await list(owner, "?cursor=nonsense"), 400, "validation_error");
  });

  it("never lists another owner's imports; the literal /v1/imports/presets still wins over {id}", async () => {
    const owner = await seedOwner(api);
    const stranger = await seedOwner(api);
    const businessId = (await seedBusiness(api, { name: "Mine", currency: "EUR" }, owner.token)).id;
    const mine = await upload(
      owner,
      businessId,
      `Date,Amount,Currency,Description\n${daysAgo(2)},-3.00,EUR,X ${randomUUID()}`,
      "a.csv",
    );
    expect((await list(owner)).body.data.map((i: { id: string }) => i.id)).toEqual([mine]);
    const theirs = await list(stranger);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
    expect(theirs.body.page).toEqual({ next_cursor: null, has_more: false });
    expect((await list(stranger, `?business_id=${businessId}`)).body.data).toEqual([]);
    const presets = await api.call("GET", "/v1/imports/presets", { token: owner.token });
    expect(presets.status).toBe(200);
    expect(presets.body.data.map((p: { id: string }) => p.id)).toContain("generic");
  });
});
