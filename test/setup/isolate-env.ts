// Setup file of the integration projects, run again before each test file. They share one module
// graph per worker (isolate: false), so what a file writes to process.env (applyTestEnv, a
// top-level LOG_LEVEL) would reach the files after it: the env as it was before the file comes
// back after the file's own afterAll hooks (this hook is registered first, so it runs last), and
// the parsed copy in server/env.ts is dropped with it.
import { afterAll } from "vitest";
import { resetEnvForTests } from "../../server/env";

const before = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) {
    if (!(key in before)) delete process.env[key];
  }
  for (const [key, value] of Object.entries(before)) {
    if (process.env[key] !== value) process.env[key] = value;
  }
  resetEnvForTests();
});
