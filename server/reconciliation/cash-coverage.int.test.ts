// Cash coverage from the owner's last bank import (contract: Import rules 8).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TTestDatabase } from "../../test/helpers/database";
import { cashCoverage } from "./cash-coverage";
import { createReconciliationOwner } from "../../test/helpers/reconciliation";

process.env.LOG_LEVEL = "silent";

let database: TTestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

const HOUR = 60 * 60 * 1000;

describe("cashCoverage", () => {
  it("is missing without a bank import, then follows the age of the last one at the boundaries", async () => {
    const db = database.prisma;
    const owner = await db.owner.create({ data: { email: "never@example.test" } });
    expect(await cashCoverage(db, owner.id, new Date())).toEqual({ status: "missing", last_import_at: null });

    const o = await createReconciliationOwner(db);
    expect(await cashCoverage(db, o.ownerId, new Date())).toEqual({ status: "missing", last_import_at: null });
    const confirmedImport = (confirmedAt: Date | null) =>
      db.import.create({
        data: {
          ownerId: o.ownerId,
          businessId: o.businessId,
          preset: "generic",
          mapping: {},
          settings: {},
          fileBytes: 10,
          totalRows: 1,
          listedRows: 1,
          summary: {},
          proposals: [],
          status: confirmedAt ? "confirmed" : "previewed",
          confirmedAt,
          expiresAt: new Date(Date.now() + HOUR),
        },
      });
    // A preview that was never confirmed is no import.
    await confirmedImport(null);
    expect(await cashCoverage(db, o.ownerId, new Date())).toEqual({ status: "missing", last_import_at: null });
    const at = new Date("2026-11-20T10:00:00.000Z");
    await confirmedImport(new Date(at.getTime() - 2 * 24 * HOUR));
    await confirmedImport(at); // the newest counts
    const later = (ms: number) => new Date(at.getTime() + ms);
    const iso = at.toISOString();

    expect(await cashCoverage(db, o.ownerId, later(24 * HOUR - 1))).toEqual({ status: "mostly_covered", last_import_at: iso });
    expect(await cashCoverage(db, o.ownerId, later(24 * HOUR))).toEqual({ status: "incomplete", last_import_at: iso });
    expect(await cashCoverage(db, o.ownerId, later(7 * 24 * HOUR))).toEqual({ status: "incomplete", last_import_at: iso });
    expect(await cashCoverage(db, o.ownerId, later(7 * 24 * HOUR + 1))).toEqual({ status: "missing", last_import_at: iso });

    // Another integration's sync is no bank import.
    await o.payment("ch_1", 1_000, "2026-11-19");
    expect((await cashCoverage(db, o.ownerId, later(7 * 24 * HOUR + 1))).status).toBe("missing");
  });
});
