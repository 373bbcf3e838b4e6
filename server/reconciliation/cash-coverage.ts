// Coverage of the cash domain (contract: Import rules 8), from the owner's last bank import:
// the newest confirmed statement import (its confirmed_at).
//   age < 24 hours            → mostly_covered (a timestamp in the future counts as fresh)
//   24 hours ≤ age ≤ 7 days   → incomplete
//   older, or never imported  → missing
import type { TDbOrTx } from "../db/client";

export type TCashCoverageStatus = "mostly_covered" | "incomplete" | "missing";
export type TCashCoverage = { status: TCashCoverageStatus; last_import_at: string | null };

const HOUR_MS = 60 * 60 * 1000;
export const MOSTLY_COVERED_MS = 24 * HOUR_MS;
export const INCOMPLETE_MS = 7 * 24 * HOUR_MS;

/** The status for a last import time (pure, for the boundaries). */
export function coverageStatus(lastImportAt: Date | null, now: Date): TCashCoverageStatus {
  if (!lastImportAt) return "missing";
  const age = now.getTime() - lastImportAt.getTime();
  if (age < MOSTLY_COVERED_MS) return "mostly_covered";
  if (age <= INCOMPLETE_MS) return "incomplete";
  return "missing";
}

export async function cashCoverage(db: TDbOrTx, ownerId: string, now: Date = new Date()): Promise<TCashCoverage> {
  const last = await db.import.aggregate({ where: { ownerId, status: "confirmed" }, _max: { confirmedAt: true } });
  const lastImportAt = last._max.confirmedAt ?? null;
  return { status: coverageStatus(lastImportAt, now), last_import_at: lastImportAt ? lastImportAt.toISOString() : null };
}
