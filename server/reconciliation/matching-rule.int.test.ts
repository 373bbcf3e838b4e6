// One matching rule, two paths (matching-rule.ts): the same statement rows and the same
// integration events go to the import preview (JS) and to the daily job (SQL), which must make
// the same pairs, ties included. On PGlite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReconciliationOwner, type TReconciliationOwner } from "../../test/helpers/reconciliation";
import { createTestDatabase, type TTestDatabase } from "../../test/helpers/database";
import type { TCaller } from "../auth/caller";
import type { TDb } from "../db/client";
import { createImport } from "../imports/import-upload";
import { ingestEvents } from "../ingest/ingest-service";
import { reconcileImports } from "./reconciliation-service";

process.env.LOG_LEVEL = "silent";

let database: TTestDatabase;
let db: TDb;
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.prisma;
});
afterAll(async () => database?.close());

const NOW = new Date("2026-11-14T12:00:00Z");
/** When the job's lines were stored: one statement, one created_at. */
const LINES_STORED_AT = new Date("2026-11-14T08:00:00Z");

type TEvent = {
  label: string;
  /** Positive minor units. */
  amount: number;
  day: string;
  /** created_at. */
  created: string;
  type?: "expense" | "revenue";
  currency?: string;
  /** generic: an event of a generic integration (source_type IMPORT) instead of payments_a. */
  from?: "generic";
};
/** A statement row: signed minor units (negative = money out). */
type TRow = { amount: number; day: string; currency?: string };
type TPairs = Record<number, string>;

/** A new owner with the events; answers event id → label. */
async function ownerWith(events: TEvent[]): Promise<{ o: TReconciliationOwner; labelOf: Map<string, string> }> {
  const o = await createReconciliationOwner(db, "matching");
  const labelOf = new Map<string, string>();
  let generic: string | undefined;
  for (const event of events) {
    const extra = { type: event.type, currency: event.currency, createdAt: new Date(event.created) };
    if (event.from === "generic") {
      generic ??= (
        await db.integration.create({
          data: { ownerId: o.ownerId, provider: "generic", name: "bank feed", businessId: o.businessId, accountId: "feed" },
        })
      ).id;
      await ingestEvents(
        db,
        o.ownerId,
        [
          {
            integration_id: generic,
            external_id: event.label,
            type: event.type ?? "expense",
            state: "actual",
            amount_minor: event.amount,
            currency: event.currency ?? "EUR",
            occurred_on: event.day,
            source_type: "IMPORT",
          },
        ],
        { now: extra.createdAt },
      );
      const { id } = await db.financialEvent.findUniqueOrThrow({
        where: { integrationId_externalId: { integrationId: generic, externalId: event.label } },
      });
      labelOf.set(id, event.label);
    } else {
      labelOf.set(await o.payment(event.label, event.amount, event.day, extra), event.label);
    }
  }
  return { o, labelOf };
}

/** The preview's pairs: row number → event label. */
async function previewPairs(o: TReconciliationOwner, labelOf: Map<string, string>, rows: TRow[]): Promise<TPairs> {
  const csv = [
    "Date,Amount,Currency,Description",
    ...rows.map((row, i) => `${row.day},${(row.amount / 100).toFixed(2)},${row.currency ?? "EUR"},Row ${i + 1}`),
  ].join("\n");
  const caller: TCaller = {
    ownerId: o.ownerId,
    actor: { type: "owner", ownerId: o.ownerId, credential: "static", tokenKey: "matching" },
    requestId: "req_matching",
    now: new Date(),
  };
  const { preview } = await createImport(
    db,
    caller,
    { bytes: new TextEncoder().encode(csv), fileName: null, businessId: o.businessId, presetId: "generic", reconcile: true },
    NOW,
  );
  expect(preview.rejected).toEqual([]);
  const pairs: TPairs = {};
  for (const row of preview.rows) if (row.status === "reconciled") pairs[row.row] = labelOf.get(row.matched_event_id!)!;
  return pairs;
}

