// Issue 32 item 2 (pinned-wave3 §1.2): a bank line and the same money entered by hand are one
// event. Payments entered by hand, then a statement that holds them (another date format,
// amounts written 1.234,56, dates a day or two off): the preview shows each row matched to its
// hand entry, the confirm stores the lines reconciled, and every read model counts each payment
// once; "not the same" (keep_separate) keeps both. One hand entry is matched by one line at most,
// in a file, across imports, and when two confirms race (PostgreSQL). The daily reconciliation
// matches a line imported before its hand entry. On PGlite and on PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayUtc } from "../../lib/days";
import { callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { testEngine } from "../../test/helpers/database";
import { readModels } from "../../test/helpers/read-models";
import { seedBusiness, seedEvent, seedOwner, type TSeedOwner } from "../../test/helpers/seed";
import { reconcileImports } from "../reconciliation/reconciliation-service";

let api: TTestApi;
beforeAll(async () => {
  api = await createTestApi({ env: { LOG_LEVEL: process.env.DEBUG_LOG ?? "silent" } });
});
afterAll(async () => api?.close());

const TODAY = todayUtc();
const daysAgo = (days: number) => addDays(TODAY, -days);
/** Inside the forecast's 90-day run-rate window, and the summary's period. */
const PERIOD = { from: daysAgo(40), to: TODAY };

type TPayment = { kind: "expense" | "revenue"; amount: number; day: string; description: string };

/** Three payments of a month, entered by hand: two costs and an income. */
const PAYMENTS: TPayment[] = [
  { kind: "expense", amount: 123_456, day: daysAgo(30), description: "Office rent" },
  { kind: "revenue", amount: 250_000, day: daysAgo(20), description: "Invoice 17" },
  { kind: "expense", amount: 4_999, day: daysAgo(10), description: "Hosting" },
];

/** dd.mm.yyyy */
const euDate = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;
/** 1.234,56 (signed) */
function euAmount(minor: number): string {
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  const units = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${sign}${units},${String(abs % 100).padStart(2, "0")}`;
}

/** The bank's statement of the payments (bank_eu_semicolon), each booked `shift` days later. */
function statement(payments: TPayment[], shift: (index: number) => number, tag = randomUUID().slice(0, 8)): string {
  return [
    "Buchungstag;Betrag;Währung;Verwendungszweck",
    ...payments.map(
      (p, i) =>
        `${euDate(addDays(p.day, shift(i)))};${euAmount(p.kind === "expense" ? -p.amount : p.amount)};EUR;${p.description.toUpperCase()} ${tag}`,
    ),
  ].join("\n");
}

type TWorld = { owner: TSeedOwner; businessId: string; entries: string[] };

/** A new owner (EUR) with one business and the payments entered by hand. */
async function ownerWithEntries(payments: TPayment[] = PAYMENTS): Promise<TWorld> {
  const owner = await seedOwner(api);
  await api.db.owner.update({ where: { id: owner.ownerId }, data: { baseCurrency: "EUR" } });
  const businessId = (await seedBusiness(api, { name: "Studio", currency: "EUR" }, owner.token)).id;
  const entries: string[] = [];
  for (const p of payments) {
    const body = {
      business_id: businessId,
      amount_minor: p.amount,
      currency: "EUR",
      occurred_on: p.day,
      description: p.description,
    };
    entries.push((await seedEvent(api, p.kind, body, owner.token)).id);
  }
  return { owner, businessId, entries };
}

async function upload(world: TWorld, csv: string, preset = "bank_eu_semicolon") {
  const response = await callMultipart(
    api.handler,
    "/v1/imports",
    { fields: { business_id: world.businessId, preset }, file: { bytes: csv, name: "september.csv" } },
    { token: world.owner.token },
  );
  expect(response.status, response.text).toBe(200);
  return response.body.data as {
    import_id: string;
    preview: { rows: Array<Record<string, any>>; would_insert: number; would_reconcile: number };
  };
}

function confirm(world: TWorld, importId: string, body: Record<string, unknown> = {}) {
  return api.call("POST", `/v1/imports/${importId}/confirm`, { token: world.owner.token, body });
}

async function confirmed(world: TWorld, importId: string, body: Record<string, unknown> = {}) {
  const response = await confirm(world, importId, body);
  expect(response.status, response.text).toBe(201);
  return response.body.data as { inserted: number; reconciled: number };
}

/** Whether a session of this database waits for a row lock (PostgreSQL). */
async function waitingForLock(): Promise<boolean> {
  const [row] = await api.db.$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
  return (row?.n ?? 0) > 0;
}

const linesOf = (importId: string) =>
  api.db.financialEvent.findMany({
    where: { payload: { path: ["batch_id"], equals: importId } },
    orderBy: { occurredOn: "asc" },
  });

describe("an overlapping statement: payments entered by hand, then the bank's lines", () => {
  it("counts each payment once in every read model: the lines match the hand entries, a day or two off, in another format", async () => {
    const world = await ownerWithEntries();
    const before = await readModels(api, world.owner.token, { businessId: world.businessId, ...PERIOD });

    const { import_id, preview } = await upload(
      world,
      statement(PAYMENTS, (i) => [1, 2, -2][i]!),
    );
    expect(preview.would_insert).toBe(3);
    expect(preview.would_reconcile).toBe(3);
    expect(preview.rows.map((row) => [row.status, row.matched_event_id])).toEqual(world.entries.map((id) => ["reconciled", id]));
    // The entry each row matches, as the owner sees it before confirming.
    expect(preview.rows[0]!.matched_event).toEqual({
      id: world.entries[0],
      type: "expense",
      source_type: "MANUAL",
      occurred_on: PAYMENTS[0]!.day,
      amount_minor: 123_456,
      currency: "EUR",
      description: "Office rent",
    });
    expect(preview.rows[0]).toMatchObject({ amount_minor: -123_456, occurred_on: addDays(PAYMENTS[0]!.day, 1) });

    expect(await confirmed(world, import_id)).toMatchObject({ inserted: 3, reconciled: 3 });
    const lines = await linesOf(import_id);
    expect(lines.map((line) => [line.reconciled, (line.payload as Record<string, unknown>).reconciles_event_id])).toEqual(
      world.entries.map((id) => [true, id]),
    );
    expect(await readModels(api, world.owner.token, { businessId: world.businessId, ...PERIOD })).toEqual(before);

    // The same statement again: every row already imported, nothing changes.
    const again = await upload(world, statement(PAYMENTS, (i) => [1, 2, -2][i]!).replace(/ [0-9a-f]{8}$/gm, ""));
    expect(again.preview.rows.every((row) => row.status !== "reconciled")).toBe(true);
  });

  it('keeps both with keep_separate (the panel\'s "not the same"): the lines count, and the daily job leaves them alone', async () => {
    const world = await ownerWithEntries();
    const before = await readModels(api, world.owner.token, { businessId: world.businessId, ...PERIOD });
    const { import_id, preview } = await upload(
      world,
      statement(PAYMENTS, () => 1),
    );
    expect(preview.rows.map((row) => row.status)).toEqual(["reconciled", "reconciled", "reconciled"]);

    // Row 2 is not the same money; the others are.
    expect(await confirmed(world, import_id, { keep_separate: [2] })).toMatchObject({ inserted: 3, reconciled: 2 });
    const lines = await linesOf(import_id);
    const kept = lines.find((line) => (line.payload as Record<string, unknown>).row === 2)!;
    expect(kept.reconciled).toBe(false);
    expect(kept.payload).toMatchObject({ reconcile: false, kept_separate_from: world.entries[1] });

    await reconcileImports(api.db, { ownerId: world.owner.ownerId });
    expect((await api.db.financialEvent.findUniqueOrThrow({ where: { id: kept.id } })).reconciled).toBe(false);
    const after = (await readModels(api, world.owner.token, { businessId: world.businessId, ...PERIOD })) as any;
    const was = before as any;
    expect(after.summary.revenue_minor ?? after.summary.in_minor).toBe(2 * (was.summary.revenue_minor ?? was.summary.in_minor));
    expect(after.totals.in_minor).toBe(2 * was.totals.in_minor);
    expect(after.totals.out_minor).toBe(was.totals.out_minor);
  });

  it("refuses a keep_separate row that is not in the file (400) and writes nothing", async () => {
    const world = await ownerWithEntries(PAYMENTS.slice(0, 1));
    const { import_id } = await upload(
      world,
      statement(PAYMENTS.slice(0, 1), () => 0),
    );
    const response = await confirm(world, import_id, { keep_separate: [2] });
    expect(response.status, response.text).toBe(400);
    expect(response.body.error.details.issues[0].path).toBe("keep_separate");
    expect(await linesOf(import_id)).toHaveLength(0);
  });
});

describe("which hand entries a line matches", () => {
  it("only an entry of the import's business, in the window, of the same amount, currency and direction", async () => {
    const world = await ownerWithEntries([]);
    const other = (await seedBusiness(api, { name: "Other", currency: "EUR" }, world.owner.token)).id;
    const entry = (business_id: string, amount: number, day: string, kind: "expense" | "revenue" = "expense", currency = "EUR") =>
      seedEvent(api, kind, { business_id, amount_minor: amount, currency, occurred_on: day }, world.owner.token);
    await entry(other, 1_000, daysAgo(10)); // another business
    await entry(world.businessId, 2_000, daysAgo(14)); // 4 days from the line
    await entry(world.businessId, 3_000, daysAgo(10), "revenue"); // money in, the line is out
    await api.call("POST", "/v1/expenses", {
      token: world.owner.token,
      body: { business_id: world.businessId, amount_minor: 4_000, currency: "USD", occurred_on: daysAgo(10) },
    });
    const far = (await entry(world.businessId, 5_000, daysAgo(13))).id; // 3 days: the farthest that matches
    const near = (await entry(world.businessId, 5_000, daysAgo(11))).id; // nearer: wins
    const oldest = (await entry(world.businessId, 6_000, daysAgo(9))).id; // same distance: the oldest wins
    await entry(world.businessId, 6_000, daysAgo(11));
    const csv = [
      "Date,Amount,Currency,Description",
      ...[1_000, 2_000, 3_000, 4_000, 5_000, 6_000].map((a) => `${daysAgo(10)},-${a / 100}.00,EUR,Line ${a} ${randomUUID()}`),
    ].join("\n");
    const { preview } = await upload(world, csv, "generic");
    expect(preview.rows.map((row) => row.matched_event_id ?? null)).toEqual([null, null, null, null, near, oldest]);
    expect(far).not.toBe(near);
  });

  it("matches one entry with one line at most: in a file, and across imports", async () => {
    const world = await ownerWithEntries(PAYMENTS.slice(2));
    const [entry] = world.entries;
    // Two lines of the same payment in one file: the first (oldest date) takes the entry.
    const twice = await upload(
      world,
      statement([PAYMENTS[2]!, PAYMENTS[2]!], (i) => [1, 2][i]!),
    );
    expect(twice.preview.rows.map((row) => row.status)).toEqual(["reconciled", "new"]);

    // Two statements previewed before either is confirmed: both show the match, the second confirm
    // finds it taken and writes its line as new.
    const first = await upload(
      world,
      statement(PAYMENTS.slice(2), () => 1),
    );
    const second = await upload(
      world,
      statement(PAYMENTS.slice(2), () => 2),
    );
    expect(first.preview.rows[0]!.matched_event_id).toBe(entry);
    expect(second.preview.rows[0]!.matched_event_id).toBe(entry);
    expect(await confirmed(world, first.import_id)).toMatchObject({ inserted: 1, reconciled: 1 });
    expect(await confirmed(world, second.import_id)).toMatchObject({ inserted: 1, reconciled: 0 });
    const claims = await api.db.financialEvent.count({
      where: { ownerId: world.owner.ownerId, reconciled: true, payload: { path: ["reconciles_event_id"], equals: entry } },
    });
    expect(claims).toBe(1);
  });

  it.skipIf(testEngine() !== "postgres")(
    "never gives one entry to two lines when confirms race (PostgreSQL: 8 concurrent confirms)",
    async () => {
      const world = await ownerWithEntries(PAYMENTS.slice(0, 1));
      const [entry] = world.entries;
      const previews = [];
      for (let i = 0; i < 8; i++)
        previews.push(
          await upload(
            world,
            statement(PAYMENTS.slice(0, 1), () => (i % 3) - 1),
          ),
        );
      for (const p of previews) expect(p.preview.rows[0]!.matched_event_id).toBe(entry);
      const answers = await Promise.all(previews.map((p) => confirm(world, p.import_id)));
      for (const answer of answers) expect(answer.status, answer.text).toBe(201);
      expect(answers.map((a) => a.body.data.reconciled).sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
      const claims = await api.db.financialEvent.count({
        where: { ownerId: world.owner.ownerId, status: "confirmed", payload: { path: ["reconciles_event_id"], equals: entry } },
      });
      expect(claims).toBe(1);
    },
  );
});

describe("the daily reconciliation and hand entries", () => {
  it.skipIf(testEngine() !== "postgres")(
    "a confirm that meets the daily job's batch asks for its matches after it: one line per entry (PostgreSQL)",
    async () => {
      // A line imported before the entry existed: the job will give it the entry.
      const world = await ownerWithEntries([]);
      const early = await upload(
        world,
        statement(PAYMENTS.slice(0, 1), () => 1),
      );
      await confirmed(world, early.import_id);
      const p = PAYMENTS[0]!;
      const body = { business_id: world.businessId, amount_minor: p.amount, currency: "EUR", occurred_on: p.day };
      const entry = (await seedEvent(api, "expense", body, world.owner.token)).id;
      // Another statement with the same payment, previewed while the entry is still free.
      const late = await upload(
        world,
        statement(PAYMENTS.slice(0, 1), () => -1),
      );
      expect(late.preview.rows[0]!.matched_event_id).toBe(entry);

      // The job's batch holds its lock and has matched the early line when the confirm arrives.
      let answer: Awaited<ReturnType<typeof confirm>> | undefined;
      await api.db.$transaction(
        async (tx) => {
          expect((await reconcileImports(tx as never, { ownerId: world.owner.ownerId })).matched).toBe(1);
          const pending = confirm(world, late.import_id).then((a) => (answer = a));
          for (let i = 0; i < 200 && !(await waitingForLock()); i++) await new Promise((r) => setTimeout(r, 25));
          expect(await waitingForLock()).toBe(true);
          void pending;
        },
        { timeout: 30_000 },
      );
      for (let i = 0; i < 400 && !answer; i++) await new Promise((r) => setTimeout(r, 25));
      expect(answer?.status, answer?.text).toBe(201);
      expect(answer!.body.data).toMatchObject({ inserted: 1, reconciled: 0 });
      const claims = await api.db.financialEvent.count({
        where: { ownerId: world.owner.ownerId, status: "confirmed", payload: { path: ["reconciles_event_id"], equals: entry } },
      });
      expect(claims).toBe(1);
    },
  );

  it("matches a line imported before its hand entry was made, in the same business only", async () => {
    const world = await ownerWithEntries([]);
    // Booked on the entries' own days: the read models' windows hold the same days either way.
    const { import_id, preview } = await upload(
      world,
      statement(PAYMENTS, () => 0),
    );
    expect(preview.rows.map((row) => row.status)).toEqual(["new", "new", "new"]);
    await confirmed(world, import_id);
    // The same money in another business: never this business's line.
    const other = (await seedBusiness(api, { name: "Elsewhere", currency: "EUR" }, world.owner.token)).id;
    const p = PAYMENTS[0]!;
    await seedEvent(
      api,
      "expense",
      { business_id: other, amount_minor: p.amount, currency: "EUR", occurred_on: p.day },
      world.owner.token,
    );
    const before = await readModels(api, world.owner.token, { businessId: world.businessId, ...PERIOD });

    // Entered by hand afterwards: the payments count twice until the job runs.
    const entries: string[] = [];
    for (const q of PAYMENTS) {
      const body = { business_id: world.businessId, amount_minor: q.amount, currency: "EUR", occurred_on: q.day };
      entries.push((await seedEvent(api, q.kind, body, world.owner.token)).id);
    }
    const run = await reconcileImports(api.db, { ownerId: world.owner.ownerId });
    expect(run.matched).toBe(3);
    const lines = await linesOf(import_id);
    expect(lines.map((line) => (line.payload as Record<string, unknown>).reconciles_event_id)).toEqual(entries);
    expect(await readModels(api, world.owner.token, { businessId: world.businessId, ...PERIOD })).toEqual(before);
  });
});

describe("fixing a hand entry that a line matches", () => {
  it("voiding it releases the line, which counts again; the money is not lost", async () => {
    const world = await ownerWithEntries(PAYMENTS.slice(0, 1));
    const before = await readModels(api, world.owner.token, { businessId: world.businessId, ...PERIOD });
    const { import_id } = await upload(
      world,
      statement(PAYMENTS.slice(0, 1), () => 1),
    );
    await confirmed(world, import_id);
    const [line] = await linesOf(import_id);
    expect(line!.reconciled).toBe(true);

    const voided = await api.call("POST", `/v1/events/${world.entries[0]}/void`, { token: world.owner.token, body: {} });
    expect(voided.status, voided.text).toBe(200);
    const released = await api.db.financialEvent.findUniqueOrThrow({ where: { id: line!.id } });
    expect(released.reconciled).toBe(false);
    expect(released.payload).toMatchObject({ released_from_event_id: world.entries[0] });
    expect(released.payload).not.toHaveProperty("reconciles_event_id");
    const after = (await readModels(api, world.owner.token, { businessId: world.businessId, ...PERIOD })) as any;
    expect(after.totals.out_minor).toBe((before as any).totals.out_minor);
  });

  it("correcting it keeps the line on the new version when it is the same money, and releases it otherwise", async () => {
    const world = await ownerWithEntries(PAYMENTS.slice(0, 1));
    const { import_id } = await upload(
      world,
      statement(PAYMENTS.slice(0, 1), () => 1),
    );
    await confirmed(world, import_id);
    const [line] = await linesOf(import_id);

    const renamed = await api.call("POST", `/v1/events/${world.entries[0]}/correct`, {
      token: world.owner.token,
      body: { description: "Office rent, September" },
    });
    expect(renamed.status, renamed.text).toBe(201);
    const followed = await api.db.financialEvent.findUniqueOrThrow({ where: { id: line!.id } });
    expect(followed).toMatchObject({
      reconciled: true,
      payload: expect.objectContaining({ reconciles_event_id: renamed.body.data.id }),
    });

    const repriced = await api.call("POST", `/v1/events/${renamed.body.data.id}/correct`, {
      token: world.owner.token,
      body: { amount_minor: 120_000 },
    });
    expect(repriced.status, repriced.text).toBe(201);
    expect((await api.db.financialEvent.findUniqueOrThrow({ where: { id: line!.id } })).reconciled).toBe(false);
  });
});
