// The direction of money in SQL (moneyDirectionSql) answers what the TypeScript rule
// (moneyDirection) answers, for every event type and every direction a row can hold, on
// PGlite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TTestDatabase } from "../test/helpers/database";
import { EVENT_TYPES } from "./event-types";
import { moneyDirection, moneyDirectionSql } from "./money-direction";

const TYPES = [...EVENT_TYPES, "future_type"];
const DIRECTIONS = [null, "in", "out", "sideways", ""];
const CASES = TYPES.flatMap((type) => DIRECTIONS.map((direction) => ({ type, direction })));

let db: TTestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe("moneyDirectionSql", () => {
  it("answers what moneyDirection answers, for every type and direction", async () => {
    const rows = await db.prisma.$queryRawUnsafe<Array<{ i: number; dir: string | null }>>(
      `SELECT ev.i, (${moneyDirectionSql("ev")}) AS dir
         FROM jsonb_to_recordset($1::jsonb) AS ev(i int, type text, direction text)
        ORDER BY ev.i`,
      JSON.stringify(CASES.map((c, i) => ({ i, ...c }))),
    );
    expect(rows).toHaveLength(CASES.length);
    for (const row of rows) {
      const { type, direction } = CASES[row.i]!;
      expect(row.dir, `${type}/${direction}`).toBe(moneyDirection(type, direction));
    }
  });
});
