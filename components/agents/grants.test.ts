// The agent form's grants: limits typed in major units become exact minor units (never
// rounded), stored grants read back as they were typed, and the server's refusals find the
// control they concern.
import { describe, expect, it } from "vitest";
import {
  agentFormChecks,
  agentFormFieldOf,
  defaultGrantResource,
  draftFromGrant,
  emptyDraft,
  grantsFromDrafts,
  parseIpRanges,
  resourceLabel,
  type TGrantDraft,
  type TGrantRecord,
} from "./grants";

const draft = (overrides: Partial<TGrantDraft> = {}): TGrantDraft => ({ ...emptyDraft("EUR"), ...overrides });

describe("emptyDraft and draftFromGrant", () => {
  it("starts a row as a recommend-level ads grant on everything, in the owner's currency, each with its own key", () => {
    const first = emptyDraft("JPY");
    expect(first).toMatchObject({ scope: "ads", resource: "*", level: "recommend", daily: "", monthly: "", currency: "JPY" });
    expect(first.over_limit).toBe("approval");
    expect(emptyDraft("JPY").key).not.toBe(first.key);
  });

  it("shows stored limits in the limit's own currency digits", () => {
    const grant: TGrantRecord = {
      scope: "finances:observe",
      resource: "business:b1",
      level: "execute",
      daily_limit_minor: 1234,
      monthly_limit_minor: 500,
      currency: "JPY",
      over_limit: "deny",
    };
    expect(draftFromGrant(grant, "EUR")).toMatchObject({
      scope: "finances:observe",
      resource: "business:b1",
      level: "execute",
      daily: "1234",
      monthly: "500",
      currency: "JPY",
      over_limit: "deny",
    });
    expect(draftFromGrant({ ...grant, daily_limit_minor: 1234, currency: "BHD" }, "EUR").daily).toBe("1.234");
  });

  it("reads a grant without limits with the owner's currency, and an unknown scope as ads", () => {
    const grant: TGrantRecord = {
      scope: "retired:scope",
      resource: "*",
      level: "recommend",
      daily_limit_minor: null,
      monthly_limit_minor: null,
      currency: null,
      over_limit: "approval",
    };
    expect(draftFromGrant(grant, "USD")).toMatchObject({ scope: "ads", daily: "", monthly: "", currency: "USD" });
  });
});

describe("grantsFromDrafts", () => {
  it("converts limits exactly to minor units of the limit's currency", () => {
    const { grants, errors } = grantsFromDrafts([
      draft({ level: "execute", daily: "12.34", monthly: "1 000", currency: "eur" }),
      draft({ daily: "500", currency: "JPY", over_limit: "deny" }),
    ]);
    expect(errors).toEqual({});
    expect(grants).toEqual([
      {
        scope: "ads",
        resource: "*",
        level: "execute",
        daily_limit_minor: 1234,
        monthly_limit_minor: 100_000,
        currency: "EUR",
        over_limit: "approval",
      },
      {
        scope: "ads",
        resource: "*",
        level: "recommend",
        daily_limit_minor: 500,
        monthly_limit_minor: null,
        currency: "JPY",
        over_limit: "deny",
      },
    ]);
  });

  it("sends no currency for a grant without limits", () => {
    expect(grantsFromDrafts([draft({ currency: "EUR" })]).grants[0]).toMatchObject({
      daily_limit_minor: null,
      monthly_limit_minor: null,
      currency: null,
    });
  });

  it("names what cannot be converted by the server's own paths, and never rounds", () => {
    const { errors } = grantsFromDrafts([
      draft({ daily: "ok" }),
      draft({ monthly: "12.345", currency: "EUR" }),
      draft({ daily: "1.5", currency: "JPY" }),
      draft({ daily: "10", currency: "  " }),
    ]);
    expect(errors).toEqual({
      "grants.0.daily_limit_minor": "Enter an amount such as 12.34.",
      "grants.1.monthly_limit_minor": "EUR has 2 decimals: enter at most 2.",
      "grants.2.daily_limit_minor": "JPY has no minor unit: enter a whole amount.",
      "grants.3.currency": "Choose the currency of the limit.",
    });
  });
});