/** The daily job's pairs for the same rows stored as import events: row number → event label. */
async function jobPairs(o: TReconciliationOwner, labelOf: Map<string, string>, rows: TRow[]): Promise<TPairs> {
  const lines = new Map<string, number>();
  for (const [i, row] of rows.entries()) {
    const id = await o.bankLine(`line_${i + 1}`, Math.abs(row.amount), row.day, {
      type: row.amount < 0 ? "expense" : "revenue",
      currency: row.currency,
      createdAt: LINES_STORED_AT,
      payload: { row: i + 1 },
    });
    lines.set(id, i + 1);
  }
  // One line per batch: the walk's cursor must keep the line order across batches too.
  const run = await reconcileImports(db, { now: NOW, ownerId: o.ownerId, batchLines: 1 });
  expect(run.complete).toBe(true);
  const pairs: TPairs = {};
  const stored = await db.financialEvent.findMany({ where: { id: { in: [...lines.keys()] }, reconciled: true } });
  for (const line of stored) {
    const { reconciles_event_id } = line.payload as { reconciles_event_id: string };
    pairs[lines.get(line.id)!] = labelOf.get(reconciles_event_id)!;
  }
  return pairs;
}

/** Both paths on the same rows and events: each makes `expected`. */
async function expectBothPaths(events: TEvent[], rows: TRow[], expected: TPairs | ((idOf: (label: string) => string) => TPairs)) {
  const { o, labelOf } = await ownerWith(events);
  const idOf = (label: string) => [...labelOf].find(([, l]) => l === label)![0];
  const want = typeof expected === "function" ? expected(idOf) : expected;
  expect(await previewPairs(o, labelOf, rows)).toEqual(want);
  expect(await jobPairs(o, labelOf, rows)).toEqual(want);
}

