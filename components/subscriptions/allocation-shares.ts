// A subscription's split over projects as the allocation editor types it: shares in percent
// (up to two decimals) converted exactly to basis points, and the amount each share stands for.
// No React: unit-tested in allocation-shares.test.ts.
import { formatMinor } from "@/lib/money";

/** "60" → 6000, "33.33" → 3333, "" → 0; null when it is not a percentage with at most two decimals. */
export function percentToBps(text: string): number | null {
  const value = text.trim().replace(/\s/g, "");
  if (value === "") return 0;
  const match = /^(\d{1,3})(?:[.,](\d{0,2}))?$/.exec(value);
  if (!match) return null;
  const bps = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return bps > 10_000 ? null : bps;
}

/** 6000 → "60.00", 3333 → "33.33". */
export function bpsToPercent(bps: number): string {
  return `${Math.trunc(bps / 100)}.${String(bps % 100).padStart(2, "0")}`;
}

/**
 * The amount of a share: the server's exact split (largest remainder, so the parts add up to the
 * whole) for a share as saved; for a share being edited, an estimate marked as such.
 */
export function shareAmount(
  subscription: {
    amount_minor: number | null;
    currency: string;
    allocations: Array<{ project_id: string; share_bps: number; amount_minor: number | null }>;
  },
  projectId: string,
  bps: number,
): string {
  const saved = subscription.allocations.find((allocation) => allocation.project_id === projectId);
  if (saved?.share_bps === bps) return formatMinor(saved.amount_minor, subscription.currency);
  if (subscription.amount_minor === null) return "—";
  return `≈ ${formatMinor(Number((BigInt(subscription.amount_minor) * BigInt(bps)) / 10_000n), subscription.currency)}`;
}
