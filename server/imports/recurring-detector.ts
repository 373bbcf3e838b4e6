// Recurring charges in a statement, proposed as subscriptions (contract: Import preview,
// proposals; accepted ones become recurring expenses at confirm). Pure and deterministic:
// the same rows and `today` give the same proposals in the same order.
//
// 1. Outgoing money only (amount_minor < 0); amounts are compared as positive charges.
// 2. Group by currency and a name key: the counterparty, else the description, folded (no
//    accents, lower case), with every token holding a digit dropped (card numbers, dates,
//    order ids) and punctuation turned into blanks. "NETFLIX.COM 866-579-7172" → "netflix
//    com". Rows whose key is empty are ignored.
// 3. Inside a group, charges cluster by amount: the amount with the most charges within
//    tolerance of it seeds a cluster, which is then re-centred on its median; repeated on the
//    rest (one merchant can bill two plans). Tolerance: 10 % of the median, or 5 major units
//    of the currency (5.00 EUR, 5 JPY), whichever is larger.
// 4. A cluster of at least 3 charges is a series when its median gap between charge dates
//    falls in a window: week 6–8 days, month 27–33, quarter 85–97, year 355–375; and at
//    least half of its gaps land on the expected date (previous charge + one interval,
//    month arithmetic clamping to the month's end) within a slack: week 1 day, month 3,
//    quarter 6, year 10.
// 5. confidence = (1 − 0.5 / n) × (0.6 × gaps + 0.4 × amounts) × 0.5^missed, to 2 places
//      n       the number of charges (3 → 0.83, 6 → 0.92, 12 → 0.96)
//      gaps    mean per gap of 1 − 0.5 × deviation / slack inside the slack, 0 outside it
//      amounts 1 − mean |charge − median| / tolerance, at least 0
//      missed  expected charges due between the last one and `today` (beyond the slack):
//              a series that stopped fades; below 0.2 it is not proposed.
//    Three identical monthly charges on the same day of the month, the last one recent,
//    score 0.83; six score 0.92; twelve 0.96. Two charges are never a series (n ≥ 3): the
//    formula would give them 0.75 at best, which no owner should read as "sure".
// 6. amount_minor: the last charge when the last two agree (a price change is what comes
//    next), else the median charge. next_charge_on: the last charge + one interval, then
//    further intervals until it is today or later (`today` is the owner's day): never past.
// 7. Sorted by confidence (highest first), then name, amount and currency.
// 8. `history` (earlier charges of the same business) only completes a series: a cluster
//    is proposed only when it holds at least one of the statement's own rows, so a statement
//    never proposes what it does not show.
import { addDays, addMonthsClamped, dayParts, daysBetween, daysInMonth } from "../../lib/days";
import { currencyDigits } from "../shared/currencies";
import type { BILLING_INTERVALS } from "../subscriptions/subscription.schema";
import type { TImportRow } from "./normalize-row";

export type TBillingInterval = (typeof BILLING_INTERVALS)[number];

export type TRecurringInput = Pick<TImportRow, "occurred_on" | "amount_minor" | "currency" | "counterparty" | "description">;

export type TProposal = {
  name: string;
  counterparty: string;
  /** The typical charge, positive minor units. */
  amount_minor: number;
  currency: string;
  billing_interval: TBillingInterval;
  next_charge_on: string;
  occurrences: number;
  /** 0 to 1 (formula above). */
  confidence: number;
};

export const MIN_OCCURRENCES = 3;
export const MIN_CONFIDENCE = 0.2;
const AMOUNT_TOLERANCE_SHARE = 0.1;
const AMOUNT_TOLERANCE_MAJOR_UNITS = 5;

type TCadence = { interval: TBillingInterval; minDays: number; maxDays: number; slack: number; days?: number; months?: number };

const CADENCES: readonly TCadence[] = [
  { interval: "week", minDays: 6, maxDays: 8, slack: 1, days: 7 },
  { interval: "month", minDays: 27, maxDays: 33, slack: 3, months: 1 },
  { interval: "quarter", minDays: 85, maxDays: 97, slack: 6, months: 3 },
  { interval: "year", minDays: 355, maxDays: 375, slack: 10, months: 12 },
];

type TCharge = { date: string; amount: number; counterparty: string; description: string; inFile: boolean };

// --- dates (YYYY-MM-DD, UTC calendar days) ---

/** `date` plus one cadence; months land on `anchorDay`, clamped to the month's end. */
function addCadence(date: string, cadence: TCadence, anchorDay: number): string {
  return cadence.days ? addDays(date, cadence.days) : addMonthsClamped(date, cadence.months!, anchorDay);
}

