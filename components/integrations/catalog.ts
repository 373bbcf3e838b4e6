// The catalog as the panel reads it (integrations.catalog), and the words for its values.
import type { z } from "zod";
import type { ZOwnerCatalogEntry, ZSyncResult } from "@/server/integrations/integration.schema";

export type TCatalogEntry = z.infer<typeof ZOwnerCatalogEntry>;
export type TSyncResult = z.infer<typeof ZSyncResult>;

/** Providers connected with an account id in this version (mock connect, sync on demand). */
export function isAccountProvider(entry: TCatalogEntry): boolean {
  return entry.availability === "available" && entry.connect === "account";
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "Events: 2 inserted, 0 deduped, 0 rejected · Signals: …": what a sync brought in. */
export function describeSync(result: TSyncResult): string {
  return [
    `${plural(result.inserted, "event", "events")} inserted, ${result.deduped} deduped, ${result.rejected.length} rejected`,
    `${plural(result.signals_accepted, "signal", "signals")} accepted, ${result.signals_deduped} deduped`,
    `${plural(result.cash_snapshots_inserted, "cash snapshot", "cash snapshots")} inserted, ${result.cash_snapshots_deduped} deduped, ${result.cash_snapshots_rejected.length} rejected`,
  ].join(" · ");
}
