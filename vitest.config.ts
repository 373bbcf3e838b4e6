// Unit tests run once; integration tests (*.int.test.ts) run twice, on PGlite in process and on
// PostgreSQL over a real connection, because PGlite hides races that PostgreSQL shows.
import path from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const root = path.dirname(new URL(import.meta.url).pathname);
const shared = { exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**"] };

// Integration files that replace a module (vi.mock): in a shared module graph the real module
// may already be loaded by an earlier file, so these keep a fresh graph each.
const MOCKING_FILES = ["server/rest/rest-seam.int.test.ts", "server/ledger/events.int.test.ts"];

/**
 * An engine's two projects: most files share one module graph per worker (importing the server
 * once instead of once per file was most of the run's time), process.env put back after each file
 * (test/setup/isolate-env.ts); the module-mocking files run isolated, on the same engine.
 */
function integrationProjects(engine: "pglite" | "postgres", globalSetup: string): TestProjectInlineConfiguration[] {
  const test = {
    ...shared,
    env: { TEST_DB: engine },
    globalSetup: [globalSetup],
    setupFiles: ["test/setup/isolate-env.ts"],
  };
  return [
    {
      extends: true,
      test: {
        ...test,
        name: engine,
        include: ["**/*.int.test.ts"],
        exclude: [...shared.exclude, ...MOCKING_FILES],
        isolate: false,
      },
    },
    { extends: true, test: { ...test, name: `${engine}-isolated`, include: MOCKING_FILES, isolate: true } },
  ];
}

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // next-auth imports next/server without an extension, which only a bundler resolves.
    server: { deps: { inline: ["next-auth"] } },
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: "unit",
          include: ["**/*.test.ts"],
          exclude: [...shared.exclude, "**/*.int.test.ts"],
          // Unit tests hold no process state between files, so one module graph serves them all:
          // 84 files in 32 s instead of 106 s, most of which was importing the same modules again.
          isolate: false,
        },
      },
      ...integrationProjects("pglite", "test/setup/pglite-template.ts"),
      ...integrationProjects("postgres", "test/setup/postgres-template.ts"),
    ],
  },
});
