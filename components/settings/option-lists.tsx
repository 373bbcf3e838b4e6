// The <option>s of the time zone and locale selects, shared by the Settings profile form and
// the first-run questions on the Overview (both built from settings-options.ts's lists).
import type { TOption, TZoneGroup } from "./settings-options";

/** The time zones, grouped by region. */
export function TimeZoneOptions(props: { zones: TZoneGroup[] }) {
  return props.zones.map((group) => (
    <optgroup key={group.region} label={group.region}>
      {group.zones.map((zone) => (
        <option key={zone.value} value={zone.value}>
          {zone.label}
        </option>
      ))}
    </optgroup>
  ));
}

/** A flat list of options (locales, currencies with their names). */
export function PlainOptions(props: { options: TOption[] }) {
  return props.options.map((option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  ));
}
