// Date and number formats read off a statement's own cells (issue 14: the guess is shown in the
// mapping step and can be changed). Pure: cells in, a guess with its evidence out.
//
// Dates. Every format of DATE_FORMATS is tried on the sampled date cells; the formats that read
// the most cells are the candidates. One candidate: that is the format. Several (the day/month
// question: "03/04/2024" reads as dd/mm and as mm/dd when every day is 12 or less, the usual
// case for a short statement) are ranked by evidence across the rows, never by a coin:
//   1. fewer dates after today + 1 (a statement does not hold next month's charges);
//   2. fewer breaks in the rows' date order (statements are sorted, oldest or newest first:
//      the count of neighbour pairs going against the dominant direction);
//   3. a shorter span between the first and the last date;
//   4. the fallback (the preset's format, or the owner's last choice) when it is a candidate;
//   5. the order of DATE_FORMATS.
// The guess is `ambiguous` when a tie on the parse count was broken only by steps 3–5 (no
// real evidence): the mapping step asks the owner to look.
//
// Numbers. Each amount cell votes for its decimal separator:
//   - both "." and "," in it: the last one is the decimal separator (strong: "1.234,56");
//   - one separator kind, used twice or more ("1,234,567"): that is the thousands separator,
//     so the other is the decimal one (strong);
//   - one separator once, followed by 1, 2 or 4+ digits ("12,5", "12.50"): the decimal one
//     (strong);
//   - one separator once, followed by exactly 3 digits ("1,234" or "1.234"): weak, read as a
//     thousands separator; only decides when no cell gave a strong vote;
//   - a blank, no-break space or apostrophe between digits ("1 234,56", "1'234.50") names
//     the thousands separator.
// The majority of strong votes decides; then the weak ones; else the fallback. The thousands
// separator is the one seen with the chosen decimal separator, else the other of "." and ","
// (harmless: the amount parser only accepts it in groups of three).
import { parseDate } from "./normalize-row";
import { DATE_FORMATS, type TDateFormat, type TDecimalSeparator, type TThousandsSeparator } from "./presets";
import { addDays, daysBetween } from "../../lib/days";

/** Cells sampled per column for the guesses (from the top of the file). */
export const DETECTION_SAMPLE_ROWS = 1000;

export type TDateGuess = {
  date_format: TDateFormat;
  /** Formats that read as many sampled cells as the chosen one (the chosen one first). */
  candidates: TDateFormat[];
  /** The evidence did not settle it: the owner should check. */
  ambiguous: boolean;
  /** Cells the chosen format reads, out of the sampled non-empty cells. */
  read: number;
  sampled: number;
  /** One sentence for the owner: why this format. */
  note: string;
};

export type TNumberGuess = {
  decimal_separator: TDecimalSeparator;
  thousands_separator: TThousandsSeparator | null;
  ambiguous: boolean;
  note: string;
};

type TDateScore = { format: TDateFormat; read: number; future: number; breaks: number; span: number };

function scoreDates(format: TDateFormat, cells: readonly string[], latest: string | undefined): TDateScore {
  const days: string[] = [];
  for (const cell of cells) {
    const day = parseDate(cell, format);
    if (day) days.push(day);
  }
  let future = 0;
  let up = 0;
  let down = 0;
  let min = days[0];
  let max = days[0];
  for (let i = 0; i < days.length; i++) {
    const day = days[i]!;
    if (latest && day > latest) future++;
    if (i > 0) {
      const previous = days[i - 1]!;
      if (day > previous) up++;
      else if (day < previous) down++;
    }
    if (min === undefined || day < min) min = day;
    if (max === undefined || day > max) max = day;
  }
  const span = min && max ? daysBetween(min, max) : 0;
  return { format, read: days.length, future, breaks: Math.min(up, down), span };
}

