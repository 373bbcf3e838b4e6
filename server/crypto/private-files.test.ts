// Files at rest: DATA_DIR and the embedded database's directory are the owner's alone (0700),
// generated key files 0600, and looser modes left by an older version are tightened at start.
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyTestEnv } from "../../test/helpers/api";
import { openTarget, targetFromEnv } from "../db/adapters";
import { getEnv } from "../env";
import { dataDirSecret, secureDataDir } from "./data-dir-secret";
import { encryptionKey } from "./secret-box";

let root: string;
let dataDir: string;

async function modeOf(file: string): Promise<number> {
  return (await stat(file)).mode & 0o777;
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "fbo-private-files-"));
  // A DATA_DIR that does not exist yet, as on a fresh clone (.data).
  dataDir = path.join(root, "data");
  applyTestEnv({ DATA_DIR: dataDir, DATABASE_URL: undefined, ENCRYPTION_KEY: undefined, AUTH_SECRET: undefined });
});
afterEach(async () => {
  applyTestEnv({ DATA_DIR: undefined });
  await rm(root, { recursive: true, force: true });
});

describe("files at rest", () => {
  it("creates DATA_DIR 0700 and a generated key file 0600", async () => {
    await encryptionKey();
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(path.join(dataDir, "encryption-key"))).toBe(0o600);
    await dataDirSecret("auth-secret");
    expect(await modeOf(path.join(dataDir, "auth-secret"))).toBe(0o600);
  });

  it("creates the embedded database's directory 0700, and DATA_DIR with it", async () => {
    const target = targetFromEnv(getEnv());
    const opened = await openTarget(target);
    try {
      expect("dataDir" in target && (await modeOf(target.dataDir))).toBe(0o700);
      expect(await modeOf(dataDir)).toBe(0o700);
    } finally {
      await opened.close();
    }
  });

  it("tightens looser modes left behind: DATA_DIR, the database directory and the key files", async () => {
    const pglite = path.join(dataDir, "pglite");
    await mkdir(pglite, { recursive: true, mode: 0o755 });
    await chmod(dataDir, 0o755);
    await chmod(pglite, 0o777);
    for (const name of ["auth-secret", "encryption-key"]) {
      await writeFile(path.join(dataDir, name), "x".repeat(43), { mode: 0o644 });
      await chmod(path.join(dataDir, name), 0o644);
    }

    secureDataDir(getEnv().dataDir);

    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(pglite)).toBe(0o700);
    expect(await modeOf(path.join(dataDir, "auth-secret"))).toBe(0o600);
    expect(await modeOf(path.join(dataDir, "encryption-key"))).toBe(0o600);
  });

  it("tightens a loose key file when it is read, too", async () => {
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    const file = path.join(dataDir, "auth-secret");
    await writeFile(file, "an-existing-secret-0123456789abcdefghijkl\n");
    await chmod(file, 0o666);

    expect(await dataDirSecret("auth-secret")).toBe("an-existing-secret-0123456789abcdefghijkl");
    expect(await modeOf(file)).toBe(0o600);
    expect(await modeOf(dataDir)).toBe(0o700);
  });

  it("leaves DATA_DIR alone when it does not exist (nothing to secure yet)", async () => {
    expect(() => secureDataDir(getEnv().dataDir)).not.toThrow();
  });
});