describe("parseIpRanges and resourceLabel", () => {
  it("splits IP ranges on commas, spaces, semicolons and lines", () => {
    expect(parseIpRanges("10.0.0.0/8, 192.0.2.7\n2001:db8::/32;  ")).toEqual(["10.0.0.0/8", "192.0.2.7", "2001:db8::/32"]);
    expect(parseIpRanges("   ")).toEqual([]);
  });

  it("names a resource by its option, and one no longer listed by its kind", () => {
    const options = [
      { value: "*", label: "All resources", group: "General" as const },
      { value: "business:b1", label: "Business · Atlas", group: "Businesses" as const },
    ];
    expect(resourceLabel("business:b1", options)).toBe("Business · Atlas");
    expect(resourceLabel("business:gone", options)).toBe("A business no longer listed");
    expect(resourceLabel("project:gone", options)).toBe("A project no longer listed");
    expect(resourceLabel("personal", options)).toBe("personal");
  });
});

describe("agentFormFieldOf", () => {
  const fieldOf = agentFormFieldOf(["10.0.0.0/8", "not-an-ip"]);
  const issue = (path: string, message = "is wrong") => fieldOf({ path, message });

  it("leads a grant's issue to its control, or to its row for a field the row does not show", () => {
    expect(issue("grants.0.currency")).toEqual({ field: "grants.0.currency" });
    expect(issue("grants.2.daily_limit_minor")).toEqual({ field: "grants.2.daily_limit_minor" });
    expect(issue("grants.1.something_else")).toEqual({ field: "grants.1" });
    expect(issue("grants.1")).toEqual({ field: "grants.1" });
    expect(issue("grants")).toEqual({ field: "grants" });
  });

  it("names the IP range an issue is about", () => {
    expect(issue("allowed_ip_ranges.1", "must be an IP address or CIDR range")).toEqual({
      field: "allowed_ip_ranges",
      message: "“not-an-ip” must be an IP address or CIDR range",
    });
    expect(issue("allowed_ip_ranges", "too many")).toEqual({ field: "allowed_ip_ranges", message: "too many" });
    expect(issue("allowed_ip_ranges.7", "out of range")).toEqual({ field: "allowed_ip_ranges", message: "out of range" });
  });

  it("puts the name's issue beside the name, and any other in the summary", () => {
    expect(issue("name")).toEqual({ field: "name" });
    expect(issue("token_expires_at")).toBeNull();
  });
});

describe("agentFormChecks", () => {
  it("finds a missing name and every IP range that is not one, together", () => {
    expect(agentFormChecks("  ", ["10.0.0.0/8", "nope", "2001:db8::/32", "300.1.1.1"])).toEqual({
      name: "Enter a name.",
      allowed_ip_ranges: "“nope”, “300.1.1.1” must be IP addresses or CIDR ranges.",
    });
    expect(agentFormChecks("Bot", ["10.0.0.0/33"])).toEqual({
      allowed_ip_ranges: "“10.0.0.0/33” must be an IP address or CIDR range.",
    });
  });

  it("finds nothing in a named agent with good ranges or none", () => {
    expect(agentFormChecks("Ads bot", [])).toEqual({});
    expect(agentFormChecks("Ads bot", ["203.0.113.7", "203.0.113.0/24", "::1"])).toEqual({});
  });
});

describe("defaultGrantResource", () => {
  const resources = [
    { value: "*", label: "All resources", group: "General" as const },
    { value: "personal", label: "Personal", group: "General" as const },
    { value: "business:austin", label: "Austin", group: "Businesses" as const },
    { value: "business:berlin", label: "Berlin", group: "Businesses" as const },
    { value: "project:app", label: "Berlin / App", group: "Projects" as const },
  ];

  it("starts a new grant on the business in view, else the row above's business, else the first business", () => {
    expect(defaultGrantResource(resources, { inView: "berlin", above: [{ resource: "business:austin" }] })).toBe(
      "business:berlin",
    );
    expect(defaultGrantResource(resources, { inView: "gone", above: [{ resource: "business:berlin" }] })).toBe("business:berlin");
    expect(defaultGrantResource(resources, { above: [{ resource: "*" }] })).toBe("business:austin");
    expect(defaultGrantResource(resources, {})).toBe("business:austin");
  });

  it("is All resources only when there is no business", () => {
    expect(defaultGrantResource(resources.slice(0, 2), { inView: "berlin" })).toBe("*");
  });
});
