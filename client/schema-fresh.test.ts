// The committed client types are what the served document generates: the document is rendered
// again in memory (scripts/client-generate.ts, the generator `npm run client:generate` runs) and
// compared with the files in client/. A change to a procedure's schema or to the document that
// is not regenerated fails here, before a client meets it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_FILES, renderClientFiles } from "../scripts/client-generate";

const ROOT = path.resolve(import.meta.dirname, "..");

describe("the typed client's generated files", () => {
  it("equal what GET /v1/openapi.json generates now", async () => {
    const rendered = await renderClientFiles();
    expect(Object.keys(rendered).sort()).toEqual(Object.values(CLIENT_FILES).sort());
    for (const [file, text] of Object.entries(rendered)) {
      const committed = fs.existsSync(path.join(ROOT, file)) ? fs.readFileSync(path.join(ROOT, file), "utf8") : null;
      // Not toBe(text): a half-megabyte diff helps nobody; the message says what to do.
      if (committed !== text) {
        expect.fail(
          `${file} differs from what the served OpenAPI document generates: run \`npm run client:generate\` and commit it.`,
        );
      }
    }
  }, 120_000);
});
