import { describe, expect, it } from "vitest";
import type { TPassport } from "@/server/passports/passport.schema";
import {
  draftFromPassport,
  grantFromSuggestion,
  grantInputs,
  holdsGrant,
  linesOf,
  passportFieldOf,
  passportFromDraft,
  type TPassportDraft,
} from "./passport-values";

const BUSINESS = "7d7b3a5e-8a0e-4c55-9d3a-2f6f1c1b2a10";

const draft = (patch: Partial<TPassportDraft> = {}): TPassportDraft => ({
  purpose: "Keep ads profitable.",
  responsibilities: "Watch ROAS\n\n  Cut losers  \n",
  allowed_actions: "Change budgets",
  spend: "25.50",
  currency: "EUR",
  businesses: [BUSINESS],
  notes: "",
  escalation: "Email me.",
  ...patch,
});

describe("passportFromDraft", () => {
  it("turns lines into lists, the daily spend into exact minor units, empty notes into null", () => {
    const { fields, errors } = passportFromDraft(draft());
    expect(errors).toEqual({});
    expect(fields).toEqual({
      purpose: "Keep ads profitable.",
      responsibilities: ["Watch ROAS", "Cut losers"],
      allowed_actions: ["Change budgets"],
      constraints: { max_daily_spend_minor: 2550, currency: "EUR", businesses: [BUSINESS], notes: null },
      escalation: "Email me.",
    });
  });

  it("sends no currency without a daily spend, and whole units for a currency without decimals", () => {
    expect(passportFromDraft(draft({ spend: "" })).fields.constraints).toMatchObject({
      max_daily_spend_minor: null,
      currency: null,
    });
    expect(passportFromDraft(draft({ spend: "1200", currency: "JPY" })).fields.constraints).toMatchObject({
      max_daily_spend_minor: 1200,
      currency: "JPY",
    });
  });

  it("finds every problem at once", () => {
    const { errors } = passportFromDraft(
      draft({
        purpose: "p".repeat(501),
        responsibilities: Array.from({ length: 21 }, (_, i) => `r${i}`).join("\n"),
        allowed_actions: `ok\n${"a".repeat(101)}`,
        spend: "12.345",
        notes: "n".repeat(1001),
        escalation: "e".repeat(1001),
      }),
    );
    expect(Object.keys(errors).sort()).toEqual(
      ["allowed_actions", "escalation", "notes", "purpose", "responsibilities", "spend"].sort(),
    );
    expect(errors.allowed_actions).toMatch(/^Line 2 is 101 characters/);
    expect(errors.responsibilities).toMatch(/At most 20 responsibilities: there are 21/);
    expect(errors.spend).toMatch(/at most 2/);
  });
});

describe("draftFromPassport", () => {
  it("shows the stored spend in major units of its currency, and the owner's currency when none is set", () => {
    const passport: TPassport = {
      agent_id: BUSINESS,
      version: 2,
      purpose: "x",
      responsibilities: ["a", "b"],
      allowed_actions: [],
      constraints: { max_daily_spend_minor: 4000, currency: "USD", businesses: [], notes: "n" },
      escalation: "",
      template_id: null,
      updated_at: "2026-05-08T12:00:00.000Z",
    };
    expect(draftFromPassport(passport, "EUR")).toMatchObject({
      responsibilities: "a\nb",
      spend: "40.00",
      currency: "USD",
      notes: "n",
    });
    const unset = { ...passport, constraints: { ...passport.constraints, max_daily_spend_minor: null, currency: null } };
    expect(draftFromPassport(unset, "EUR")).toMatchObject({ spend: "", currency: "EUR" });
  });
});

describe("passportFieldOf", () => {
  it("leads server issues to their control, naming the line of a list", () => {
    expect(passportFieldOf({ path: "responsibilities.3", message: "must not be empty" })).toEqual({
      field: "responsibilities",
      message: "Line 4: must not be empty",
    });
    expect(passportFieldOf({ path: "constraints.max_daily_spend_minor", message: "x" })).toEqual({ field: "spend" });
    expect(passportFieldOf({ path: "overrides.constraints.businesses.0", message: "x" })).toEqual({ field: "businesses" });
    expect(passportFieldOf({ path: "template_id", message: "x" })).toBeNull();
  });
});

describe("suggested grants", () => {
  const suggestion = {
    scope: "ads" as const,
    level: "execute" as const,
    daily_limit_minor: 4000,
    monthly_limit_minor: null,
    currency: "EUR",
    over_limit: "approval" as const,
  };

  it("become a grant on the resource chosen, and are recognised once held", () => {
    const wanted = grantFromSuggestion(suggestion, `business:${BUSINESS}`);
    expect(wanted).toEqual({ ...suggestion, resource: `business:${BUSINESS}` });
    expect(holdsGrant([], wanted)).toBe(false);
    expect(holdsGrant([wanted], wanted)).toBe(true);
    expect(holdsGrant([{ ...wanted, resource: "*" }], wanted)).toBe(false);
    expect(grantInputs([wanted])).toEqual([wanted]);
  });
});

describe("linesOf", () => {
  it("keeps the non-empty lines, trimmed", () => {
    expect(linesOf(" a \r\n\nb\n  \n")).toEqual(["a", "b"]);
  });
});
