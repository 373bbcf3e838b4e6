// The parser thread (statement-parser.ts): answers cross it as they left it (results, and
// AppErrors with their code and details), tasks queue in order, and a file that outgrows the
// thread's heap ends that thread with 413 (limit memory) while the next task gets a new one.
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error";
import { findPreset } from "./presets";
import { StatementParser } from "./statement-parser";

const generic = findPreset("generic")!;
const bytes = (text: string) => new TextEncoder().encode(text);
const statement = (rows: number) =>
  bytes(
    `Date,Amount,Currency,Description\n${Array.from({ length: rows }, (_, i) => `2026-01-02,-${i}.25,EUR,row ${i}`).join("\n")}`,
  );

const roomy = new StatementParser();
const tiny = new StatementParser(32);
afterAll(async () => {
  await roomy.close();
  await tiny.close();
});

describe("the statement parser thread", () => {
  it("inspects and parses off the request thread, in order", async () => {
    const [shape, read] = await Promise.all([
      roomy.run({ kind: "inspect", bytes: statement(3) }),
      roomy.run({ kind: "parse", bytes: statement(3), candidates: [{ preset: generic, currencyDefault: "EUR" }] }),
    ]);
    expect(shape).toMatchObject({ header: ["Date", "Amount", "Currency", "Description"], delimiter: ",", rows: 3 });
    expect(shape.signature).toMatch(/^[0-9a-f]{32}$/);
    expect(read.index).toBe(0);
    expect(read.parsed.total_rows).toBe(3);
    expect(read.parsed.rows[2]).toMatchObject({ row: 3, amount_minor: -225, currency: "EUR" });
  });

  it("sends refusals back as the AppError they were (415, 400 with the first fitting candidate's fall-through)", async () => {
    const pdf = bytes("%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n");
    const refused = await roomy.run({ kind: "inspect", bytes: pdf }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "unsupported_media_type" });

    // A mapping whose column is gone gives way to the next candidate.
    const read = await roomy.run({
      kind: "parse",
      bytes: statement(1),
      candidates: [
        { preset: generic, mapping: { columns: { date: "Gone" } }, currencyDefault: "EUR" },
        { preset: generic, currencyDefault: "EUR" },
      ],
    });
    expect(read.index).toBe(1);
  });

  it("refuses with 413 (limit memory) when a file outgrows the thread's heap, and starts a new thread for the next", async () => {
    const big = await tiny
      .run({ kind: "parse", bytes: statement(240_000), candidates: [{ preset: generic, currencyDefault: "EUR" }] })
      .catch((error: unknown) => error);
    expect(big).toBeInstanceOf(AppError);
    expect(big).toMatchObject({ code: "payload_too_large", details: { limit: "memory", max: 32 } });
    const after = await tiny.run({ kind: "inspect", bytes: statement(2) });
    expect(after.rows).toBe(2);
  });
});
