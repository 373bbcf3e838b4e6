// Reading request bodies with a hard size cap, and the text rule of query strings. The JSON rules
// every /v1 body follows are server/http/json-body.ts (webhook receivers apply them too).
import { AppError } from "../errors/app-error";
import { unsafeTextReason } from "../shared/safe-text";

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** The raw body, refused with 413 once it passes `maxBytes` (declared or streamed). */
export async function readBodyCapped(req: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length"));
  const tooLarge = () =>
    new AppError("payload_too_large", `The request body exceeds ${maxBytes} bytes.`, { details: { max_bytes: maxBytes } });
  if (declared > maxBytes) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Query parameters are text too: a NUL in a name or value is 400 naming the parameter. */
export function assertSafeQuery(query: URLSearchParams): void {
  for (const [name, value] of query) {
    const reason = unsafeTextReason(name) ?? unsafeTextReason(value);
    if (reason) {
      const path = JSON.stringify(name).slice(1, -1) || "(query)";
      throw new AppError("validation_error", `${path}: ${reason}`, {
        details: { issues: [{ path, code: "unsafe_text", message: reason }] },
      });
    }
  }
}
