// The choices of the Settings form, built on the server (Node's ICU) so the page renders the
// same lists on the server and in the browser.

export type TOption = { value: string; label: string };
export type TZoneGroup = { region: string; zones: TOption[] };

/** Locales offered (BCP 47); the owner's own is added when it is not among them. */
const LOCALES = [
  "en-US",
  "en-GB",
  "en-IE",
  "en-CA",
  "en-AU",
  "de-DE",
  "de-AT",
  "de-CH",
  "fr-FR",
  "fr-CH",
  "es-ES",
  "es-MX",
  "it-IT",
  "nl-NL",
  "pt-PT",
  "pt-BR",
  "pl-PL",
  "sv-SE",
  "da-DK",
  "nb-NO",
  "fi-FI",
  "cs-CZ",
  "ja-JP",
  "zh-CN",
];

export function localeOptions(current: string): TOption[] {
  const names = new Intl.DisplayNames(["en"], { type: "language" });
  const sample = 1234567.89;
  const values = LOCALES.includes(current) ? LOCALES : [current, ...LOCALES];
  return values.map((value) => {
    let label = value;
    try {
      label = `${names.of(value) ?? value} — ${new Intl.NumberFormat(value).format(sample)}`;
    } catch {
      // An unusual stored locale is still shown by its code.
    }
    return { value, label };
  });
}

/** Every IANA time zone the runtime knows, by region ("Europe", "America", …), UTC first. */
export function timeZoneGroups(current: string): TZoneGroup[] {
  const zones = new Set(Intl.supportedValuesOf("timeZone"));
  zones.add(current);
  zones.delete("UTC");
  const groups = new Map<string, TOption[]>();
  for (const zone of [...zones].sort()) {
    const slash = zone.indexOf("/");
    const region = slash > 0 ? zone.slice(0, slash) : "Other";
    // The whole name, so the closed select still says which Berlin or which Georgetown.
    const label = zone.replace(/_/g, " ");
    groups.set(region, [...(groups.get(region) ?? []), { value: zone, label }]);
  }
  return [
    { region: "Universal", zones: [{ value: "UTC", label: "UTC" }] },
    ...[...groups].map(([region, list]) => ({ region, zones: list })),
  ];
}
