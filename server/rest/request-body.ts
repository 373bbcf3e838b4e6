// Reading request bodies with a hard size cap, and the text rule of query strings. The JSON rules
// every /v1 body follows are server/http/json-body.ts (webhook receivers apply them too).
import { AppError } from "../errors/app-error";
import { unsafeTextReason } from "../shared/safe-text";

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

export { readBodyCapped } from "../http/capped-body";

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
