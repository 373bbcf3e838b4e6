// Whether a ledger event is a bank line a statement import wrote: those can be corrected and
// voided like hand entries (issue 32). Other integrations' events (a generic webhook's are
// source IMPORT too) are restated by their source; the server decides, and refuses those (409).
import type { TEvent } from "@/server/ledger/event.schema";

/** A statement import's line: source IMPORT, payload.batch_id naming the import. */
export function isImportedLine(event: Pick<TEvent, "source_type" | "payload">): boolean {
  return event.source_type === "IMPORT" && typeof event.payload.batch_id === "string";
}