/**
 * The day of the month a series bills on, seen from its charges so far: the last charge's
 * day, unless that charge fell on its month's last day (a clamped 31st): then the largest
 * day of the month seen so far (`maxDay`). So 31 Jan → 29 Feb → 31 Mar.
 */
function anchorDay(last: string, maxDay: number): number {
  const [year, month, day] = dayParts(last);
  return day === daysInMonth(year, month) ? Math.max(day, maxDay) : day;
}

// --- grouping ---

/** Folded name: no accents, lower case, tokens with digits dropped, punctuation as blanks. */
export function nameKey(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/\s+/)
    .filter((token) => !/\d/.test(token))
    .join(" ")
    .replace(/[^\p{L}]+/gu, " ")
    .trim();
}

/** A description fit to show as a name: digit tokens dropped, blanks collapsed. */
function displayDescription(text: string): string {
  return text
    .split(/\s+/)
    .filter((token) => token !== "" && !/\d/.test(token))
    .join(" ");
}

function median(sorted: readonly number[]): number {
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The most frequent non-empty value; ties go to the latest. */
function mostFrequent(values: readonly string[]): string {
  const counts = new Map<string, number>();
  let best = "";
  let bestCount = 0;
  for (const value of values) {
    if (value === "") continue;
    const count = (counts.get(value) ?? 0) + 1;
    counts.set(value, count);
    if (count >= bestCount) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}

/** First index in ascending `values` whose value is > `bound` (or ≥ with `inclusive`). */
function bisect(values: readonly number[], bound: number, inclusive: boolean): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid]! < bound || (!inclusive && values[mid] === bound)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Splits charges into amount clusters (rule 3), densest first. Charges are sorted by amount,
 * so every "within tolerance of a centre" set is a contiguous slice found by bisection:
 * O(distinct amounts × log n) per cluster, not quadratic in a busy merchant's charges.
 */
function clusterByAmount(charges: readonly TCharge[], tolerance: (center: number) => number): TCharge[][] {
  const clusters: TCharge[][] = [];
  let rest = [...charges].sort((a, b) => a.amount - b.amount || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  while (rest.length >= MIN_OCCURRENCES) {
    const amounts = rest.map((charge) => charge.amount);
    const window = (center: number): [number, number] => {
      const spread = tolerance(center);
      return [bisect(amounts, center - spread, true), bisect(amounts, center + spread, false)];
    };
    let seed: [number, number] = [0, 0];
    for (let i = 0; i < amounts.length; i++) {
      if (i > 0 && amounts[i] === amounts[i - 1]) continue;
      const [low, high] = window(amounts[i]!);
      if (high - low > seed[1] - seed[0]) seed = [low, high];
    }
    if (seed[1] - seed[0] < MIN_OCCURRENCES) break;
    // Re-centred on its median the cluster may catch fewer charges than the seed did: keep the larger.
    const recentred = window(median(amounts.slice(seed[0], seed[1])));
    const [low, high] = recentred[1] - recentred[0] >= seed[1] - seed[0] ? recentred : seed;
    clusters.push(rest.slice(low, high));
    rest = [...rest.slice(0, low), ...rest.slice(high)];
  }
  return clusters;
}

/** A proposal for one amount cluster, or undefined when it is not a series (rules 4–6). */
function evaluate(cluster: TCharge[], currency: string, tolerance: number, today: string): TProposal | undefined {
  const charges = [...cluster].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.amount - b.amount));
  const dates = charges.map((charge) => charge.date);
  const gaps = dates.slice(1).map((date, i) => daysBetween(dates[i]!, date));
  const medianGap = median([...gaps].sort((a, b) => a - b));
  const cadence = CADENCES.find((c) => medianGap >= c.minDays && medianGap <= c.maxDays);
  if (!cadence) return undefined;

  let onTime = 0;
  let gapScore = 0;
  let maxDay = 0;
  for (let i = 1; i < dates.length; i++) {
    maxDay = Math.max(maxDay, dayParts(dates[i - 1]!)[2]);
    const expected = addCadence(dates[i - 1]!, cadence, anchorDay(dates[i - 1]!, maxDay));
    const deviation = Math.abs(daysBetween(expected, dates[i]!));
    if (deviation > cadence.slack) continue;
    onTime++;
    gapScore += 1 - (0.5 * deviation) / cadence.slack;
  }
  if (onTime * 2 < gaps.length) return undefined;
  gapScore /= gaps.length;

  const amounts = charges.map((charge) => charge.amount);
  const middle = median([...amounts].sort((a, b) => a - b));
  const spread = amounts.reduce((sum, amount) => sum + Math.abs(amount - middle), 0) / amounts.length;
  const amountScore = Math.max(0, 1 - spread / tolerance);

  const last = dates[dates.length - 1]!;
  maxDay = Math.max(maxDay, dayParts(last)[2]);
  // The next charge is projected forward from the last one, one interval at a time, to the
  // first due day that is not before today: a proposal never names a day already past. The
  // charges due on the way (beyond the slack) and not seen are the missed ones.
  let next_charge_on = addCadence(last, cadence, anchorDay(last, maxDay));
  let missed = 0;
  for (let steps = 0; next_charge_on < today && steps < 10_000; steps++) {
    if (daysBetween(next_charge_on, today) > cadence.slack) missed++;
    next_charge_on = addCadence(next_charge_on, cadence, anchorDay(next_charge_on, maxDay));
  }

  const n = charges.length;
  const confidence = Math.round((1 - 0.5 / n) * (0.6 * gapScore + 0.4 * amountScore) * 0.5 ** missed * 100) / 100;
  if (confidence < MIN_CONFIDENCE) return undefined;

  const sortedAmounts = [...amounts].sort((a, b) => a - b);
  const lastTwoAgree = amounts[n - 1] === amounts[n - 2];
  const counterparty = mostFrequent(charges.map((charge) => charge.counterparty.trim()));
  return {
    name: counterparty || mostFrequent(charges.map((charge) => displayDescription(charge.description))),
    counterparty,
    amount_minor: lastTwoAgree ? amounts[n - 1]! : sortedAmounts[(n - 1) >> 1]!,
    currency,
    billing_interval: cadence.interval,
    next_charge_on,
    occurrences: n,
    confidence,
  };
}

