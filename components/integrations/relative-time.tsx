"use client";
// "3 minutes ago" for a recent moment, with the exact day and time (owner's zone) in its title.
// Re-rendered every half minute so the wording keeps up while the page stays open.
import { useEffect, useMemo, useState } from "react";
import { usePreferences } from "../panel/preferences";
import { relativeWords, wordsLocale } from "./relative-words";

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
    // Words in the interface's language (English), the owner's region; dates in the owner's locale.
    relative: safe((l) => new Intl.RelativeTimeFormat(wordsLocale(l), { numeric: "auto" })),
    exact: safe((l, zone) => new Intl.DateTimeFormat(l, { dateStyle: "medium", timeStyle: "long", timeZone: zone })),
  };
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
