// Runs `prisma generate` offline. The Prisma CLI insists on a native schema-engine binary
// before any command, and downloads one when it is missing; `generate` never uses it, so
// any existing file satisfies the check (see notes/prisma-offline.md).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(import.meta.url);
const result = spawnSync("npx", ["--no-install", "prisma", "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