function formatMinor(amount: number, currency: string): string {
  const digits = currencyDigits(currency);
  if (digits === 0) return `${amount} ${currency}`;
  const text = String(amount).padStart(digits + 1, "0");
  return `${text.slice(0, -digits)}.${text.slice(-digits)} ${currency}`;
}

/** Recurring outgoing charges among a statement's rows (rules at the top of this file). */
export function detectRecurring(
  rows: Iterable<TRecurringInput>,
  options: { today: string; history?: Iterable<TRecurringInput> },
): TProposal[] {
  const groups = new Map<string, { currency: string; charges: TCharge[] }>();
  // Names repeat (one merchant, many charges): fold each distinct text once.
  const keys = new Map<string, string>();
  const keyOf = (text: string) => {
    let key = keys.get(text);
    if (key === undefined) keys.set(text, (key = nameKey(text)));
    return key;
  };
  const add = (row: TRecurringInput, inFile: boolean) => {
    if (row.amount_minor >= 0) return;
    const key = keyOf(row.counterparty) || keyOf(row.description);
    if (key === "") return;
    const groupKey = `${row.currency}\u0000${key}`;
    let group = groups.get(groupKey);
    if (!group) groups.set(groupKey, (group = { currency: row.currency, charges: [] }));
    group.charges.push({
      date: row.occurred_on,
      amount: -row.amount_minor,
      counterparty: row.counterparty,
      description: row.description,
      inFile,
    });
  };
  for (const row of options.history ?? []) add(row, false);
  for (const row of rows) add(row, true);

  const proposals: TProposal[] = [];
  for (const groupKey of [...groups.keys()].sort()) {
    const { currency, charges } = groups.get(groupKey)!;
    if (charges.length < MIN_OCCURRENCES) continue;
    const floor = AMOUNT_TOLERANCE_MAJOR_UNITS * 10 ** currencyDigits(currency);
    const tolerance = (center: number) => Math.max(center * AMOUNT_TOLERANCE_SHARE, floor);
    if (!charges.some((charge) => charge.inFile)) continue;
    for (const cluster of clusterByAmount(charges, tolerance)) {
      if (!cluster.some((charge) => charge.inFile)) continue;
      const middle = median(cluster.map((charge) => charge.amount).sort((a, b) => a - b));
      const proposal = evaluate(cluster, currency, tolerance(middle), options.today);
      if (proposal) proposals.push(proposal);
    }
  }

  // Two series under one name (two plans of one merchant): the amount tells them apart.
  const names = new Map<string, number>();
  for (const proposal of proposals) names.set(proposal.name, (names.get(proposal.name) ?? 0) + 1);
  for (const proposal of proposals) {
    if (names.get(proposal.name)! > 1)
      proposal.name = `${proposal.name} (${formatMinor(proposal.amount_minor, proposal.currency)})`;
  }

  return proposals.sort(
    (a, b) =>
      b.confidence - a.confidence ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      a.amount_minor - b.amount_minor ||
      (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0),
  );
}
