"use client";
// "3 minutes ago" for a recent moment, with the exact day and time (owner's zone) in its title.
// Re-rendered every half minute so the wording keeps up while the page stays open.
import { useEffect, useMemo, useState } from "react";
import { usePreferences } from "../panel/preferences";

const STEPS: { unit: Intl.RelativeTimeFormatUnit; seconds: number }[] = [
  { unit: "year", seconds: 365 * 24 * 3600 },
  { unit: "month", seconds: 30 * 24 * 3600 },
  { unit: "week", seconds: 7 * 24 * 3600 },
  { unit: "day", seconds: 24 * 3600 },
  { unit: "hour", seconds: 3600 },
  { unit: "minute", seconds: 60 },
];

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function formatters(locale: string, timezone: string) {
  const safe = <T,>(make: (locale: string, zone: string) => T): T => {
    try {
      return make(locale, timezone);
    } catch {
      return make("en-US", "UTC");
    }
  };
  return {
    relative: safe((l) => new Intl.RelativeTimeFormat(l, { numeric: "auto" })),
    exact: safe((l, zone) => new Intl.DateTimeFormat(l, { dateStyle: "medium", timeStyle: "long", timeZone: zone })),
  };
}

/** "just now", "5 minutes ago", "yesterday", … for `iso` seen from `now`. */
export function relativeWords(iso: string, now: number, format: Intl.RelativeTimeFormat): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return format.format(0, "second");
  for (const step of STEPS) {
    if (Math.abs(seconds) >= step.seconds) return format.format(Math.round(seconds / step.seconds), step.unit);
  }
  return format.format(Math.round(seconds / 60) || (seconds < 0 ? -1 : 1), "minute");
}

export function RelativeTime({ iso }: { iso: string }) {
  const { locale, timezone } = usePreferences();
  const format = useMemo(() => formatters(locale, timezone), [locale, timezone]);
  const now = useNow(30_000);
  return (
    <time dateTime={iso} title={format.exact.format(new Date(iso))} suppressHydrationWarning>
      {relativeWords(iso, now, format.relative)}
    </time>
  );
}
