// `npm run test:fleet`: the fleet test (fleet.scenario.ts), on its own: it starts the whole
// fleet (scripts/fleet.mjs) against the PostgreSQL server at TEST_DATABASE_URL, so it is not a
// file of the main suite (vitest.config.ts). .ci/run runs it after `npm test`.
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

export default defineConfig({
  root,
  test: {
    include: ["test/fleet/**/*.scenario.ts"],
    testTimeout: 300_000,
    // Starting the fleet builds the app when the build is stale (minutes on a loaded machine).
    hookTimeout: 900_000,
    fileParallelism: false,
  },
});
