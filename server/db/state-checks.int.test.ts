// The database knows its states (issue 33): every column of server/state-columns.ts has its
// CHECK constraint `<table>_<column>_check`, the constraint names exactly the values of the const
// array the zod schema reads, and a value outside the set is refused, on the engine of the run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TTestDatabase } from "../../test/helpers/database";
import { parseNullableState, parseState } from "../shared/parse-state";
import { STATE_COLUMNS, stateCheckName } from "../state-columns";

let database: TTestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);

afterAll(async () => {
  await database?.close();
});

/** The quoted literals of a constraint's definition, in order ('it''s' reads it's). */
function literals(definition: string): string[] {
  return [...definition.matchAll(/'((?:[^']|'')*)'/g)].map((match) => match[1]!.replaceAll("''", "'"));
}

describe("state CHECK constraints", () => {
  it("the table names each column once, and each value once", () => {
    const names = STATE_COLUMNS.map(stateCheckName);
    expect(new Set(names).size).toBe(names.length);
    for (const column of STATE_COLUMNS) {
      expect(column.values.length, stateCheckName(column)).toBeGreaterThan(0);
      expect(new Set(column.values).size, stateCheckName(column)).toBe(column.values.length);
    }
  });

  it("each constraint in pg_constraint allows exactly its const array", async () => {
    const rows = await database.prisma.$queryRaw<Array<{ table: string; name: string; definition: string }>>`
      SELECT rel.relname AS "table", con.conname AS name, pg_get_constraintdef(con.oid) AS definition
      FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid
      JOIN pg_namespace ns ON ns.oid = rel.relnamespace
      WHERE con.contype = 'c' AND ns.nspname = current_schema() AND con.conname LIKE '%\_check'`;
    const byName = new Map(rows.map((row) => [row.name, row]));
    for (const column of STATE_COLUMNS) {
      const name = stateCheckName(column);
      const row = byName.get(name);
      expect(row, `${name} exists`).toBeDefined();
      expect(row!.table).toBe(column.table);
      expect(row!.definition, name).toContain(column.column);
      expect(literals(row!.definition).sort(), name).toEqual([...column.values].sort());
    }
  });

  it("each column takes every value of its array and refuses one outside it", async () => {
    // A copy of each table with its CHECK constraints and no NOT NULL, so one column can be
    // written alone: the constraint itself, not another column's rule, decides.
    for (const table of new Set(STATE_COLUMNS.map((column) => column.table))) {
      const probe = `probe_${table}`;
      await database.prisma.$executeRawUnsafe(`CREATE TABLE "${probe}" (LIKE "${table}" INCLUDING CONSTRAINTS)`);
      const required = await database.prisma.$queryRaw<Array<{ column_name: string }>>`
        SELECT column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ${probe} AND is_nullable = 'NO'`;
      for (const { column_name } of required) {
        await database.prisma.$executeRawUnsafe(`ALTER TABLE "${probe}" ALTER COLUMN "${column_name}" DROP NOT NULL`);
      }
    }
    for (const column of STATE_COLUMNS) {
      const probe = `probe_${column.table}`;
      const name = stateCheckName(column);
      const inserted = await database.prisma.$executeRawUnsafe(
        `INSERT INTO "${probe}" ("${column.column}") VALUES ${column.values.map((_, i) => `($${i + 1})`).join(", ")}`,
        ...column.values,
      );
      expect(inserted, name).toBe(column.values.length);
      await expect(
        database.prisma.$executeRawUnsafe(`INSERT INTO "${probe}" ("${column.column}") VALUES ($1)`, "not_a_state"),
        name,
      ).rejects.toThrow(name);
    }
  });

  it("an insert into the real table with a value outside the set fails", async () => {
    await expect(
      database.prisma.owner.create({ data: { email: "state-check@example.com", plan: "enterprise" } }),
    ).rejects.toThrow("owners_plan_check");
    await expect(
      database.prisma.owner.create({ data: { email: "state-check@example.com", plan: "pro" } }),
    ).resolves.toMatchObject({
      plan: "pro",
    });
  });
});

describe("parseState", () => {
  const STATES = ["active", "archived"] as const;

  it("narrows a known value and throws on an unknown one", () => {
    const state: "active" | "archived" = parseState(STATES, "archived");
    expect(state).toBe("archived");
    expect(() => parseState(STATES, "deleted")).toThrow('Unknown state "deleted" (expected one of active, archived)');
    expect(parseNullableState(STATES, null)).toBeNull();
    expect(parseNullableState(STATES, "active")).toBe("active");
  });
});
