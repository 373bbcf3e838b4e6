// Secrets the embedded setup generates for itself: read from `${DATA_DIR}/<name>` or created
// there on first use (mode 0600, in a DATA_DIR of mode 0700), so links, sessions and
// encrypted rows survive restarts.
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { getEnv } from "../env";
import { log } from "../log";
import { ensurePrivateDir, ensurePrivateFile } from "./private-files";

/** The files dataDirSecret generates (auth.js's secret, the key for secrets at rest). */
export const AUTH_SECRET_FILE = "auth-secret";
export const ENCRYPTION_KEY_FILE = "encryption-key";
const GENERATED_FILES = [AUTH_SECRET_FILE, ENCRYPTION_KEY_FILE];
/** The embedded database's directory inside DATA_DIR (server/db/adapters.ts targetFromEnv). */
export const PGLITE_DIR = "pglite";

/**
 * At start: DATA_DIR and the embedded database's directory 0700, the generated key files
 * 0600, tightening whatever an older version (or a umask) left readable by others. A DATA_DIR
 * that does not exist yet is created private when first written.
 */
export function secureDataDir(dataDir: string): void {
  ensurePrivateDir(dataDir, { create: false });
  ensurePrivateDir(path.join(dataDir, PGLITE_DIR), { create: false });
  for (const name of GENERATED_FILES) ensurePrivateFile(path.join(dataDir, name));
}

const secrets = new Map<string, Promise<string>>();

/** The secret in `${DATA_DIR}/${name}`, generated (32 random bytes, base64url) when absent. */
export function dataDirSecret(name: string): Promise<string> {
  const file = path.join(getEnv().dataDir, name);
  let secret = secrets.get(file);
  if (!secret) {
    secret = readOrCreateSecret(file);
    secrets.set(file, secret);
    secret.catch(() => secrets.delete(file));
  }
  return secret;
}

async function readOrCreateSecret(file: string): Promise<string> {
  const read = async () => (await readFile(file, "utf8")).trim();
  ensurePrivateDir(path.dirname(file));
  try {
    const existing = await read();
    ensurePrivateFile(file);
    if (existing) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const generated = randomBytes(32).toString("base64url");
  try {
    // `wx`: of two processes creating it at once, one writes and the other reads its secret.
    await writeFile(file, `${generated}\n`, { mode: 0o600, flag: "wx" });
    log.info("generated a secret", { file });
    return generated;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return read();
    throw error;
  }
}
