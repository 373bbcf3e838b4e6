// The layer rules of eslint.config.mjs bite: each deliberate violation below, linted with the
// project's own configuration as if it were a file of the project, fails `npm run lint`, and the
// allowed neighbour of each passes. Nothing is written to disk.
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const projectRoot = path.resolve(import.meta.dirname, "../..");
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: projectRoot });
});

/** The messages of `ruleId` for `code` linted as the file `file`. */
async function problems(file: string, code: string, ruleId: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(projectRoot, file) });
  return result!.messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

describe("the layer order (no-restricted-imports)", () => {
  it("refuses a domain importing the REST layer, and lets its routes.ts import the plain-route kit only", async () => {
    const fromService = await problems(
      "server/ledger/new-rule.ts",
      `export { toResponse } from "../rest/outcome";\n`,
      "no-restricted-imports",
    );
    expect(fromService.join()).toMatch(/Domains never import the REST layer/);
    expect(
      await problems(
        "server/ledger/new-rule.ts",
        `export { toResponse } from "@/server/rest/outcome";\n`,
        "no-restricted-imports",
      ),
    ).toHaveLength(1);

    const kit = `import type { TPlainRoute } from "../rest/plain-route";\nimport { envelopeOutcome } from "../rest/outcome";\nexport const r: TPlainRoute[] = [];\nexport const o = envelopeOutcome;\n`;
    expect(await problems("server/ledger/routes.ts", kit, "no-restricted-imports")).toEqual([]);
    const beyondKit = `export { runIdempotent } from "../rest/idempotency";\n`;
    expect((await problems("server/ledger/routes.ts", beyondKit, "no-restricted-imports")).join()).toMatch(
      /plain route imports rest\/plain-route/,
    );
  });

  it("refuses env.ts importing anything of the project, and the foundation importing a domain", async () => {
    expect((await problems("server/env.ts", `export { todayUtc } from "./fx/money";\n`, "no-restricted-imports")).join()).toMatch(
      /lowest layer/,
    );
    expect(
      (
        await problems(
          "server/db/new-helper.ts",
          `export { recordAudit } from "../audit/audit-service";\n`,
          "no-restricted-imports",
        )
      ).join(),
    ).toMatch(/foundation/);
  });

  it("refuses a domain importing an entry point or a composition root", async () => {
    expect(
      await problems("server/fx/new-job.ts", `export { JOBS } from "../jobs/registry";\n`, "no-restricted-imports"),
    ).toHaveLength(1);
    expect(
      await problems("server/fx/new-caller.ts", `export { appRouter } from "../router";\n`, "no-restricted-imports"),
    ).toHaveLength(1);
  });

  it("lets lib/ import a type from server/, and nothing else", async () => {
    expect(
      await problems(
        "lib/new-client.ts",
        `import type { TAppRouter } from "@/server/router";\nexport type T = TAppRouter;\n`,
        "no-restricted-imports",
      ),
    ).toEqual([]);
    expect(
      (await problems("lib/new-client.ts", `export { appRouter } from "@/server/router";\n`, "no-restricted-imports")).join(),
    ).toMatch(/lib\//);
    expect(
      await problems("lib/new-client.ts", `export { default } from "@/app/layout";\n`, "no-restricted-imports"),
    ).toHaveLength(1);
  });
});

describe("import cycles", () => {
  it("names a folder cycle (local/import-cycles), while today's folders have none", async () => {
    // access/write-pipeline.ts imports approvals/: an approvals file importing access/ closes a cycle.
    const [message] = await problems(
      "server/approvals/new-step.ts",
      `export { performWrite } from "../access/write-pipeline";\n`,
      "local/import-cycles",
    );
    expect(message).toMatch(/^Folder import cycle: server\/approvals → server\/access → server\/approvals\./);
    expect(message).toMatch(/server\/access\/write-pipeline\.ts imports server\/approvals\//);
    // The other way round is the layer order: no problem.
    expect(
      await problems(
        "server/access/new-step.ts",
        `export { createApproval } from "../approvals/approval-service";\n`,
        "local/import-cycles",
      ),
    ).toEqual([]);
  });

  it("names a file cycle (local/import-cycles)", async () => {
    // A procedure imports its .types.ts: the types importing the procedure back is a cycle of files.
    const code = `import { createBusinessRoute } from "./create-business";\nexport const route = createBusinessRoute;\n`;
    expect(await problems("server/businesses/create-business.types.ts", code, "local/import-cycles")).toEqual([
      "Import cycle: server/businesses/create-business.types.ts → server/businesses/create-business.ts → server/businesses/create-business.types.ts. Move what both need into a third module, or one of them.",
    ]);
  });
});
