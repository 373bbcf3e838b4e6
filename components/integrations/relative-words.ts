// The words of a recent moment ("3 minutes ago", "yesterday") seen from another: the largest
// unit that fits, rounded. No React: unit-tested in relative-words.test.ts.

const STEPS: { unit: Intl.RelativeTimeFormatUnit; seconds: number }[] = [
  { unit: "year", seconds: 365 * 24 * 3600 },
  { unit: "month", seconds: 30 * 24 * 3600 },
  { unit: "week", seconds: 7 * 24 * 3600 },
  { unit: "day", seconds: 24 * 3600 },
  { unit: "hour", seconds: 3600 },
  { unit: "minute", seconds: 60 },
];

/** "just now", "5 minutes ago", "yesterday", … for `iso` seen from `now`. */
export function relativeWords(iso: string, now: number, format: Intl.RelativeTimeFormat): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return format.format(0, "second");
  for (const step of STEPS) {
    if (Math.abs(seconds) >= step.seconds) return format.format(Math.round(seconds / step.seconds), step.unit);
  }
  return format.format(Math.round(seconds / 60) || (seconds < 0 ? -1 : 1), "minute");
}

/**
 * The locale of words the panel writes ("9 minutes ago"): the interface's language, English, in
 * the owner's region (de-DE → en-DE), so a German owner's English interface never reads "vor 9
 * Minuten" beside English text (issue 37). Numbers and dates keep the owner's own locale.
 */
export function wordsLocale(ownerLocale: string): string {
  try {
    const region = new Intl.Locale(ownerLocale).region;
    return region ? Intl.getCanonicalLocales(`en-${region}`)[0]! : "en";
  } catch {
    return "en";
  }
}
