import { describe, expect, it } from "vitest";
import { guessPreferences } from "./first-run";

const NEW_OWNER = { base_currency: "USD", timezone: "UTC", locale: "en-US" };

describe("the first-run guess from the browser", () => {
  it("reads a German browser in Berlin as EUR, Europe/Berlin, de-DE", () => {
    expect(guessPreferences({ languages: ["de-DE", "en"], timeZone: "Europe/Berlin" }, NEW_OWNER)).toEqual({
      base_currency: "EUR",
      timezone: "Europe/Berlin",
      locale: "de-DE",
    });
  });

  it("lets the time zone decide the currency over the interface language (en-US in Berlin keeps books in EUR)", () => {
    expect(guessPreferences({ languages: ["en-US"], timeZone: "Europe/Berlin" }, NEW_OWNER)).toEqual({
      base_currency: "EUR",
      timezone: "Europe/Berlin",
      locale: "en-US",
    });
  });

  it("adds the likely region to a bare language and takes the currency from it when the zone says nothing", () => {
    expect(guessPreferences({ languages: ["fr"], timeZone: "UTC" }, NEW_OWNER)).toEqual({
      base_currency: "EUR",
      timezone: "UTC",
      locale: "fr-FR",
    });
    expect(guessPreferences({ languages: ["en-GB"], timeZone: "Europe/London" }, NEW_OWNER).base_currency).toBe("GBP");
    expect(guessPreferences({ languages: ["ja"], timeZone: "Asia/Tokyo" }, NEW_OWNER)).toEqual({
      base_currency: "JPY",
      timezone: "Asia/Tokyo",
      locale: "ja-JP",
    });
  });

  it("skips what is no language or zone and keeps the owner's values for what cannot be guessed", () => {
    const current = { base_currency: "CHF", timezone: "Europe/Zurich", locale: "de-CH" };
    expect(guessPreferences({ languages: ["not a locale!"], timeZone: "Mars/Olympus" }, current)).toEqual(
      // Europe/Zurich kept, and its country's currency.
      { base_currency: "CHF", timezone: "Europe/Zurich", locale: "de-CH" },
    );
    expect(guessPreferences({ languages: [], timeZone: undefined }, NEW_OWNER)).toEqual(NEW_OWNER);
    // A region outside the panel's currency list keeps the current currency.
    expect(guessPreferences({ languages: ["th-TH"], timeZone: "Asia/Bangkok" }, NEW_OWNER).base_currency).toBe("USD");
  });

  it("reads a US zone as USD whatever the language", () => {
    expect(guessPreferences({ languages: ["es-MX"], timeZone: "America/Los_Angeles" }, NEW_OWNER)).toEqual({
      base_currency: "USD",
      timezone: "America/Los_Angeles",
      locale: "es-MX",
    });
  });
});
