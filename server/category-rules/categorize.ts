// Which category (and project) a row gets from the owner's rules: the first rule, in priority
// order, whose pattern matches the row's field. Pure: the same function runs at ingest, at
// import preview and in the dry run, so what the dry run counts is what the rules do.
//
// Regular expressions run on RE2JS (a JavaScript port of RE2), whose matching time is linear
// in the text whatever the pattern: a hostile pattern such as (a+)+$ cannot hang the server,
// which a backtracking engine (RegExp) cannot promise even after a "safe-regex" heuristic. The
// price is RE2's syntax: no backreferences and no lookaround (such patterns are refused with a
// 400 naming `pattern`). Patterns are at most 200 characters and their compiled program is
// bounded; the text matched is at most the first 1,000 characters of the field.
import { RE2JS } from "re2js";

export const RULE_FIELDS = ["description", "counterparty"] as const;
export const RULE_OPERATORS = ["contains", "equals", "regex"] as const;
export type TRuleField = (typeof RULE_FIELDS)[number];
export type TRuleOperator = (typeof RULE_OPERATORS)[number];

export const PATTERN_MAX_LENGTH = 200;
/** RE2 instructions: RE2 is linear in the text, but its constant is the program (`.{1,100}.{1,100}x`, 401, takes ~2 ms on 1,000 characters). */
const PROGRAM_MAX_SIZE = 400;
const TEXT_MAX_LENGTH = 1_000;

export type TRuleSpec = {
  id?: string;
  field: TRuleField;
  operator: TRuleOperator;
  pattern: string;
  category: string;
  project_id: string | null;
};

export type TCompiledRule = TRuleSpec & { matches: (text: string) => boolean };

/** What a rule looks at in a row. */
export type TRuleRow = { description?: string | null; counterparty?: string | null };

/** Why a pattern cannot be a rule's (null: it can). */
export function patternProblem(operator: TRuleOperator, pattern: string): string | null {
  if (pattern.trim() === "") return "must not be empty";
  if (pattern.length > PATTERN_MAX_LENGTH) return `must be at most ${PATTERN_MAX_LENGTH} characters`;
  if (operator !== "regex") return null;
  try {
    const compiled = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
    if (compiled.programSize() > PROGRAM_MAX_SIZE) return "is too complex (its repetitions expand too far)";
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : "is not valid";
    return `is not a valid regular expression (RE2 syntax: no backreferences or lookaround): ${reason}`;
  }
}

const fold = (text: string) => text.toLowerCase();

/** A rule ready to match. The pattern must have passed patternProblem (a bad one matches nothing). */
export function compileRule<T extends TRuleSpec>(rule: T): T & { matches: (text: string) => boolean } {
  if (rule.operator === "regex") {
    let regex: RE2JS | null = null;
    try {
      regex = RE2JS.compile(rule.pattern, RE2JS.CASE_INSENSITIVE);
    } catch {
      regex = null;
    }
    return { ...rule, matches: (text) => regex !== null && regex.test(text.slice(0, TEXT_MAX_LENGTH)) };
  }
  const needle = fold(rule.pattern.trim());
  if (rule.operator === "equals") return { ...rule, matches: (text) => fold(text.trim()) === needle };
  return { ...rule, matches: (text) => fold(text).includes(needle) };
}

/** The first rule (in the order given) that matches the row, or null. */
export function categorize<T extends TCompiledRule>(rules: readonly T[], row: TRuleRow): T | null {
  for (const rule of rules) {
    const text = rule.field === "description" ? row.description : row.counterparty;
    if (text && rule.matches(text)) return rule;
  }
  return null;
}
