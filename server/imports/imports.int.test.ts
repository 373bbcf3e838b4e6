// The statement import API end to end through the REST layer (multipart uploads built with
// FormData): preview statuses, re-import dedupe, 415/413 refusals, expiry and double confirm,
// all-or-nothing confirm, reconciliation against an integration event, own-account transfers,
// proposals into subscriptions, paging. On PGlite and on PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestItem } from "../../test/helpers/ingest-items";
import { seedAgent, seedBusiness, seedIntegration, seedOwner, staticOwner } from "../../test/helpers/seed";
import { callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { addDays, todayUtc } from "../../lib/days";
import { ingestEvents } from "../ingest/ingest-service";
import { IMPORT_MAX_FILE_BYTES } from "./import.schema";

let api: TTestApi;
let ownerId: string;
let businessId: string;

beforeAll(async () => {
  api = await createTestApi();
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
});
afterAll(async () => api?.close());

const TODAY = todayUtc();
const daysAgo = (days: number) => addDays(TODAY, -days);

/** A statement with a unique tag in every description, so tests never share external ids. */
function csv(rows: Array<[string, string, string, string?]>, header = "Date,Amount,Currency,Description,IBAN"): string {
  return [header, ...rows.map(([date, amount, description, iban]) => `${date},${amount},EUR,${description},${iban ?? ""}`)].join(
    "\n",
  );
}

function upload(
  file: string | Uint8Array,
  fields: Record<string, string> = {},
  options: { token?: string; idempotencyKey?: string; name?: string } = {},
) {
  return callMultipart(
    api.handler,
    "/v1/imports",
    { fields: { business_id: businessId, ...fields }, file: { bytes: file, name: options.name } },
    options,
  );
}

function confirm(id: string, body: Record<string, unknown> = {}, idempotencyKey?: string) {
  return api.call("POST", `/v1/imports/${id}/confirm`, { body, ...(idempotencyKey ? { idempotencyKey } : {}) });
}

const eventsOfBatch = (importId: string) =>
  api.db.financialEvent.findMany({
    where: { ownerId, payload: { path: ["batch_id"], equals: importId } },
    orderBy: { externalId: "asc" },
  });

describe("GET /v1/imports/presets", () => {
  it("lists the presets, generic included (the literal segment wins over {id})", async () => {
    const response = await api.call("GET", "/v1/imports/presets");
    expect(response.status, response.text).toBe(200);
    const ids = response.body.data.map((p: { id: string }) => p.id);
    expect(ids).toContain("generic");
    expect(ids).toContain("bank_eu_semicolon");
    expect(response.body.data[0]).toMatchObject({ id: "generic", delimiter: null, date_format: "yyyy-mm-dd" });
  });
});

describe("POST /v1/imports (preview)", () => {
  it("previews rows with statuses, keeps identical same-day rows, rejects with reasons, skips own transfers; writes nothing", async () => {
    const tag = randomUUID().slice(0, 8);
    const file = [
      "Date,Amount,Currency,Description,IBAN,Note",
      `${daysAgo(10)},-12.50,EUR,Coffee ${tag},,x`,
      `${daysAgo(10)},-12.50,EUR,Coffee ${tag},,x`,
      `${daysAgo(9)},250.00,EUR,Invoice ${tag},,x`,
      `31.02.2026,-5.00,EUR,Bad date ${tag},,x`,
      `${daysAgo(8)},0.00,EUR,Zero ${tag},,x`,
      `${daysAgo(8)},-100.00,EUR,Transfer ${tag},DE89 3704 0044 0532 0130 00,x`,
    ].join("\r\n");
    const response = await upload(file, { own_accounts: JSON.stringify(["DE89370400440532013000"]) });
    expect(response.status, response.text).toBe(200);
    const { import_id, expires_at, preview } = response.body.data;
    expect(import_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(59 * 60 * 1000);
    expect(preview.total_rows).toBe(6);
    expect(preview.skipped_transfers).toBe(1);
    expect(preview.unmapped_columns).toEqual(["Note"]);
    expect(preview.would_insert).toBe(3);
    expect(preview.would_dedupe).toBe(0);
    expect(preview.rows).toHaveLength(5);
    const [first, second, invoice, badDate, zero] = preview.rows;
    expect(first).toMatchObject({ row: 1, status: "new", amount_minor: -1250, currency: "EUR", occurred_on: daysAgo(10) });
    expect(second).toMatchObject({ row: 2, status: "new", amount_minor: -1250 });
    expect(first.external_id).toMatch(/^imp_/);
    expect(second.external_id).not.toBe(first.external_id);
    expect(invoice).toMatchObject({ row: 3, status: "new", amount_minor: 25000 });
    expect(badDate).toMatchObject({ row: 4, status: "rejected", external_id: null });
    expect(badDate.reject_reason).toContain("unparsable date");
    expect(zero).toMatchObject({ row: 5, status: "rejected", reject_reason: "amount is zero" });
    expect(preview.rejected).toEqual([
      { row: 4, external_id: null, reject_reason: badDate.reject_reason },
      { row: 5, external_id: null, reject_reason: "amount is zero" },
    ]);
    expect(await eventsOfBatch(import_id)).toHaveLength(0);

    const got = await api.call("GET", `/v1/imports/${import_id}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body.data).toMatchObject({ status: "previewed", import_id, page: { offset: 0, next_offset: null } });
    expect(got.body.data.rows).toEqual(preview.rows);
    expect(got.body.data.summary).toMatchObject({ would_insert: 3, skipped_transfers: 1, rejected_count: 2 });

    const key = randomUUID();
    const confirmed = await confirm(import_id, {}, key);
    expect(confirmed.status, confirmed.text).toBe(201);
    expect(confirmed.body.data).toMatchObject({ inserted: 3, deduped: 0, subscriptions_created: [] });
    expect(confirmed.body.data.rejected).toHaveLength(2);
    const events = await eventsOfBatch(import_id);
    expect(events).toHaveLength(3);
    for (const event of events) {
      expect(event).toMatchObject({ sourceType: "IMPORT", state: "actual", status: "confirmed", businessId });
      expect(event.amountMinor > 0n).toBe(true);
    }
    expect(events.filter((e) => e.type === "expense").map((e) => e.amountMinor)).toEqual([1250n, 1250n]);
    expect(events.filter((e) => e.type === "revenue").map((e) => e.amountMinor)).toEqual([25000n]);
    const integration = await api.db.integration.findUniqueOrThrow({ where: { id: events[0]!.integrationId! } });
    expect(integration).toMatchObject({ provider: "manual_import", ownerId, accountId: `owner:${ownerId}` });
    const audits = await api.db.auditEntry.findMany({ where: { ownerId, action: "import.confirmed", targetId: import_id } });
    expect(audits).toHaveLength(1);
    expect(audits[0]!.details).toMatchObject({ inserted: 3, deduped: 0 });
    expect(await api.db.auditEntry.count({ where: { ownerId, action: "event.ingested", targetId: events[0]!.id } })).toBe(0);

    const replay = await confirm(import_id, {}, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expectApiError(await confirm(import_id), 409, "state_conflict");
    const after = await api.call("GET", `/v1/imports/${import_id}`);
    expect(after.body.data).toMatchObject({ status: "confirmed", result: { inserted: 3 } });
    expect(await eventsOfBatch(import_id)).toHaveLength(3);
  });

  it("re-importing the same statement: every row already, confirm dedupes all", async () => {
    const tag = randomUUID().slice(0, 8);
    const file = csv([
      [daysAgo(20), "-9.99", `Music ${tag}`],
      [daysAgo(20), "-9.99", `Music ${tag}`],
      [daysAgo(19), "40.00", `Sale ${tag}`],
    ]);
    const first = await upload(file);
    expect((await confirm(first.body.data.import_id)).body.data).toMatchObject({ inserted: 3, deduped: 0 });
    const stored = await eventsOfBatch(first.body.data.import_id);

    const again = await upload(file);
    expect(again.status, again.text).toBe(200);
    const { preview, import_id } = again.body.data;
    expect(preview).toMatchObject({ would_insert: 0, would_dedupe: 3 });
    expect(preview.rows.map((r: { status: string }) => r.status)).toEqual(["already", "already", "already"]);
    const storedIds = new Set(stored.map((e) => e.id));
    for (const row of preview.rows) expect(storedIds.has(row.matched_event_id)).toBe(true);
    const result = await confirm(import_id);
    expect(result.status, result.text).toBe(201);
    expect(result.body.data).toMatchObject({ inserted: 0, deduped: 3, rejected: [] });
    expect(await eventsOfBatch(import_id)).toHaveLength(0);
  });

  it("answers 415 for XLS and XLSX, storing nothing", async () => {
    const before = await api.db.import.count();
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    const xlsx = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0x06, 0]);
    expectApiError(await upload(xls, {}, { name: "statement.xls" }), 415, "unsupported_media_type");
    expectApiError(await upload(xlsx, {}, { name: "statement.xlsx" }), 415, "unsupported_media_type");
    expect(await api.db.import.count()).toBe(before);
  });

  it("answers 413 for a file over 10 MB, and for a body over the route's cap", async () => {
    const before = await api.db.import.count();
    const header = "Date,Amount,Currency,Description\n";
    const over = header + "x".repeat(IMPORT_MAX_FILE_BYTES + 1 - header.length);
    expectApiError(await upload(over), 413, "payload_too_large");
    const far = header + "x".repeat(IMPORT_MAX_FILE_BYTES + 1024 * 1024);
    expectApiError(await upload(far), 413, "payload_too_large");
    expect(await api.db.import.count()).toBe(before);
  });

  it("refuses an unknown preset (400), a malformed mapping (400) and another owner's business (404)", async () => {
    const file = csv([[daysAgo(3), "-1.00", "x"]]);
    expectApiError(await upload(file, { preset: "no_such_bank" }), 400, "validation_error");
    expectApiError(await upload(file, { mapping: "{not json" }), 400, "validation_error");
    expectApiError(await upload(file, { mapping: JSON.stringify({ columns: { date: "Nope" } }) }), 400, "validation_error");
    const other = await seedOwner(api, "other-imports@example.test");
    const theirs = (await seedBusiness(api, { name: "Theirs" }, other.token)).id;
    expectApiError(await upload(file, { business_id: theirs }), 404, "not_found");
  });

  it("is for the owner only: an agent gets 403 scope_denied, and a body that is not multipart 415", async () => {
    const agent = await seedAgent(api, { name: "Importer" });
    const file = csv([[daysAgo(3), "-1.00", "x"]]);
    expectApiError(await upload(file, {}, { token: agent.token }), 403, "scope_denied");
    expectApiError(await api.call("GET", "/v1/imports/presets", { token: agent.token }), 403, "scope_denied");
    expectApiError(await api.call("POST", "/v1/imports", { body: { business_id: businessId } }), 415, "unsupported_media_type");
    expectApiError(await upload(file, { business_id: "not-a-uuid" }), 400, "validation_error");
  });
});

describe("POST /v1/imports/{id}/confirm", () => {
  it("marks the lines of an import uploaded with reconcile=false, so the daily job leaves them alone", async () => {
    const off = await upload(csv([[daysAgo(5), "-7.00", `Kept apart ${randomUUID()}`]]), { reconcile: "false" });
    const id = off.body.data.import_id;
    expect((await confirm(id)).status).toBe(201);
    const [line] = await eventsOfBatch(id);
    expect(line!.payload).toMatchObject({ reconcile: false });
  });

  it("answers 409 state_conflict after expires_at", async () => {
    const response = await upload(csv([[daysAgo(4), "-3.00", `Late ${randomUUID()}`]]));
    const id = response.body.data.import_id;
    await api.db.import.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const late = await confirm(id);
    expectApiError(late, 409, "state_conflict");
    expect(late.body.error.message).toContain("upload");
    expect((await api.call("GET", `/v1/imports/${id}`)).body.data.status).toBe("expired");
    expect(await eventsOfBatch(id)).toHaveLength(0);
  });

  it("is all or nothing: a subscription that fails after the events were ingested leaves no events", async () => {
    const tag = randomUUID().slice(0, 8);
    const rows: Array<[string, string, string]> = [4, 3, 2, 1].map((months) => {
      const d = new Date(Date.parse(`${TODAY}T00:00:00Z`));
      d.setUTCMonth(d.getUTCMonth() - months);
      return [d.toISOString().slice(0, 10), "-15.99", `Streaming ${tag}`];
    });
    const response = await upload(csv(rows));
    const { import_id: id, preview } = response.body.data;
    expect(preview.proposals.length).toBe(1);
    expectApiError(await confirm(id, { accept_proposals: [5] }), 400, "validation_error");

    // A proposal the subscription service refuses: it fails after every event was ingested.
    const stored = await api.db.import.findUniqueOrThrow({ where: { id } });
    const proposals = stored.proposals as Array<Record<string, unknown>>;
    await api.db.import.update({ where: { id }, data: { proposals: [{ ...proposals[0], currency: "ZZZ" }] } });
    const failed = await confirm(id, { accept_proposals: [0] });
    expect(failed.status, failed.text).toBeGreaterThanOrEqual(400);
    expect(await eventsOfBatch(id)).toHaveLength(0);
    expect(await api.db.auditEntry.count({ where: { action: "import.confirmed", targetId: id } })).toBe(0);
    expect((await api.call("GET", `/v1/imports/${id}`)).body.data.status).toBe("previewed");

    // A mapping other than the upload's is refused: the raw cells are not kept.
    expectApiError(await confirm(id, { mapping: { date_format: "dd.mm.yyyy" } }), 400, "validation_error");

    await api.db.import.update({ where: { id }, data: { proposals: proposals as object[] } });
    const ok = await confirm(id, { accept_proposals: [0], mapping: {} });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data.inserted).toBe(4);
    expect(ok.body.data.subscriptions_created).toHaveLength(1);
    const subscription = await api.db.subscription.findUniqueOrThrow({ where: { id: ok.body.data.subscriptions_created[0] } });
    expect(subscription).toMatchObject({
      sourceType: "IMPORT",
      amountMinor: 1599n,
      currency: "EUR",
      billingInterval: "month",
      businessId,
    });
    expect(Number(subscription.confidence)).toBe(preview.proposals[0].confidence);
    expect(subscription.provenance).toMatchObject({ source: { type: "IMPORT" }, import_id: id });
  });

  it("proposes a series across statements uploaded month by month, and not again once it is tracked", async () => {
    const tag = randomUUID().slice(0, 8);
    const monthsAgo = (months: number) => {
      const d = new Date(Date.parse(`${TODAY}T00:00:00Z`));
      d.setUTCMonth(d.getUTCMonth() - months);
      return d.toISOString().slice(0, 10);
    };
    const statement = (months: number) => csv([[monthsAgo(months), "-42.00", `Gym ${tag}`]]);
    for (const months of [3, 2]) {
      const step = await upload(statement(months));
      expect(step.body.data.preview.proposals).toEqual([]);
      expect((await confirm(step.body.data.import_id)).status).toBe(201);
    }
    const third = await upload(statement(1));
    const proposals = third.body.data.preview.proposals;
    expect(proposals).toHaveLength(1);
    expect(proposals[0]).toMatchObject({ amount_minor: 4200, currency: "EUR", billing_interval: "month", occurrences: 3 });
    const result = await confirm(third.body.data.import_id, { accept_proposals: [0] });
    expect(result.body.data.subscriptions_created).toHaveLength(1);

    const fourth = await upload(statement(0));
    expect(fourth.body.data.preview.proposals).toEqual([]);
  });

  it("excludes rows named in exclude_external_ids", async () => {
    const tag = randomUUID().slice(0, 8);
    const response = await upload(
      csv([
        [daysAgo(6), "-1.00", `A ${tag}`],
        [daysAgo(6), "-2.00", `B ${tag}`],
      ]),
    );
    const { import_id: id, preview } = response.body.data;
    const result = await confirm(id, { exclude_external_ids: [preview.rows[0].external_id] });
    expect(result.body.data).toMatchObject({ inserted: 1, deduped: 0 });
    expect((await eventsOfBatch(id)).map((e) => e.externalId)).toEqual([preview.rows[1].external_id]);
  });
});

describe("recurring proposals stay in the import's business", () => {
  const monthsAgo = (months: number) => {
    const d = new Date(Date.parse(`${TODAY}T00:00:00Z`));
    d.setUTCMonth(d.getUTCMonth() - months);
    return d.toISOString().slice(0, 10);
  };
  const statement = (rows: Array<[string, string, string, string]>) =>
    ["Date,Amount,Currency,Description", ...rows.map((cells) => cells.join(","))].join("\n");

  it("proposes from the statement's own rows and its business's history only, and creates the subscription there", async () => {
    const tag = randomUUID().slice(0, 8);
    const other = (await seedBusiness(api, { name: `Other ${tag}` })).id;
    // Business A: six monthly USD charges, confirmed (they become A's import history).
    const series = [6, 5, 4, 3, 2, 1].map((m): [string, string, string, string] => [
      monthsAgo(m),
      "-29.00",
      "USD",
      `Hosting 1${tag}`,
    ]);
    const first = await upload(statement(series));
    expect(first.body.data.preview.proposals).toHaveLength(1);
    expect((await confirm(first.body.data.import_id)).status).toBe(201);

    // Business B: a 2-row EUR statement proposes nothing from A's history.
    const b = await upload(
      statement([
        [monthsAgo(1), "-3.00", "EUR", `Coffee 1${tag}`],
        [monthsAgo(0), "-4.00", "EUR", `Lunch 1${tag}`],
      ]),
      { business_id: other },
    );
    expect(b.status, b.text).toBe(200);
    expect(b.body.data.preview.proposals).toEqual([]);
    // Nor does a statement of B holding one charge of A's series: B has no history of it.
    const lone = await upload(statement([[monthsAgo(0), "-29.00", "USD", `Hosting 1${tag}`]]), { business_id: other });
    expect(lone.body.data.preview.proposals).toEqual([]);
    const confirmed = await confirm(lone.body.data.import_id, { accept_proposals: [0] });
    expectApiError(confirmed, 400, "validation_error");

    // A's own next statement still sees A's series, from A's history.
    const next = await upload(statement([[monthsAgo(0), "-29.00", "USD", `Hosting 1${tag}`]]));
    expect(next.body.data.preview.proposals).toMatchObject([{ currency: "USD", occurrences: 7 }]);
    // A statement of A without that series does not re-propose it from history alone.
    const unrelated = await upload(statement([[monthsAgo(0), "-5.00", "EUR", `Parking 1${tag}`]]));
    expect(unrelated.body.data.preview.proposals).toEqual([]);
  });

  it("creates an accepted proposal's subscription in the import's business; another business's subscription does not hide it", async () => {
    const tag = randomUUID().slice(0, 8);
    const other = (await seedBusiness(api, { name: `Second ${tag}` })).id;
    const rows = [3, 2, 1].map((m): [string, string, string, string] => [monthsAgo(m), "-12.00", "EUR", `Design tool 1${tag}`]);
    const inA = await upload(statement(rows));
    const acceptedA = await confirm(inA.body.data.import_id, { accept_proposals: [0] });
    expect(acceptedA.body.data.subscriptions_created).toHaveLength(1);

    // B pays the same tool from its own account: its statement still proposes it.
    const rowsB = [3, 2, 1].map((m): [string, string, string, string] => [monthsAgo(m), "-12.50", "EUR", `Design tool 1${tag}`]);
    const inB = await upload(statement(rowsB), { business_id: other });
    expect(inB.body.data.preview.proposals).toMatchObject([{ amount_minor: 1250, currency: "EUR", occurrences: 3 }]);
    const acceptedB = await confirm(inB.body.data.import_id, { accept_proposals: [0] });
    expect(acceptedB.status, acceptedB.text).toBe(201);
    const [subscriptionB] = acceptedB.body.data.subscriptions_created;
    expect(await api.db.subscription.findUniqueOrThrow({ where: { id: subscriptionB } })).toMatchObject({ businessId: other });
    const subscriptionA = acceptedA.body.data.subscriptions_created[0];
    expect(await api.db.subscription.findUniqueOrThrow({ where: { id: subscriptionA } })).toMatchObject({ businessId });
  });
});

describe("reconciliation", () => {
  it("marks a row reconciled against an integration event (each event matches one row) and stores it reconciled", async () => {
    const integrationId = await seedIntegration(api.db, { ownerId, provider: "payments_a", name: "payments", businessId });
    const amount = 70_000 + Math.floor(Math.random() * 10_000);
    await ingestEvents(api.db, ownerId, [ingestItem(integrationId, "ch_1", amount, { occurred_on: daysAgo(12) })]);
    const charge = await api.db.financialEvent.findFirstOrThrow({ where: { integrationId, externalId: "ch_1" } });
    const major = (amount / 100).toFixed(2);
    const tag = randomUUID().slice(0, 8);
    const file = csv([
      [daysAgo(10), major, `Payout ${tag}`],
      [daysAgo(10), `-${major}`, `Wrong direction ${tag}`],
      [daysAgo(11), major, `Payout again ${tag}`],
      [daysAgo(30), major, `Too early ${tag}`],
    ]);
    const off = await upload(file, { reconcile: "false" });
    expect(off.body.data.preview.rows.map((r: { status: string }) => r.status)).toEqual(["new", "new", "new", "new"]);

    const response = await upload(file);
    const { import_id: id, preview } = response.body.data;
    // The oldest line is served first (matching-rule.ts): row 3 (11 days ago, 1 day from the charge) before row 1.
    expect(preview.rows.map((r: { status: string }) => r.status)).toEqual(["new", "new", "reconciled", "new"]);
    expect(preview.rows[2].matched_event_id).toBe(charge.id);
    expect(preview.would_insert).toBe(4);

    const result = await confirm(id);
    expect(result.status, result.text).toBe(201);
    expect(result.body.data).toMatchObject({ inserted: 4, rejected: [] });
    const reconciled = await api.db.financialEvent.findFirstOrThrow({
      where: { integrationId: { not: integrationId }, externalId: preview.rows[2].external_id },
    });
    expect(reconciled.reconciled).toBe(true);
    expect(reconciled.payload).toMatchObject({ reconciles_event_id: charge.id, batch_id: id, reconciled: true });

    // A later statement never matches the same integration event again.
    const later = await upload(csv([[daysAgo(10), major, `Another payout ${tag}`]]));
    expect(later.body.data.preview.rows[0].status).toBe("new");
  });
});

describe("paging", () => {
  it("answers the first 500 rows in the preview, the rest by offset", async () => {
    const tag = randomUUID().slice(0, 8);
    const rows: Array<[string, string, string]> = Array.from({ length: 1203 }, (_, i) => [
      daysAgo(1 + (i % 200)),
      `-${(i + 1).toString()}.00`,
      `Item ${i} ${tag}`,
    ]);
    const response = await upload(csv(rows));
    expect(response.status, response.text).toBe(200);
    const { import_id: id, preview } = response.body.data;
    expect(preview.total_rows).toBe(1203);
    expect(preview.rows).toHaveLength(500);
    expect(await api.db.importRowPage.count({ where: { importId: id } })).toBe(3);

    const second = await api.call("GET", `/v1/imports/${id}?offset=500`);
    expect(second.body.data.rows).toHaveLength(500);
    expect(second.body.data.rows[0].row).toBe(501);
    expect(second.body.data.page).toEqual({ offset: 500, next_offset: 1000 });
    const odd = await api.call("GET", `/v1/imports/${id}?offset=750`);
    expect(odd.body.data.rows.map((r: { row: number }) => r.row)).toEqual(Array.from({ length: 453 }, (_, i) => 751 + i));
    expect(odd.body.data.page).toEqual({ offset: 750, next_offset: null });
  });
});
