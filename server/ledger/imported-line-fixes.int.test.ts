// Issue 32 (pinned-wave3 §1.2): an imported bank line is voided and corrected like a hand entry
// (POST /v1/events/{id}/void and /correct answered 409 for them). A line's correction is the
// owner's entry, marked as that line, so no later bank line is matched to it as a hand entry; a
// reconciled line does not count and cannot be corrected; voiding it frees the entry it matched.
// On PGlite and on PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayUtc } from "../../lib/days";
import { callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, seedEvent, seedOwner, type TSeedOwner } from "../../test/helpers/seed";
import { reconcileImports } from "../reconciliation/reconciliation-service";

let api: TTestApi;
let owner: TSeedOwner;
let businessId: string;
beforeAll(async () => {
  api = await createTestApi();
  owner = await seedOwner(api);
  await api.db.owner.update({ where: { id: owner.ownerId }, data: { baseCurrency: "EUR" } });
  businessId = (await seedBusiness(api, { name: "Lines", currency: "EUR" }, owner.token)).id;
});
afterAll(async () => api?.close());

const daysAgo = (days: number) => addDays(todayUtc(), -days);
const PERIOD = `from=${daysAgo(60)}&to=${todayUtc()}&business_id=`;

async function preview(csv: string, token = owner.token, business = businessId) {
  const response = await callMultipart(
    api.handler,
    "/v1/imports",
    { fields: { business_id: business }, file: { bytes: csv } },
    { token },
  );
  expect(response.status, response.text).toBe(200);
  return response.body.data as { import_id: string; preview: { rows: Array<Record<string, any>> } };
}

/** A confirmed statement of these rows ([days ago, signed amount]); answers its lines by row. */
async function importLines(rows: Array<[number, string]>) {
  const tag = randomUUID().slice(0, 8);
  const csv = ["Date,Amount,Currency,Description", ...rows.map(([d, a], i) => `${daysAgo(d)},${a},EUR,Row ${i} ${tag}`)].join(
    "\n",
  );
  const { import_id } = await preview(csv);
  const confirmed = await api.call("POST", `/v1/imports/${import_id}/confirm`, { token: owner.token, body: {} });
  expect(confirmed.status, confirmed.text).toBe(201);
  const lines = await api.db.financialEvent.findMany({ where: { payload: { path: ["batch_id"], equals: import_id } } });
  return { importId: import_id, line: (row: number) => lines.find((l) => (l.payload as Record<string, unknown>).row === row)! };
}

const outMinor = async () =>
  (await api.call("GET", `/v1/events/totals?${PERIOD}${businessId}`, { token: owner.token })).body.data.out_minor as number;

describe("fixing an imported bank line", () => {
  it("voids it: listed as voided, counted nowhere, audited", async () => {
    const { line } = await importLines([[10, "-30.00"]]);
    const before = await outMinor();
    const voided = await api.call("POST", `/v1/events/${line(1).id}/void`, { token: owner.token, body: { reason: "duplicate" } });
    expect(voided.status, voided.text).toBe(200);
    expect(voided.body.data).toMatchObject({ id: line(1).id, status: "voided", source_type: "IMPORT" });
    expect(await outMinor()).toBe(before - 3_000);
    const audit = await api.db.auditEntry.findFirstOrThrow({ where: { action: "event.voided", targetId: line(1).id } });
    expect(audit.details).toMatchObject({ reason: "duplicate", amount_minor: 3_000 });
  });

  it("corrects it: the line voided, the owner's version written and marked as that line; totals follow", async () => {
    const { importId, line } = await importLines([[12, "-40.00"]]);
    const before = await outMinor();
    const corrected = await api.call("POST", `/v1/events/${line(1).id}/correct`, {
      token: owner.token,
      body: { amount_minor: 4_500, category: "Travel" },
    });
    expect(corrected.status, corrected.text).toBe(201);
    expect(corrected.body.data).toMatchObject({ source_type: "MANUAL", amount_minor: 4_500, category: "Travel" });
    const stored = await api.db.financialEvent.findUniqueOrThrow({ where: { id: corrected.body.data.id } });
    expect(stored).toMatchObject({ supersedesEventId: line(1).id });
    expect(stored.payload).toMatchObject({ corrected_import_line: { import_id: importId, event_id: line(1).id } });
    expect((await api.db.financialEvent.findUniqueOrThrow({ where: { id: line(1).id } })).status).toBe("voided");
    expect(await outMinor()).toBe(before + 500);

    // A correction of the correction still stands for the line.
    const again = await api.call("POST", `/v1/events/${corrected.body.data.id}/correct`, {
      token: owner.token,
      body: { description: "Train" },
    });
    expect(again.status, again.text).toBe(201);
    const twice = await api.db.financialEvent.findUniqueOrThrow({ where: { id: again.body.data.id } });
    expect(twice.payload).toMatchObject({ corrected_import_line: { import_id: importId, event_id: line(1).id } });
  });

  it("a corrected line is no hand entry: a later bank line of the same money is not matched to it", async () => {
    const { line } = await importLines([[20, "-77.00"]]);
    const corrected = await api.call("POST", `/v1/events/${line(1).id}/correct`, {
      token: owner.token,
      body: { category: "Supplies" },
    });
    expect(corrected.status, corrected.text).toBe(201);
    // Another statement (another layout, so other external ids) with a payment of the same amount a day later.
    const later = await preview(`Date,Amount,Currency,Description\n${daysAgo(19)},-77.00,EUR,Other ${randomUUID()}`);
    expect(later.preview.rows[0]).toMatchObject({ status: "new" });
    expect(later.preview.rows[0]).not.toHaveProperty("matched_event_id");
    await api.call("POST", `/v1/imports/${later.import_id}/confirm`, { token: owner.token, body: {} });
    await reconcileImports(api.db, { ownerId: owner.ownerId });
    const lines = await api.db.financialEvent.findMany({ where: { payload: { path: ["batch_id"], equals: later.import_id } } });
    expect(lines.map((l) => l.reconciled)).toEqual([false]);
  });

  it("a reconciled line cannot be corrected (409); voiding it frees the entry it matched", async () => {
    const entry = await seedEvent(
      api,
      "expense",
      { business_id: businessId, amount_minor: 6_543, currency: "EUR", occurred_on: daysAgo(30) },
      owner.token,
    );
    const { line } = await importLines([[29, "-65.43"]]);
    expect(line(1)).toMatchObject({ reconciled: true });
    expectApiError(
      await api.call("POST", `/v1/events/${line(1).id}/correct`, { token: owner.token, body: { amount_minor: 1 } }),
      409,
      "state_conflict",
      { details: { reconciled: true, reconciles_event_id: entry.id } },
    );
    const voided = await api.call("POST", `/v1/events/${line(1).id}/void`, { token: owner.token, body: {} });
    expect(voided.status, voided.text).toBe(200);
    const again = await preview(`Date,Amount,Currency,Description\n${daysAgo(28)},-65.43,EUR,Again ${randomUUID()}`);
    expect(again.preview.rows[0]).toMatchObject({ status: "reconciled", matched_event_id: entry.id });
  });

  it("another owner's line is 404 and stays confirmed", async () => {
    const { line } = await importLines([[5, "-8.00"]]);
    const stranger = await seedOwner(api);
    expectApiError(
      await api.call("POST", `/v1/events/${line(1).id}/void`, { token: stranger.token, body: {} }),
      404,
      "not_found",
    );
    expect((await api.db.financialEvent.findUniqueOrThrow({ where: { id: line(1).id } })).status).toBe("confirmed");
  });
});