describe("the preview and the daily job make the same pairs", () => {
  it("two candidates of the same amount and day: the one created first", async () => {
    await expectBothPaths(
      [
        { label: "created_later", amount: 4_200, day: "2026-11-10", created: "2026-11-10T15:00:00Z" },
        { label: "created_first", amount: 4_200, day: "2026-11-10", created: "2026-11-10T09:00:00Z" },
      ],
      [{ amount: -4_200, day: "2026-11-10" }],
      { 1: "created_first" },
    );
  });

  it("two candidates of the same amount, day and creation time: the lower id", async () => {
    const created = "2026-11-10T09:00:00Z";
    await expectBothPaths(
      [
        { label: "twin_a", amount: 4_300, day: "2026-11-10", created },
        { label: "twin_b", amount: 4_300, day: "2026-11-10", created },
      ],
      [{ amount: -4_300, day: "2026-11-10" }],
      (idOf) => ({ 1: idOf("twin_a") < idOf("twin_b") ? "twin_a" : "twin_b" }),
    );
  });

  it("two candidates as far either side: the one created first, not the earlier date", async () => {
    await expectBothPaths(
      [
        { label: "day_before", amount: 4_400, day: "2026-11-09", created: "2026-11-12T10:00:00Z" },
        { label: "day_after", amount: 4_400, day: "2026-11-11", created: "2026-11-11T10:00:00Z" },
      ],
      [{ amount: -4_400, day: "2026-11-10" }],
      { 1: "day_after" },
    );
  });

  it("two rows of the same amount and day, one candidate: file order", async () => {
    await expectBothPaths(
      [{ label: "only", amount: 700, day: "2026-11-10", created: "2026-11-10T09:00:00Z" }],
      [
        { amount: -700, day: "2026-11-10" },
        { amount: -700, day: "2026-11-10" },
      ],
      { 1: "only" },
    );
  });

  it("two rows and two candidates, all of one amount and day: file order meets creation order", async () => {
    await expectBothPaths(
      [
        { label: "second", amount: 800, day: "2026-11-10", created: "2026-11-10T10:00:00Z" },
        { label: "first", amount: 800, day: "2026-11-10", created: "2026-11-10T09:00:00Z" },
      ],
      [
        { amount: -800, day: "2026-11-10" },
        { amount: -800, day: "2026-11-10" },
      ],
      { 1: "first", 2: "second" },
    );
  });

  it("the oldest line first, not the closest pair first", async () => {
    await expectBothPaths(
      [{ label: "on_13th", amount: 900, day: "2026-11-13", created: "2026-11-13T09:00:00Z" }],
      [
        { amount: -900, day: "2026-11-13" },
        { amount: -900, day: "2026-11-10" },
      ],
      { 2: "on_13th" },
    );
  });

  it("a chain: each line in turn takes its closest free candidate", async () => {
    await expectBothPaths(
      [
        { label: "on_12th", amount: 500, day: "2026-11-12", created: "2026-11-12T09:00:00Z" },
        { label: "on_13th", amount: 500, day: "2026-11-13", created: "2026-11-13T09:00:00Z" },
      ],
      [
        { amount: -500, day: "2026-11-12" },
        { amount: -500, day: "2026-11-11" },
        { amount: -500, day: "2026-11-10" },
      ],
      { 3: "on_12th", 2: "on_13th" },
    );
  });

  it("the window: 3 days pair, 4 do not", async () => {
    await expectBothPaths(
      [
        { label: "four_days", amount: 1_100, day: "2026-11-14", created: "2026-11-14T09:00:00Z" },
        { label: "three_days", amount: 1_200, day: "2026-11-07", created: "2026-11-07T09:00:00Z" },
      ],
      [
        { amount: -1_100, day: "2026-11-10" },
        { amount: -1_200, day: "2026-11-10" },
      ],
      { 2: "three_days" },
    );
  });

  it("the same direction of money, currency and amount", async () => {
    await expectBothPaths(
      [
        { label: "money_in", amount: 3_000, day: "2026-11-10", created: "2026-11-10T09:00:00Z", type: "revenue" },
        { label: "in_usd", amount: 3_100, day: "2026-11-10", created: "2026-11-10T09:00:00Z", currency: "USD" },
        { label: "other_amount", amount: 3_201, day: "2026-11-10", created: "2026-11-10T09:00:00Z" },
      ],
      [
        { amount: 3_000, day: "2026-11-10" },
        { amount: -3_000, day: "2026-11-10" },
        { amount: -3_100, day: "2026-11-10" },
        { amount: -3_200, day: "2026-11-10" },
      ],
      { 1: "money_in" },
    );
  });

  it("any integration's events but the bank lines' own; never one claimed or reconciled", async () => {
    const { o, labelOf } = await ownerWith([
      { label: "bank_feed", amount: 2_100, day: "2026-11-10", created: "2026-11-10T09:00:00Z", from: "generic" },
      { label: "claimed", amount: 2_200, day: "2026-11-10", created: "2026-11-10T09:00:00Z" },
      { label: "target", amount: 2_300, day: "2026-11-10", created: "2026-11-10T09:00:00Z" },
    ]);
    const idOf = (label: string) => [...labelOf].find(([, l]) => l === label)![0];
    // An earlier import's line claims one event; an integration event reconciles another (and is reconciled itself).
    await o.bankLine("earlier_line", 2_200, "2026-11-10", { payload: { reconciles_event_id: idOf("claimed") } });
    const reconciler = await o.payment("reconciler", 2_300, "2026-11-10", { payload: { reconciles_event_id: idOf("target") } });
    expect((await db.financialEvent.findUniqueOrThrow({ where: { id: reconciler } })).reconciled).toBe(true);
    const rows = [
      { amount: -2_100, day: "2026-11-10" },
      { amount: -2_200, day: "2026-11-10" },
      { amount: -2_300, day: "2026-11-10" },
    ];
    expect(await previewPairs(o, labelOf, rows)).toEqual({ 1: "bank_feed" });
    expect(await jobPairs(o, labelOf, rows)).toEqual({ 1: "bank_feed" });
  });
});
