import { describe, expect, it } from "vitest";
import { localeOptions, timeZoneGroups } from "./settings-options";

describe("the Settings choices", () => {
  it("offers every IANA zone by region, UTC first, with the whole name", () => {
    const groups = timeZoneGroups("Europe/Berlin");
    expect(groups[0]).toEqual({ region: "Universal", zones: [{ value: "UTC", label: "UTC" }] });
    const europe = groups.find((g) => g.region === "Europe")!;
    expect(europe.zones).toContainEqual({ value: "Europe/Berlin", label: "Europe/Berlin" });
    const america = groups.find((g) => g.region === "America")!;
    expect(america.zones).toContainEqual({ value: "America/New_York", label: "America/New York" });
    expect(groups.flatMap((g) => g.zones).filter((z) => z.value === "UTC")).toHaveLength(1);
  });

  it("keeps the owner's own zone and locale even when they are not in the lists", () => {
    const zones = timeZoneGroups("Etc/GMT+5").flatMap((g) => g.zones.map((z) => z.value));
    expect(zones).toContain("Etc/GMT+5");
    const locales = localeOptions("ga-IE");
    expect(locales[0]!.value).toBe("ga-IE");
    expect(locales.find((l) => l.value === "de-DE")!.label).toBe("German (Germany) — 1.234.567,89");
  });
});
