// Splits an amount over allocation shares exactly: each part is amount × share_bps / 10000
// rounded down, and the minor units left over go one each to the parts with the largest
// remainders (ties: the earlier entry). The parts always sum to the whole, with no part more
// than one minor unit away from its exact share.
export const TOTAL_BPS = 10_000;

export type TAllocationShare = { projectId: string; shareBps: number };

/**
 * Allocations in THE order of a split: largest share first, then by project id. It is also the
 * tie-break order of the largest remainder, so a subscription's DTO and the read models (a
 * project's share of a charge) give every project the same part.
 */
export function sortAllocations<T extends TAllocationShare>(allocations: readonly T[]): T[] {
  return [...allocations].sort(
    (a, b) => b.shareBps - a.shareBps || (a.projectId < b.projectId ? -1 : a.projectId > b.projectId ? 1 : 0),
  );
}

export function distributeByBps(total: bigint, sharesBps: readonly number[]): bigint[] {
  if (sharesBps.length === 0) return [];
  const sum = sharesBps.reduce((a, b) => a + b, 0);
  if (sum !== TOTAL_BPS) throw new Error(`shares sum to ${sum} bps, not ${TOTAL_BPS}`);
  // A negative total splits like its absolute value, then every part takes the sign back.
  const negative = total < 0n;
  const whole = negative ? -total : total;
  const parts = sharesBps.map((bps) => {
    const exact = whole * BigInt(bps);
    return { floor: exact / BigInt(TOTAL_BPS), remainder: exact % BigInt(TOTAL_BPS) };
  });
  let leftover = whole - parts.reduce((acc, part) => acc + part.floor, 0n);
  const byRemainder = parts
    .map((part, index) => ({ index, remainder: part.remainder }))
    .sort((x, y) => (x.remainder === y.remainder ? x.index - y.index : x.remainder > y.remainder ? -1 : 1));
  const result = parts.map((part) => part.floor);
  for (const { index } of byRemainder) {
    if (leftover === 0n) break;
    result[index]! += 1n;
    leftover -= 1n;
  }
  return negative ? result.map((part) => -part) : result;
}
