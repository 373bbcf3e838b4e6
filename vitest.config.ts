// Unit tests run once; integration tests (*.int.test.ts) run twice, on PGlite in process and on
// PostgreSQL over a real connection, because PGlite hides races that PostgreSQL shows.
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.dirname(new URL(import.meta.url).pathname);
const shared = { exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**"] };

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
      {
        extends: true,
        test: {
          ...shared,
          name: "pglite",
          include: ["**/*.int.test.ts"],
          env: { TEST_DB: "pglite" },
          globalSetup: ["test/setup/pglite-template.ts"],
        },
      },
      {
        extends: true,
        test: {
          ...shared,
          name: "postgres",
          include: ["**/*.int.test.ts"],
          env: { TEST_DB: "postgres" },
          globalSetup: ["test/setup/postgres-template.ts"],
        },
      },
    ],
  },
});
