// The first-run guess (issue 37): an owner's base currency, time zone and locale as the browser
// suggests them, for the one-step confirmation on the first sign-in. Pure, no imports beyond
// lib/days: the panel runs it in the browser and the unit tests run it anywhere.
//
// The time zone says where someone keeps their books better than the interface language does
// (many in Berlin browse in en-US), so the currency follows the zone's country first, then the
// locale's region, then what the owner has now.
import { isTimeZone } from "./days";

export type TPreferences = { base_currency: string; timezone: string; locale: string };
export type TBrowserHints = { languages: readonly string[]; timeZone: string | undefined };

const EURO_REGIONS = [
  "AT",
  "BE",
  "CY",
  "DE",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PT",
  "SI",
  "SK",
];

/** The currency of a region (ISO 3166-1 alpha-2); the regions the panel's currency list covers. */
const REGION_CURRENCY: Readonly<Record<string, string>> = {
  ...Object.fromEntries(EURO_REGIONS.map((region) => [region, "EUR"])),
  US: "USD",
  GB: "GBP",
  CH: "CHF",
  LI: "CHF",
  JP: "JPY",
  CA: "CAD",
  AU: "AUD",
  NZ: "NZD",
  SE: "SEK",
  NO: "NOK",
  DK: "DKK",
  PL: "PLN",
  CZ: "CZK",
  HU: "HUF",
  CN: "CNY",
  HK: "HKD",
  SG: "SGD",
  IN: "INR",
  BR: "BRL",
  MX: "MXN",
  ZA: "ZAR",
  AE: "AED",
};

/** The region of a time zone, for the zones of those regions (the main zone of each, and the US and Canadian ones). */
const ZONE_REGION: Readonly<Record<string, string>> = {
  "Europe/Vienna": "AT",
  "Europe/Brussels": "BE",
  "Asia/Nicosia": "CY",
  "Europe/Nicosia": "CY",
  "Europe/Berlin": "DE",
  "Europe/Busingen": "DE",
  "Europe/Tallinn": "EE",
  "Europe/Madrid": "ES",
  "Atlantic/Canary": "ES",
  "Africa/Ceuta": "ES",
  "Europe/Helsinki": "FI",
  "Europe/Paris": "FR",
  "Europe/Athens": "GR",
  "Europe/Zagreb": "HR",
  "Europe/Dublin": "IE",
  "Europe/Rome": "IT",
  "Europe/Vilnius": "LT",
  "Europe/Luxembourg": "LU",
  "Europe/Riga": "LV",
  "Europe/Malta": "MT",
  "Europe/Amsterdam": "NL",
  "Europe/Lisbon": "PT",
  "Atlantic/Madeira": "PT",
  "Atlantic/Azores": "PT",
  "Europe/Ljubljana": "SI",
  "Europe/Bratislava": "SK",
  "Europe/London": "GB",
  "Europe/Zurich": "CH",
  "Europe/Vaduz": "LI",
  "Asia/Tokyo": "JP",
  "Australia/Sydney": "AU",
  "Australia/Melbourne": "AU",
  "Australia/Brisbane": "AU",
  "Australia/Perth": "AU",
  "Australia/Adelaide": "AU",
  "Australia/Hobart": "AU",
  "Australia/Darwin": "AU",
  "Pacific/Auckland": "NZ",
  "Europe/Stockholm": "SE",
  "Europe/Oslo": "NO",
  "Europe/Copenhagen": "DK",
  "Europe/Warsaw": "PL",
  "Europe/Prague": "CZ",
  "Europe/Budapest": "HU",
  "Asia/Shanghai": "CN",
  "Asia/Hong_Kong": "HK",
  "Asia/Singapore": "SG",
  "Asia/Kolkata": "IN",
  "Asia/Calcutta": "IN",
  "America/Sao_Paulo": "BR",
  "America/Mexico_City": "MX",
  "Africa/Johannesburg": "ZA",
  "Asia/Dubai": "AE",
  "America/New_York": "US",
  "America/Chicago": "US",
  "America/Denver": "US",
  "America/Phoenix": "US",
  "America/Los_Angeles": "US",
  "America/Anchorage": "US",
  "America/Detroit": "US",
  "America/Boise": "US",
  "America/Indiana/Indianapolis": "US",
  "Pacific/Honolulu": "US",
  "America/Toronto": "CA",
  "America/Vancouver": "CA",
  "America/Edmonton": "CA",
  "America/Winnipeg": "CA",
  "America/Halifax": "CA",
  "America/St_Johns": "CA",
  "America/Regina": "CA",
  "America/Montreal": "CA",
};

/** A locale as BCP 47 canonical form, or null when it is none. */
function canonicalLocale(value: string): string | null {
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}

/** The region a locale names, or the likely one (de → DE, en → US); null when none is known. */
function regionOf(locale: string): string | null {
  try {
    const parsed = new Intl.Locale(locale);
    return parsed.region ?? parsed.maximize().region ?? null;
  } catch {
    return null;
  }
}

/**
 * The preferences the browser suggests: its first usable language (with a region, the likely one
 * added when it names none: "de" → "de-DE"), its time zone, and the currency of the zone's
 * country, else of the locale's region. What cannot be guessed keeps the owner's current value.
 */
export function guessPreferences(hints: TBrowserHints, current: TPreferences): TPreferences {
  let locale = current.locale;
  for (const language of hints.languages) {
    const canonical = canonicalLocale(language);
    if (!canonical) continue;
    const region = regionOf(canonical);
    const parsed = new Intl.Locale(canonical);
    locale = parsed.region || !region ? canonical : `${parsed.language}-${region}`;
    break;
  }
  const timezone = hints.timeZone && isTimeZone(hints.timeZone) ? hints.timeZone : current.timezone;
  const zoneRegion = ZONE_REGION[timezone];
  const localeRegion = regionOf(locale);
  const base_currency =
    (zoneRegion ? REGION_CURRENCY[zoneRegion] : undefined) ??
    (localeRegion ? REGION_CURRENCY[localeRegion] : undefined) ??
    current.base_currency;
  return { base_currency, timezone, locale };
}

/** What the browser running this code says (languages and time zone); empty on the server. */
export function browserHints(): TBrowserHints {
  if (typeof navigator === "undefined") return { languages: [], timeZone: undefined };
  const languages = navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
  return { languages, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone };
}
