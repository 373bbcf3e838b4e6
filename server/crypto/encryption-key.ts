// ENCRYPTION_KEY's format, checked at start (server/env.ts) and when the key is loaded.

/** ENCRYPTION_KEY's text as 32 bytes, or an error that says what is wrong with it. */
export function parseEncryptionKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64url");
  if (key.length !== 32) {
    throw new Error("ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or 43/44 base64 characters");
  }
  return key;
}