/** The date format of a column's cells (rules at the top of this file). */
export function detectDateFormat(cells: readonly string[], options: { fallback: TDateFormat; today?: string }): TDateGuess {
  const sample = cells.map((cell) => cell.trim()).filter((cell) => cell !== "");
  const latest = options.today ? addDays(options.today, 1) : undefined;
  const scores = DATE_FORMATS.map((format) => scoreDates(format, sample, latest));
  const best = Math.max(0, ...scores.map((score) => score.read));
  if (best === 0) {
    return {
      date_format: options.fallback,
      candidates: [options.fallback],
      ambiguous: sample.length > 0,
      read: 0,
      sampled: sample.length,
      note:
        sample.length === 0
          ? "The date column is empty in the sampled rows."
          : `No known date format reads the date column (for example ${JSON.stringify(sample[0])}).`,
    };
  }
  const tied = scores.filter((score) => score.read === best);
  const rank = (a: TDateScore, b: TDateScore) =>
    a.future - b.future ||
    a.breaks - b.breaks ||
    a.span - b.span ||
    Number(b.format === options.fallback) - Number(a.format === options.fallback) ||
    DATE_FORMATS.indexOf(a.format) - DATE_FORMATS.indexOf(b.format);
  tied.sort(rank);
  const [chosen, runnerUp] = tied as [TDateScore, TDateScore | undefined];
  const decisive = !runnerUp || chosen.future !== runnerUp.future || chosen.breaks !== runnerUp.breaks;
  const partial = best < sample.length ? ` (${best} of ${sample.length} sampled dates)` : "";
  let note: string;
  if (!runnerUp) note = `Only ${chosen.format} reads the dates${partial}.`;
  else if (chosen.future !== runnerUp.future)
    note = `${chosen.format} and ${runnerUp.format} both read the dates; ${runnerUp.format} would put ${runnerUp.future} in the future.`;
  else if (chosen.breaks !== runnerUp.breaks)
    note = `${chosen.format} and ${runnerUp.format} both read the dates; ${chosen.format} keeps the rows in date order.`;
  else
    note = `Every day is 12 or less, so ${tied.map((score) => score.format).join(" and ")} all read the dates: check that ${chosen.format} is right.`;
  return {
    date_format: chosen.format,
    candidates: tied.map((score) => score.format),
    ambiguous: !decisive,
    read: best,
    sampled: sample.length,
    note,
  };
}

type TVote = { decimal: TDecimalSeparator; strong: boolean; thousands?: TThousandsSeparator };

const OTHER: Record<TDecimalSeparator, TDecimalSeparator> = { ".": ",", ",": "." };

