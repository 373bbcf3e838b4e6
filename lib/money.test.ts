// The panel's money (issue #11, item 5): entry and display use ISO 4217 minor units for every
// currency the service accepts, whatever the runtime's ICU says (ICU gives 0 decimals to IDR,
// HUF, COP… and 0 instead of 3 to IQD, so 1000 IDR was sent as 10.00 IDR).
import { describe, expect, it } from "vitest";
import { currencyDigits as serverDigits } from "../server/shared/currencies";
import { CURRENCY_CODES, isCurrencyCode, isoMinorUnits } from "./currencies";
import { currencyDigits, formatMinor, majorToMinor, minorToMajor } from "./money";

// ISO 4217 list one gives these codes more minor units than ICU (CLDR) does; every other code
// accepted has ICU's digits. An independent statement of the data, so a table edit is checked.
const ISO_WHERE_ICU_DIFFERS: Record<string, number> = {
  AFN: 2,
  ALL: 2,
  COP: 2,
  HUF: 2,
  IDR: 2,
  IQD: 3,
  IRR: 2,
  KPW: 2,
  LAK: 2,
  LBP: 2,
  MGA: 2,
  MMK: 2,
  PKR: 2,
  SLL: 2,
  SOS: 2,
  SYP: 2,
  YER: 2,
};

function icuDigits(code: string): number {
  return new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits!;
}

describe("the currency table (lib/currencies.ts)", () => {
  it("lists every currency the server accepts and nothing else", () => {
    expect(CURRENCY_CODES.length).toBeGreaterThan(150);
    for (const code of CURRENCY_CODES) expect(isCurrencyCode(code), code).toBe(true);
    for (const code of Intl.supportedValuesOf("currency")) expect(CURRENCY_CODES, code).toContain(code);
    for (const code of ["XYZ", "eur", "CLF", "UYW", "BOV", ""]) expect(isCurrencyCode(code), code).toBe(false);
  });

  it.each(CURRENCY_CODES)("%s has its ISO 4217 minor units, on the server and in the panel", (code) => {
    const iso = ISO_WHERE_ICU_DIFFERS[code] ?? icuDigits(code);
    expect(isoMinorUnits(code)).toBe(iso);
    expect(serverDigits(code)).toBe(iso);
    expect(currencyDigits(code)).toBe(iso);
  });

  it("names exactly 17 codes where ICU disagrees with ISO 4217", () => {
    const differing = CURRENCY_CODES.filter((code) => icuDigits(code) !== isoMinorUnits(code));
    expect(differing.sort()).toEqual(Object.keys(ISO_WHERE_ICU_DIFFERS).sort());
  });
});

describe("majorToMinor / minorToMajor / formatMinor for every accepted currency", () => {
  it.each(CURRENCY_CODES)("%s: 1000 is 1000 × 10^digits minor units, and back", (code) => {
    const digits = isoMinorUnits(code)!;
    const minor = 1000 * 10 ** digits;
    expect(majorToMinor("1000", code)).toEqual({ ok: true, minor });
    expect(minorToMajor(minor, code)).toBe(digits === 0 ? "1000" : `1000.${"0".repeat(digits)}`);
    expect(majorToMinor(minorToMajor(minor, code), code)).toEqual({ ok: true, minor });
    // One minor unit is the smallest amount; a finer one is refused, never rounded.
    const smallest = digits === 0 ? "1" : `0.${"0".repeat(digits - 1)}1`;
    expect(majorToMinor(smallest, code)).toEqual({ ok: true, minor: 1 });
    expect(majorToMinor(digits === 0 ? "1.5" : `${smallest}5`, code)).toMatchObject({ ok: false });
    // The display shows the ISO digits: its digits read back as the same minor units.
    const shown = formatMinor(123_456_789, code);
    const digitsShown = shown.replace(/[^\d]/g, "");
    expect(digitsShown, shown).toBe("123456789".padStart(digits + 1, "0"));
    const fraction = /\.(\d+)/.exec(shown)?.[1] ?? ""; // en-US: "." separates the decimals
    expect(fraction.length, shown).toBe(digits);
  });

  it("enters 1000 IDR as 100000 minor units (ISO: 2 decimals), not 1000, and shows it as 1,000.00", () => {
    expect(majorToMinor("1000", "IDR")).toEqual({ ok: true, minor: 100_000 });
    expect(formatMinor(100_000, "IDR")).toMatch(/1,000\.00/);
    expect(majorToMinor("1.234", "IQD")).toEqual({ ok: true, minor: 1234 });
    expect(formatMinor(1234, "IQD")).toMatch(/1\.234/);
    expect(majorToMinor("12.5", "JPY")).toMatchObject({ ok: false });
    expect(formatMinor(1234, "EUR")).toBe("€12.34");
  });

  it("shows an amount the server could not express exactly (null) as a dash", () => {
    expect(formatMinor(null, "EUR")).toBe("—");
  });
});

describe("minorToMajor with bigint", () => {
  it("is exact beyond the float range", () => {
    expect(minorToMajor(123456789012345678901n, "EUR")).toBe("1234567890123456789.01");
    expect(minorToMajor(-5n, "EUR")).toBe("-0.05");
    expect(minorToMajor(-5n, "JPY")).toBe("-5");
  });
});
