// Secrets at rest (integration signing secrets, provider credentials, OAuth refresh tokens):
// AES-256-GCM with ENCRYPTION_KEY. Stored form: version byte | 12-byte IV | 16-byte tag |
// ciphertext, so a key or algorithm change can be told apart later. The key is 32 bytes
// given as base64/base64url (44/43 characters) or hex (64); when unset on the embedded
// database it is generated into `${DATA_DIR}/encryption-key`; on PostgreSQL it is required
// (instances share the database, so they must share the key).
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { getEnv, parseEncryptionKey } from "../env";
import { dataDirSecret, ENCRYPTION_KEY_FILE } from "./data-dir-secret";

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

let cachedKey: { source: string; key: Promise<Buffer> } | undefined;

async function loadKey(): Promise<Buffer> {
  const env = getEnv();
  if (env.ENCRYPTION_KEY) return parseEncryptionKey(env.ENCRYPTION_KEY);
  if (env.DATABASE_URL)
    throw new Error("ENCRYPTION_KEY is required when DATABASE_URL is set (every instance needs the same key)");
  return parseEncryptionKey(await dataDirSecret(ENCRYPTION_KEY_FILE));
}

/** The key, read once per configuration (tests change ENCRYPTION_KEY / DATA_DIR between cases). */
export function encryptionKey(): Promise<Buffer> {
  const env = getEnv();
  const source = `${env.ENCRYPTION_KEY ?? ""}|${env.DATABASE_URL ? "pg" : env.dataDir}`;
  if (cachedKey?.source !== source) {
    const key = loadKey();
    cachedKey = { source, key };
    key.catch(() => {
      if (cachedKey?.key === key) cachedKey = undefined;
    });
  }
  return cachedKey.key;
}

export async function encryptSecret(plaintext: string): Promise<Uint8Array<ArrayBuffer>> {
  const key = await encryptionKey();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const out = new Uint8Array(new ArrayBuffer(1 + IV_BYTES + TAG_BYTES + body.length));
  out[0] = VERSION;
  out.set(iv, 1);
  out.set(cipher.getAuthTag(), 1 + IV_BYTES);
  out.set(body, 1 + IV_BYTES + TAG_BYTES);
  return out;
}

/** Throws when the bytes were not written by encryptSecret with this key (GCM authenticates them). */
export async function decryptSecret(stored: Uint8Array): Promise<string> {
  const bytes = Buffer.from(stored);
  if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) throw new Error("not an encrypted secret");
  const key = await encryptionKey();
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(1, 1 + IV_BYTES));
  decipher.setAuthTag(bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}

export async function encryptJson(value: Record<string, unknown>): Promise<Uint8Array<ArrayBuffer>> {
  return encryptSecret(JSON.stringify(value));
}

export async function decryptJson<T = Record<string, unknown>>(stored: Uint8Array): Promise<T> {
  return JSON.parse(await decryptSecret(stored)) as T;
}

/** A key for another purpose (e.g. signing OAuth state), derived so it never equals the encryption key. */
export async function derivedKey(purpose: string): Promise<Buffer> {
  return createHmac("sha256", await encryptionKey())
    .update(`finance-back-office:${purpose}`)
    .digest();
}
