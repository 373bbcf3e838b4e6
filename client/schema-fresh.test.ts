// The committed client types are what the served document generates: the document is rendered
// again in memory (scripts/client-generate.ts, the generator `npm run client:generate` runs) and
// compared with the files in client/. A change to a procedure's schema or to the document that
// is not regenerated fails here, before a client meets it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_FILES, renderClientFiles } from "../scripts/client-generate";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Where two JSON values differ, as JSON pointers (the first 20): what a changed document changed. */
function jsonDifferences(before: unknown, after: unknown, pointer = "", found: string[] = []): string[] {
  if (found.length >= 20) return found;
  const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
  if (isRecord(before) && isRecord(after) && Array.isArray(before) === Array.isArray(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const next = `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      if (!(key in before)) found.push(`${next}: added`);
      else if (!(key in after)) found.push(`${next}: removed`);
      else jsonDifferences(before[key], after[key], next, found);
      if (found.length >= 20) break;
    }
  } else if (JSON.stringify(before) !== JSON.stringify(after)) {
    found.push(`${pointer}: ${JSON.stringify(before)?.slice(0, 80)} → ${JSON.stringify(after)?.slice(0, 80)}`);
  }
  return found;
}

describe("the typed client's generated files", () => {
  it("equal what GET /v1/openapi.json generates now", async () => {
    const rendered = await renderClientFiles();
    expect(Object.keys(rendered).sort()).toEqual(Object.values(CLIENT_FILES).sort());
    for (const [file, text] of Object.entries(rendered)) {
      const committed = fs.existsSync(path.join(ROOT, file)) ? fs.readFileSync(path.join(ROOT, file), "utf8") : null;
      // Not toBe(text): a half-megabyte diff helps nobody; the message says what to do.
      if (committed !== text) {
        const where =
          file.endsWith(".json") && committed
            ? `\n  ${jsonDifferences(JSON.parse(committed), JSON.parse(text)).join("\n  ")}`
            : "";
        expect.fail(
          `${file} differs from what the served OpenAPI document generates: run \`npm run client:generate\` and commit it.${where}`,
        );
      }
    }
  }, 120_000);
});