/** One amount cell's vote, or undefined when it holds no separator. */
export function numberVote(cell: string): TVote | undefined {
  const text = cell.replace(/[^\d.,' \u00a0\u202f]/g, "").trim();
  const spaced = /\d[ \u00a0\u202f]\d/.test(text) ? " " : /\d'\d/.test(text) ? "'" : undefined;
  const lastDot = text.lastIndexOf(".");
  const lastComma = text.lastIndexOf(",");
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal: TDecimalSeparator = lastDot > lastComma ? "." : ",";
    return { decimal, strong: true, thousands: OTHER[decimal] };
  }
  const separator: TDecimalSeparator | undefined = lastDot >= 0 ? "." : lastComma >= 0 ? "," : undefined;
  if (!separator) return undefined;
  const parts = text.split(separator);
  if (parts.length > 2) return { decimal: OTHER[separator], strong: true, thousands: separator };
  const fraction = parts[1]!.replace(/\D/g, "");
  if (fraction.length !== 3) return { decimal: separator, strong: true, ...(spaced ? { thousands: spaced } : {}) };
  // "1,234" / "1.234": a thousands separator unless a strong vote says otherwise; after a
  // blank-grouped number ("1 234.567") the separator can only be the decimal one.
  if (spaced) return { decimal: separator, strong: true, thousands: spaced };
  return { decimal: OTHER[separator], strong: false, thousands: separator };
}

/** The decimal and thousands separators of amount cells (rules at the top of this file). */
export function detectNumberFormat(
  cells: readonly string[],
  fallback: { decimal_separator: TDecimalSeparator; thousands_separator: TThousandsSeparator | null },
): TNumberGuess {
  const strong = { ".": 0, ",": 0 };
  const weak = { ".": 0, ",": 0 };
  const thousandsSeen = new Map<TDecimalSeparator, Map<TThousandsSeparator, number>>([
    [".", new Map()],
    [",", new Map()],
  ]);
  for (const cell of cells) {
    const vote = numberVote(cell);
    if (!vote) continue;
    (vote.strong ? strong : weak)[vote.decimal]++;
    if (vote.thousands) {
      const seen = thousandsSeen.get(vote.decimal)!;
      seen.set(vote.thousands, (seen.get(vote.thousands) ?? 0) + 1);
    }
  }
  let decimal: TDecimalSeparator;
  let ambiguous = false;
  let note: string;
  if (strong["."] !== strong[","]) {
    decimal = strong["."] > strong[","] ? "." : ",";
    ambiguous = strong[OTHER[decimal]] > 0;
    note = ambiguous
      ? `Most amounts use "${decimal}" as the decimal separator, some "${OTHER[decimal]}": check the rejected rows.`
      : `The amounts use "${decimal}" as the decimal separator.`;
  } else if (weak["."] !== weak[","]) {
    decimal = weak["."] > weak[","] ? "." : ",";
    ambiguous = true;
    note = `Every amount has three digits after its separator, read as thousands (decimal "${decimal}"): check the amounts.`;
  } else {
    decimal = fallback.decimal_separator;
    ambiguous = strong["."] > 0;
    note = ambiguous
      ? `The amounts use both "." and "," as the decimal separator: check the rejected rows.`
      : `The amounts have no decimal separator; "${decimal}" is assumed.`;
  }
  const seen = [...thousandsSeen.get(decimal)!.entries()].sort((a, b) => b[1] - a[1]);
  const thousands: TThousandsSeparator | null =
    seen[0]?.[0] ??
    (decimal === fallback.decimal_separator && fallback.thousands_separator !== decimal
      ? (fallback.thousands_separator ?? OTHER[decimal])
      : OTHER[decimal]);
  return { decimal_separator: decimal, thousands_separator: thousands === decimal ? null : thousands, ambiguous, note };
}

// Columns. When the preset's header names find no column for a required field (and the owner's
// mapping names none), the field's column is read off the cells of the first rows:
//   - date: the first free column whose non-empty cells one date format reads, 80 % or more;
//   - amount: among the free columns whose non-empty cells are numbers (80 % or more), the one
//     whose name says so (amount, sum, value, total, betrag, montant, importe, bedrag, belopp),
//     else the first holding a negative number, else the first;
//   - debit and credit: number columns named like them (debit/out/withdrawal/soll, credit/in/
//     deposit/haben), never guessed blind;
//   - description: the free text column with the longest cells on average.
// A free column is one no preset name of another field matches. No column fits: the field
// stays missing and the upload answers 400 naming it, as before.

const NUMBER_CELL = /^[-+−(]?\s*[$€£¥]?\s*[-+−]?\d[\d.,' \u00a0\u202f]*\)?\s*[-−]?\s*[$€£¥]?$/;
const AMOUNT_NAME = /amount|sum|value|total|betrag|montant|importe|bedrag|belopp|beløp/i;
const DEBIT_NAME = /debit|money out|paid out|withdraw|soll|ausgang/i;
const CREDIT_NAME = /credit|money in|paid in|deposit|haben|eingang/i;
const COLUMN_SHARE = 0.8;

type TColumnStats = {
  index: number;
  name: string;
  filled: number;
  dates: number;
  numbers: number;
  negatives: number;
  length: number;
};

function columnStats(header: readonly string[], rows: readonly (readonly string[])[]): TColumnStats[] {
  return header.map((name, index) => {
    const cells = rows.map((row) => (row[index] ?? "").trim()).filter((cell) => cell !== "");
    let best = 0;
    for (const format of DATE_FORMATS) {
      let read = 0;
      for (const cell of cells) if (parseDate(cell, format)) read++;
      best = Math.max(best, read);
    }
    const numbers = cells.filter((cell) => NUMBER_CELL.test(cell));
    return {
      index,
      name,
      filled: cells.length,
      dates: best,
      numbers: numbers.length,
      negatives: numbers.filter((cell) => /^[-−(]|[-−]\s*[$€£¥]?$/.test(cell)).length,
      length: cells.reduce((sum, cell) => sum + cell.length, 0) / Math.max(1, cells.length),
    };
  });
}

/** Header names for the missing required fields, read off the cells (rules above); fields with no fitting column are left out. */
export function guessColumns(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  missing: readonly string[],
  taken: ReadonlySet<number>,
): Record<string, string> {
  const stats = columnStats(header, rows).filter((s) => s.filled > 0 && s.name.trim() !== "" && !taken.has(s.index));
  const used = new Set<number>();
  const free = (s: TColumnStats) => !used.has(s.index);
  const isDate = (s: TColumnStats) => s.dates >= s.filled * COLUMN_SHARE;
  const isNumber = (s: TColumnStats) => !isDate(s) && s.numbers >= s.filled * COLUMN_SHARE;
  const guessed: Record<string, string> = {};
  const take = (field: string, s: TColumnStats | undefined) => {
    if (!s) return;
    guessed[field] = s.name;
    used.add(s.index);
  };
  const want = (field: string) => missing.includes(field);
  if (want("date"))
    take(
      "date",
      stats.find((s) => free(s) && isDate(s)),
    );
  if (want("amount")) {
    const numeric = stats.filter((s) => free(s) && isNumber(s));
    take("amount", numeric.find((s) => AMOUNT_NAME.test(s.name)) ?? numeric.find((s) => s.negatives > 0) ?? numeric[0]);
  }
  if (want("debit"))
    take(
      "debit",
      stats.find((s) => free(s) && isNumber(s) && DEBIT_NAME.test(s.name)),
    );
  if (want("credit"))
    take(
      "credit",
      stats.find((s) => free(s) && isNumber(s) && CREDIT_NAME.test(s.name)),
    );
  if (want("description")) {
    const texts = stats
      .filter((s) => free(s) && !isDate(s) && !isNumber(s))
      .sort((a, b) => b.length - a.length || a.index - b.index);
    take("description", texts[0]);
  }
  return guessed;
}
