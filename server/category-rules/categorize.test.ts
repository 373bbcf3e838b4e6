// The pure matcher the ingest path, the import preview and the dry run share.
import { describe, expect, it } from "vitest";
import { categorize, compileRule, patternProblem, type TRuleSpec } from "./categorize";

const rule = (fields: Partial<TRuleSpec>) =>
  compileRule({ field: "description", operator: "contains", pattern: "x", category: "c", project_id: null, ...fields });

describe("categorize", () => {
  it("takes the first matching rule in the order given, by the rule's field, ignoring case", () => {
    const rules = [
      rule({ field: "counterparty", operator: "equals", pattern: " Uber BV ", category: "vendor" }),
      rule({ pattern: "UBER", category: "transport" }),
      rule({ operator: "regex", pattern: "^ub(er)?$", category: "short" }),
    ];
    expect(categorize(rules, { description: "uber ride", counterparty: "uber bv" })?.category).toBe("vendor");
    expect(categorize(rules, { description: "An Uber ride", counterparty: "Someone" })?.category).toBe("transport");
    expect(categorize(rules, { description: "UB" })?.category).toBe("short");
    expect(categorize(rules, { description: "bus" })).toBeNull();
    expect(categorize(rules, { description: null, counterparty: null })).toBeNull();
  });

  it("equals compares the trimmed text; contains finds the pattern anywhere", () => {
    expect(categorize([rule({ operator: "equals", pattern: "rent" })], { description: "  RENT " })).not.toBeNull();
    expect(categorize([rule({ operator: "equals", pattern: "rent" })], { description: "rent march" })).toBeNull();
    expect(categorize([rule({ pattern: "rent" })], { description: "Parent" })).not.toBeNull();
  });

  it("matches a catastrophic-backtracking pattern in linear time", () => {
    const hostile = [rule({ operator: "regex", pattern: "^(a+)+$" })];
    const started = Date.now();
    expect(categorize(hostile, { description: `${"a".repeat(990)}!` })).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("patternProblem", () => {
  it.each([
    ["regex", "(a)\\1", /not a valid regular expression/],
    ["regex", "(?!x)y", /not a valid regular expression/],
    ["regex", "[", /not a valid regular expression/],
    ["regex", ".{1,300}.{1,300}", /too complex/],
    ["contains", "", /must not be empty/],
    ["contains", "y".repeat(201), /at most 200/],
  ] as const)("%s %j: %s", (operator, pattern, problem) => {
    expect(patternProblem(operator, pattern)).toMatch(problem);
  });

  it("accepts ordinary patterns", () => {
    for (const pattern of ["uber", "^amzn mktp", "(?i)stripe|paddle", "\\d{4}-\\d{2}"])
      expect(patternProblem("regex", pattern)).toBeNull();
    expect(patternProblem("contains", "(a)\\1")).toBeNull();
  });
});
