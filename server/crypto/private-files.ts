// Files at rest that hold secrets (DATA_DIR: the embedded database, generated keys) are the
// server user's alone: directories 0700, files 0600. Modes looser than that (an older version,
// a permissive umask, a copied directory) are tightened, never loosened.
import fs from "node:fs";
import { log } from "../log";

const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;
/** Permission bits for the group and others. */
const SHARED_BITS = 0o077;

/** Creates `dir` (and missing parents) 0700, or takes group and other access off an existing one. */
export function ensurePrivateDir(dir: string, options: { create?: boolean } = {}): void {
  if (options.create !== false) fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE);
}

/** Takes group and other access off an existing file (a missing one is left missing). */
export function ensurePrivateFile(file: string): void {
  tighten(file, PRIVATE_FILE_MODE);
}

function tighten(entry: string, mode: number): void {
  let current: number;
  try {
    current = fs.statSync(entry).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if ((current & SHARED_BITS) === 0) return;
  fs.chmodSync(entry, mode);
  log.info("tightened the mode of a private path", { path: entry, from: current.toString(8), to: mode.toString(8) });
}
