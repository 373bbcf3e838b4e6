// The bounds every statement is read within (pinned-wave3 §1.5): past any of them the upload is
// 413 payload_too_large with `details: { limit, max }` and nothing is stored. They are what keeps
// one 10 MB file (a million tiny rows, one 10 MB line, 200,000 columns) from holding the server's
// memory or CPU: each is checked while the file streams through the reader, before anything is
// kept per row.
import { AppError } from "../errors/app-error";

/** Data rows of one statement (a year of a busy account is ~50,000). */
export const STATEMENT_MAX_ROWS = 250_000;
/** Cells of one row, the header's included (bank exports have 5 to 40). */
export const STATEMENT_MAX_COLUMNS = 200;
/** Bytes of one physical line (between line breaks), before decoding. */
export const STATEMENT_MAX_LINE_BYTES = 64 * 1024;

/** Which bound a refused statement passed: `memory` when the parser ran out of its own heap. */
export type TStatementLimit = "rows" | "columns" | "line_bytes" | "memory";

export function statementTooLarge(limit: TStatementLimit, max: number, what: string): AppError {
  return new AppError("payload_too_large", `${what}; split the statement or export a shorter period.`, {
    details: { limit, max },
  });
}

/** 413 at the first line longer than STATEMENT_MAX_LINE_BYTES (CR, LF or CRLF end a line). */
export function assertLineLengths(bytes: Uint8Array): void {
  let start = 0;
  const end = bytes.length;
  for (let i = 0; i <= end; i++) {
    if (i === end || bytes[i] === 0x0a || bytes[i] === 0x0d) {
      if (i - start > STATEMENT_MAX_LINE_BYTES) {
        throw statementTooLarge(
          "line_bytes",
          STATEMENT_MAX_LINE_BYTES,
          `A line of the statement is longer than ${STATEMENT_MAX_LINE_BYTES} bytes`,
        );
      }
      start = i + 1;
    }
  }
}
