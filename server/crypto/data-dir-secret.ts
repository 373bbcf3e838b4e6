// Secrets the embedded setup generates for itself: read from `${DATA_DIR}/<name>` or created
// there on first use (mode 0600), so links, sessions and encrypted rows survive restarts.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { getEnv } from "../env";
import { log } from "../log";

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
  try {
    const existing = await read();
    if (existing) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(path.dirname(file), { recursive: true });
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
