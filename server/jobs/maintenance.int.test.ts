import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TTestDatabase } from "../../test/helpers/database";
import { runMaintenance } from "./maintenance";

let database: TTestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

describe("maintenance", () => {
  it("drops expired idempotency records, finished rate-limit windows and day-old login tokens, keeping live ones", async () => {
    const db = database.prisma;
    const now = new Date("2026-11-22T12:00:30Z");
    const record = (key: string, expiresAt: Date) => ({
      principal: "owner:x",
      key,
      method: "POST",
      path: "/v1/businesses",
      requestHash: "h",
      state: "completed",
      expiresAt,
    });
    await db.idempotencyRecord.createMany({
      data: [record("expired", new Date("2026-11-22T12:00:00Z")), record("live", new Date("2026-11-23T12:00:00Z"))],
    });
    await db.rateLimitBucket.createMany({
      data: [
        { key: "tok", windowStart: new Date("2026-11-22T11:50:00Z"), count: 5 },
        { key: "tok", windowStart: new Date("2026-11-22T12:00:00Z"), count: 5 },
      ],
    });
    await db.loginToken.createMany({
      data: [
        { identifier: "a@example.test", tokenHash: "old", expiresAt: new Date("2026-11-21T11:00:00Z") },
        { identifier: "a@example.test", tokenHash: "fresh", expiresAt: new Date("2026-11-22T12:10:00Z") },
      ],
    });
    expect(await runMaintenance(db, now)).toEqual({
      idempotencyRecords: 1,
      rateLimitBuckets: 1,
      loginTokens: 1,
      webhookDeliveries: 0,
      importSources: 0,
    });
    expect((await db.loginToken.findMany()).map((t) => t.tokenHash)).toEqual(["fresh"]);
    expect((await db.idempotencyRecord.findMany()).map((r) => r.key)).toEqual(["live"]);
    expect(await db.rateLimitBucket.count()).toBe(1);
  });
});

describe("maintenance of statement imports", () => {
  it("drops the file kept with a preview once it expired, keeping a live preview's", async () => {
    const db = database.prisma;
    const now = new Date("2026-11-22T12:00:30Z");
    const owner = await db.owner.create({ data: { email: "sweep-imports@example.test" } });
    const business = await db.business.create({ data: { ownerId: owner.id, name: "Sweep", currency: "EUR" } });
    const preview = (expiresAt: Date) => ({
      ownerId: owner.id,
      businessId: business.id,
      preset: "generic",
      mapping: {},
      settings: {},
      fileBytes: 4,
      totalRows: 0,
      listedRows: 0,
      summary: {},
      proposals: [],
      expiresAt,
      source: new Uint8Array([68, 97, 116, 101]),
    });
    const expired = await db.import.create({ data: preview(new Date("2026-11-22T12:00:00Z")) });
    const live = await db.import.create({ data: preview(new Date("2026-11-22T13:00:00Z")) });
    expect((await runMaintenance(db, now)).importSources).toBe(1);
    const sourceOf = async (id: string) => (await db.import.findUniqueOrThrow({ where: { id } })).source;
    expect(await sourceOf(expired.id)).toBeNull();
    expect(await sourceOf(live.id)).not.toBeNull();
  });
});
