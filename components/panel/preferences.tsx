"use client";
// The owner's locale and time zone (from Me), so every date in the panel reads the same way.
import { createContext, useContext, useMemo, type ReactNode } from "react";

export type TPreferences = { locale: string; timezone: string };

const PreferencesContext = createContext<TPreferences>({ locale: "en-US", timezone: "UTC" });

export function PreferencesProvider({ value, children }: { value: TPreferences; children: ReactNode }) {
  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}

function safeFormatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(locale, options);
  } catch {
    return new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });
  }
}

/** Formats an ISO timestamp as a day ("22 Nov 2026") or day and time in the owner's zone. */
export function useDateFormat(): { day: (iso: string) => string; dateTime: (iso: string) => string } {
  const { locale, timezone } = useContext(PreferencesContext);
  return useMemo(() => {
    const day = safeFormatter(locale, { dateStyle: "medium", timeZone: timezone });
    const dateTime = safeFormatter(locale, { dateStyle: "medium", timeStyle: "short", timeZone: timezone });
    return { day: (iso) => day.format(new Date(iso)), dateTime: (iso) => dateTime.format(new Date(iso)) };
  }, [locale, timezone]);
}

/** A <time> element; the text may differ by a character between server and browser ICU. */
export function DateTime({ iso, withTime = false }: { iso: string; withTime?: boolean }) {
  const format = useDateFormat();
  return (
    <time dateTime={iso} title={iso} suppressHydrationWarning>
      {withTime ? format.dateTime(iso) : format.day(iso)}
    </time>
  );
}

/** The owner's locale and time zone (for number and money formatting beside dates). */
export function usePreferences(): TPreferences {
  return useContext(PreferencesContext);
}
