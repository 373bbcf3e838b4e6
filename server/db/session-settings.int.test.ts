// The settings each engine's sessions open with (server/db/adapters.ts): PostgreSQL's pooled
// sessions sort in 16 MB (the SaaS metrics statement spilled to disk at the default 4 MB), and an
// on-disk PGlite keeps a 32 MB buffer pool (the default 128 MB stayed resident in the server
// process after a large import, past the restart test's 512 MB).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestDatabase, testEngine } from "../../test/helpers/database";
import { connectDatabase } from "./client";

describe("session settings", () => {
  it.runIf(testEngine() === "postgres")("PostgreSQL sessions have work_mem 16MB", async () => {
    const database = await createTestDatabase();
    try {
      const rows = await database.prisma.$queryRaw<Array<{ work_mem: string }>>`SHOW work_mem`;
      expect(rows[0]!.work_mem).toBe("16MB");
    } finally {
      await database.close();
    }
  });

  it.runIf(testEngine() === "pglite")("an on-disk PGlite opens with 32MB of shared buffers", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fbo-settings-"));
    try {
      const database = await connectDatabase({ engine: "pglite", dataDir: path.join(dir, "pglite") });
      try {
        const rows = await database.prisma.$queryRaw<Array<{ shared_buffers: string }>>`SHOW shared_buffers`;
        expect(rows[0]!.shared_buffers).toBe("32MB");
      } finally {
        await database.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
