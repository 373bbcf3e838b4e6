import { describe, expect, it } from "vitest";
import { suggestPreset } from "./preset-suggestion";
import type { TImportPreset } from "./presets";

const base = { description: "", date_format: "yyyy-mm-dd", decimal_separator: ".", sign_convention: "signed" } as const;
const A: TImportPreset = { ...base, id: "a", name: "A", columns: { date: ["Date"], amount: ["Amount"] } };
const B: TImportPreset = {
  ...base,
  id: "b",
  name: "B",
  columns: { date: ["Datum"], amount: ["Betrag"], description: ["Verwendungszweck"] },
};
const C: TImportPreset = {
  ...base,
  id: "c",
  name: "C",
  sign_convention: "debit_credit",
  columns: { date: ["Date"], debit: ["Paid out"], credit: ["Paid in"] },
};
const presets = [A, B, C];

describe("suggestPreset", () => {
  it("suggests the preset with most matching fields, compared like header names", () => {
    expect(suggestPreset(["  DATUM ", "betrag", "Verwendungszweck"], "a", presets)).toEqual({ id: "b", name: "B" });
  });

  it("answers null when the best preset is the one in use", () => {
    expect(suggestPreset(["Datum", "Betrag", "Verwendungszweck"], "b", presets)).toBeNull();
  });

  it("breaks ties with the first preset in the list", () => {
    // C (date only, no debit/credit) does not qualify; A does.
    expect(suggestPreset(["Date", "Amount"], "b", presets)).toEqual({ id: "a", name: "A" });
    const twin: TImportPreset = { ...A, id: "a2", name: "A2" };
    expect(suggestPreset(["Date", "Amount"], "b", [twin, A])).toEqual({ id: "a2", name: "A2" });
  });

  it("accepts debit and credit in place of an amount", () => {
    expect(suggestPreset(["Date", "Paid out", "Paid in", "Memo"], "a", presets)).toEqual({ id: "c", name: "C" });
    // Only one of debit and credit: not enough.
    expect(suggestPreset(["Date", "Paid out", "Memo"], "a", presets)).toBeNull();
  });

  it("answers null when no preset finds a date and an amount", () => {
    expect(suggestPreset(["When", "How much"], "a", presets)).toBeNull();
    expect(suggestPreset(["Datum", "Verwendungszweck"], "a", presets)).toBeNull();
    expect(suggestPreset([], "a", presets)).toBeNull();
  });

  it("on the real presets, a German bank header suggests the EU preset over the generic one", () => {
    const header = ["Buchungstag", "Verwendungszweck", "Betrag", "Währung", "Kundenreferenz"];
    expect(suggestPreset(header, "generic")?.id).toBe("bank_eu_semicolon");
    expect(suggestPreset(header, "bank_eu_semicolon")).toBeNull();
  });
});
