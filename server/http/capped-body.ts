// A request body read with a hard size cap: the REST layer's (413 payload_too_large) and the
// OAuth endpoints', which answer OAuth's own error body around it.
import { AppError } from "../errors/app-error";

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
