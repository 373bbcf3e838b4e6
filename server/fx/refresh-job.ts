// The scheduled FX refresh. For FX_SOURCE=ecb: every hour, until today's rates are stored
// (the ECB publishes around 16:00 CET on TARGET days; on other days the feed still shows the
// last day, already stored, and nothing is written) — in effect once a day. The upsert is
// idempotent, so several instances doing it at once is harmless. mock: nothing to do (its
// fixed table is read directly). The job itself is server/jobs/fx-refresh.ts.
import { todayUtc } from "../../lib/days";
import type { TDbOrTx } from "../db/client";
import { getFxProvider } from "./providers";
import type { TFxProvider } from "./providers/types";
import { hasRatesFor, refreshRates } from "./rate-store";

export const FX_REFRESH_INTERVAL_MS = 60 * 60 * 1000;

export async function runFxRefresh(db: TDbOrTx, now = new Date(), provider: TFxProvider = getFxProvider()) {
  if (provider.lookup !== "stored") return { skipped: "fixed source" as const };
  const today = todayUtc(now);
  if (await hasRatesFor(db, provider.source, today)) return { skipped: "already stored" as const };
  return refreshRates(db, provider, today);
}
