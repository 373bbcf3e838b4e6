// POST /v1/imports/{id}/revert (issue 32, pinned-wave3 §1.2): a wrong import undone. A 60,000-row
// statement reverted leaves every read model as it was before the import; a second revert is
// 409; another owner's import 404; lines the owner corrected or voided are skipped with their
// reason and the correction stays; reconciled lines lose their link, so their hand entries can be
// matched again; the subscriptions it created stay. Atomic: a revert that dies before it commits
// leaves the import confirmed and every line as it was, and the same request then reverts it
// whole. On PGlite and on PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayUtc } from "../../lib/days";
import { fixedClock } from "../shared/clock";
import { callMultipart, createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { readModels } from "../../test/helpers/read-models";
import { seedAgent, seedBusiness, seedEvent, seedOwner, type TSeedOwner } from "../../test/helpers/seed";
import type { TCaller } from "../auth/caller";
import { inTransaction } from "../db/transaction";
import { revertImport } from "./import-revert";

let api: TTestApi;
beforeAll(async () => {
  // One instant for the whole file: a run across midnight UTC must not read "before" on one day
  // and "after" on the next (the forecast's days moved by one and the comparison failed).
  api = await createTestApi({ clock: CLOCK });
});
afterAll(async () => api?.close());

const CLOCK = fixedClock(new Date());
const TODAY = todayUtc(CLOCK.now());
const daysAgo = (days: number) => addDays(TODAY, -days);
const PERIOD = { from: daysAgo(80), to: TODAY };

type TWorld = { owner: TSeedOwner; businessId: string };

async function newOwner(): Promise<TWorld> {
  const owner = await seedOwner(api);
  await api.db.owner.update({ where: { id: owner.ownerId }, data: { baseCurrency: "EUR" } });
  const businessId = (await seedBusiness(api, { name: "Shop", currency: "EUR" }, owner.token)).id;
  return { owner, businessId };
}

async function importStatement(world: TWorld, csv: string, confirmBody: Record<string, unknown> = {}) {
  const uploaded = await callMultipart(
    api.handler,
    "/v1/imports",
    { fields: { business_id: world.businessId }, file: { bytes: csv, name: "statement.csv" } },
    { token: world.owner.token },
  );
  expect(uploaded.status, uploaded.text).toBe(200);
  const importId = uploaded.body.data.import_id as string;
  const confirmed = await api.call("POST", `/v1/imports/${importId}/confirm`, { token: world.owner.token, body: confirmBody });
  expect(confirmed.status, confirmed.text).toBe(201);
  return { importId, preview: uploaded.body.data.preview, result: confirmed.body.data };
}

const revert = (world: TWorld, importId: string, token = world.owner.token) =>
  api.call("POST", `/v1/imports/${importId}/revert`, { token, body: {} });

const linesOf = (importId: string) =>
  api.db.financialEvent.findMany({ where: { payload: { path: ["batch_id"], equals: importId } } });

describe("POST /v1/imports/{id}/revert", () => {
  it(
    "reverts a 60,000-row import: every read model is as before it; a second revert is 409",
    { timeout: 10 * 60_000 },
    async () => {
      const world = await newOwner();
      // Money entered by hand before: three of the statement's rows match it.
      for (const [amount, day] of [
        [1_111, daysAgo(5)],
        [2_222, daysAgo(6)],
        [3_333, daysAgo(7)],
      ] as const)
        await seedEvent(
          api,
          "expense",
          { business_id: world.businessId, amount_minor: amount, currency: "EUR", occurred_on: day },
          world.owner.token,
        );
      const before = await readModels(api, world.owner.token, { businessId: world.businessId, ...PERIOD });

      const tag = randomUUID().slice(0, 8);
      const rows = ["Date,Amount,Currency,Description"];
      for (let i = 0; i < 60_000; i++) {
        const amount = i % 7 === 0 ? 250 + (i % 5000) : -(100 + (i % 9000));
        rows.push(`${daysAgo(10 + (i % 60))},${(amount / 100).toFixed(2)},EUR,Line ${i} ${tag}`);
      }
      rows.push(
        `${daysAgo(5)},-11.11,EUR,Hand ${tag}`,
        `${daysAgo(6)},-22.22,EUR,Hand ${tag}`,
        `${daysAgo(8)},-33.33,EUR,Hand ${tag}`,
      );
      const { importId, result } = await importStatement(world, rows.join("\n"));
      expect(result).toMatchObject({ inserted: 60_003, reconciled: 3 });
      expect(await readModels(api, world.owner.token, { businessId: world.businessId, ...PERIOD })).not.toEqual(before);

      const started = Date.now();
      const reverted = await revert(world, importId);
      const took = Date.now() - started;
      expect(reverted.status, reverted.text).toBe(200);
      expect(reverted.body.data).toMatchObject({
        import_id: importId,
        voided: 60_003,
        skipped: [],
        skipped_count: 0,
        reconciliations_undone: 3,
        subscriptions_kept: [],
      });
      console.log(`revert of 60,003 lines: ${took} ms`);
      expect(await readModels(api, world.owner.token, { businessId: world.businessId, ...PERIOD })).toEqual(before);
      expect(
        await api.db.financialEvent.count({ where: { payload: { path: ["batch_id"], equals: importId }, status: "confirmed" } }),
      ).toBe(0);

      const audit = await api.db.auditEntry.findFirstOrThrow({ where: { action: "import.reverted", targetId: importId } });
      expect(audit.details).toEqual({ voided: 60_003, skipped: 0, reconciliations_undone: 3, subscriptions_kept: 0 });
      const got = await api.call("GET", `/v1/imports/${importId}`, { token: world.owner.token });
      expect(got.body.data).toMatchObject({ status: "reverted", reverted_at: reverted.body.data.reverted_at });

      expectApiError(await revert(world, importId), 409, "state_conflict", { details: { status: "reverted" } });
    },
  );

  it("skips lines corrected or voided since (the correction stays), undoes links, keeps subscriptions", async () => {
    const world = await newOwner();
    const hand = await seedEvent(
      api,
      "revenue",
      { business_id: world.businessId, amount_minor: 50_000, currency: "EUR", occurred_on: daysAgo(20) },
      world.owner.token,
    );
    const tag = randomUUID().slice(0, 8);
    const csv = [
      "Date,Amount,Currency,Description",
      `${daysAgo(19)},500.00,EUR,Invoice ${tag}`,
      `${daysAgo(18)},-12.00,EUR,Coffee ${tag}`,
      `${daysAgo(17)},-13.00,EUR,Taxi ${tag}`,
      `${daysAgo(16)},-14.00,EUR,Lunch ${tag}`,
      ...[90, 60, 30].map((d) => `${daysAgo(d)},-9.99,EUR,Music ${tag}`),
    ].join("\n");
    const { importId, preview, result } = await importStatement(world, csv, { accept_proposals: [0] });
    expect(preview.proposals).toHaveLength(1);
    expect(result.subscriptions_created).toHaveLength(1);
    const lines = await linesOf(importId);
    const line = (row: number) => lines.find((l) => (l.payload as Record<string, unknown>).row === row)!;
    expect(line(1).reconciled).toBe(true);

    const corrected = await api.call("POST", `/v1/events/${line(2).id}/correct`, {
      token: world.owner.token,
      body: { amount_minor: 1_250, category: "Food" },
    });
    expect(corrected.status, corrected.text).toBe(201);
    const voided = await api.call("POST", `/v1/events/${line(3).id}/void`, { token: world.owner.token, body: {} });
    expect(voided.status, voided.text).toBe(200);

    const reverted = await revert(world, importId);
    expect(reverted.status, reverted.text).toBe(200);
    expect(reverted.body.data).toMatchObject({
      voided: 5,
      skipped: [
        { event_id: line(2).id, reason: "corrected" },
        { event_id: line(3).id, reason: "voided" },
      ],
      skipped_count: 2,
      reconciliations_undone: 1,
      subscriptions_kept: result.subscriptions_created,
    });
    // The owner's correction is theirs: it stays and counts.
    expect(await api.db.financialEvent.findUniqueOrThrow({ where: { id: corrected.body.data.id } })).toMatchObject({
      status: "confirmed",
      sourceType: "MANUAL",
    });
    const unlinked = await api.db.financialEvent.findUniqueOrThrow({ where: { id: line(1).id } });
    expect(unlinked).toMatchObject({ status: "voided", reconciled: false });
    expect(unlinked.payload).toMatchObject({ reverted_reconciles_event_id: hand.id });
    expect(unlinked.payload).not.toHaveProperty("reconciles_event_id");
    expect(await api.db.subscription.count({ where: { id: { in: result.subscriptions_created } } })).toBe(1);

    // The same statement can be imported again: its reverted lines are new (the hand entry is free
    // and matched again), the lines the owner corrected or voided are already imported.
    const again = await callMultipart(
      api.handler,
      "/v1/imports",
      { fields: { business_id: world.businessId }, file: { bytes: csv } },
      { token: world.owner.token },
    );
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.preview.rows.map((row: { status: string }) => row.status)).toEqual([
      "reconciled",
      "already",
      "already",
      "new",
      "new",
      "new",
      "new",
    ]);
    expect(again.body.data.preview.rows[0]).toMatchObject({ matched_event_id: hand.id });
    expect(unlinked.externalId).toBe(`${line(1).externalId}~reverted:${importId}`);
    const reimported = await api.call("POST", `/v1/imports/${again.body.data.import_id}/confirm`, {
      token: world.owner.token,
      body: {},
    });
    expect(reimported.body.data).toMatchObject({ inserted: 5, deduped: 2, reconciled: 1 });
  });

  it("is 404 for another owner's import, 409 for a preview, and owner-only", async () => {
    const world = await newOwner();
    const stranger = await newOwner();
    const { importId } = await importStatement(
      world,
      `Date,Amount,Currency,Description\n${daysAgo(3)},-1.00,EUR,X ${randomUUID()}`,
    );
    expectApiError(await revert(world, importId, stranger.owner.token), 404, "not_found");
    expectApiError(await revert(world, randomUUID()), 404, "not_found");
    const preview = await callMultipart(
      api.handler,
      "/v1/imports",
      {
        fields: { business_id: world.businessId },
        file: { bytes: `Date,Amount,Currency,Description\n${daysAgo(3)},-2.00,EUR,Y` },
      },
      { token: world.owner.token },
    );
    expectApiError(await revert(world, preview.body.data.import_id), 409, "state_conflict", { details: { status: "previewed" } });
    const agent = await seedAgent(api, {}, world.owner.token);
    expectApiError(await revert(world, importId, agent.token), 403, "scope_denied");
    expect((await linesOf(importId)).every((l) => l.status === "confirmed")).toBe(true);
  });

  it("is atomic: a revert that dies before it commits changes nothing, and the same request then reverts it whole", async () => {
    const world = await newOwner();
    const rows = Array.from({ length: 1_200 }, (_, i) => `${daysAgo(1 + (i % 30))},-${1 + i}.00,EUR,Row ${i} ${randomUUID()}`);
    const { importId } = await importStatement(world, ["Date,Amount,Currency,Description", ...rows].join("\n"));
    const { ownerId } = world.owner;
    const caller: TCaller = {
      ownerId,
      actor: { type: "owner", ownerId, credential: "static", tokenKey: "revert" },
      requestId: "req_revert",
      now: new Date(),
    };

    // The process dies after the voids, before the commit: the transaction never commits.
    const died = new Error("the instance died");
    await expect(
      inTransaction(api.db, async (tx) => {
        const answer = await revertImport(tx, caller, importId);
        expect(answer.voided).toBe(1_200);
        throw died;
      }),
    ).rejects.toBe(died);
    expect(await api.db.import.findUniqueOrThrow({ where: { id: importId } })).toMatchObject({
      status: "confirmed",
      revertedAt: null,
    });
    expect((await linesOf(importId)).filter((l) => l.status === "confirmed")).toHaveLength(1_200);
    expect(await api.db.auditEntry.count({ where: { action: "import.reverted", targetId: importId } })).toBe(0);

    // The client sends its request again with the same Idempotency-Key.
    const key = randomUUID();
    const first = await api.call("POST", `/v1/imports/${importId}/revert`, {
      token: world.owner.token,
      body: {},
      idempotencyKey: key,
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.voided).toBe(1_200);
    const replay = await api.call("POST", `/v1/imports/${importId}/revert`, {
      token: world.owner.token,
      body: {},
      idempotencyKey: key,
    });
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual(first.body.data);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });
});
