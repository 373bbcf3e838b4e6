// Unit tests run once; integration tests (*.int.test.ts) run twice, on PGlite in process and on
// PostgreSQL over a real connection, because PGlite hides races that PostgreSQL shows.
//
// Two groups, one after the other (sequence.groupOrder):
//   0. unit, pglite and postgres on two workers: most files are CPU-bound (PGlite runs in the
//      worker) or wait on the database, so a second worker uses the second core;
//   1. the files that start servers or time answers (SOLO_FILES), and the module-mocking files,
//      one at a time: beside another worker on a 2-core machine their deadlines measured the
//      neighbour, not the code (a 100,000-line restart must answer within 10 s; a 50,000-row
//      export within its 30 s).
import path from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const root = path.dirname(new URL(import.meta.url).pathname);
const shared = { exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**"] };

// Integration files that replace a module (vi.mock): in a shared module graph the real module
// may already be loaded by an earlier file, so these keep a fresh graph each.
const MOCKING_FILES = ["server/rest/rest-seam.int.test.ts", "server/ledger/events.int.test.ts"];

// Integration files that time real work (a server's start, cron slots, a large export): alone.
const SOLO_FILES = [
  "server/jobs/restart-large-import.int.test.ts",
  "server/jobs/reconciliation-job.int.test.ts",
  "server/jobs/daily-brief-job.int.test.ts",
  "server/jobs/dead-instance.int.test.ts",
  "server/ledger/ledger-search.int.test.ts",
];

/** Files of the first group run two at a time; those of the second, one at a time, after it. */
const PARALLEL = { groupOrder: 0, maxWorkers: 2 };
const ALONE = { groupOrder: 1, maxWorkers: 1 };

/**
 * An engine's projects: most files share one module graph per worker (importing the server
 * once instead of once per file was most of the run's time), process.env put back after each file
 * (test/setup/isolate-env.ts); the solo files share one graph in the second group; the
 * module-mocking files run isolated, on the same engine, in the second group too.
 */
function integrationProjects(engine: "pglite" | "postgres", globalSetup: string): TestProjectInlineConfiguration[] {
  const project = (
    name: string,
    files: { include: string[]; exclude?: string[] },
    run: { isolate: boolean; group: typeof PARALLEL },
  ): TestProjectInlineConfiguration => ({
    extends: true,
    test: {
      ...shared,
      env: { TEST_DB: engine },
      globalSetup: [globalSetup],
      setupFiles: ["test/setup/isolate-env.ts"],
      name,
      include: files.include,
      exclude: [...shared.exclude, ...(files.exclude ?? [])],
      isolate: run.isolate,
      maxWorkers: run.group.maxWorkers,
      sequence: { groupOrder: run.group.groupOrder },
    },
  });
  return [
    project(
      engine,
      { include: ["**/*.int.test.ts"], exclude: [...MOCKING_FILES, ...SOLO_FILES] },
      { isolate: false, group: PARALLEL },
    ),
    project(`${engine}-solo`, { include: SOLO_FILES }, { isolate: false, group: ALONE }),
    project(`${engine}-isolated`, { include: MOCKING_FILES }, { isolate: true, group: ALONE }),
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
          maxWorkers: PARALLEL.maxWorkers,
          sequence: { groupOrder: PARALLEL.groupOrder },
        },
      },
      ...integrationProjects("pglite", "test/setup/pglite-template.ts"),
      ...integrationProjects("postgres", "test/setup/postgres-template.ts"),
    ],
  },
});
