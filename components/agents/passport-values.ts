// An agent's passport as the panel edits it: lists typed one item per line, the daily spend in
// MAJOR units converted to exact minor units (lib/money.ts), every problem found at once, and the
// server's refusals led back to the control they concern. No React: unit-tested beside it.
import { majorToMinor, minorToMajor } from "@/lib/money";
import type { TFieldIssue } from "@/lib/trpc/errors";
import type { TPassport, TPassportFields, TSuggestedGrant } from "@/server/passports/passport.schema";
import { PASSPORT_LIMITS } from "@/server/panel-contract";
import type { TGrantInput, TGrantRecord } from "./grants";

export type TPassportDraft = {
  purpose: string;
  responsibilities: string;
  allowed_actions: string;
  spend: string;
  currency: string;
  businesses: string[];
  notes: string;
  escalation: string;
};

/** The form's fields, as error keys. */
export type TPassportField = keyof TPassportDraft;

export function draftFromPassport(passport: TPassport, defaultCurrency: string): TPassportDraft {
  const currency = passport.constraints.currency ?? defaultCurrency;
  const spend = passport.constraints.max_daily_spend_minor;
  return {
    purpose: passport.purpose,
    responsibilities: passport.responsibilities.join("\n"),
    allowed_actions: passport.allowed_actions.join("\n"),
    spend: spend === null ? "" : minorToMajor(spend, currency),
    currency,
    businesses: [...passport.constraints.businesses],
    notes: passport.constraints.notes ?? "",
    escalation: passport.escalation,
  };
}

/** "a\n\n b \n" → ["a", "b"]: one item per non-empty line, trimmed. */
export function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

function checkList(lines: string[], what: { max: number; each: number; noun: string; plural: string }): string | null {
  if (lines.length > what.max) return `At most ${what.max} ${what.plural}: there are ${lines.length}.`;
  const long = lines.findIndex((line) => line.length > what.each);
  if (long >= 0) return `Line ${long + 1} is ${lines[long]!.length} characters; each ${what.noun} may have at most ${what.each}.`;
  return null;
}

function checkText(text: string, max: number): string | null {
  const length = text.trim().length;
  return length > max ? `At most ${max} characters: this has ${length}.` : null;
}

/**
 * The draft as PUT's body, or every problem the form can tell by itself (keyed by field), so the
 * owner sees them all at once. What only the server knows (a business gone) comes back from it.
 */
export function passportFromDraft(draft: TPassportDraft): {
  fields: TPassportFields;
  errors: Partial<Record<TPassportField, string>>;
} {
  const errors: Partial<Record<TPassportField, string>> = {};
  const set = (field: TPassportField, message: string | null) => {
    if (message) errors[field] = message;
  };
  const responsibilities = linesOf(draft.responsibilities);
  const allowedActions = linesOf(draft.allowed_actions);
  set("purpose", checkText(draft.purpose, PASSPORT_LIMITS.purpose));
  set(
    "responsibilities",
    checkList(responsibilities, {
      max: PASSPORT_LIMITS.responsibilities,
      each: PASSPORT_LIMITS.responsibility,
      noun: "responsibility",
      plural: "responsibilities",
    }),
  );
  set(
    "allowed_actions",
    checkList(allowedActions, {
      max: PASSPORT_LIMITS.allowedActions,
      each: PASSPORT_LIMITS.allowedAction,
      noun: "action",
      plural: "actions",
    }),
  );
  set("notes", checkText(draft.notes, PASSPORT_LIMITS.notes));
  set("escalation", checkText(draft.escalation, PASSPORT_LIMITS.escalation));

  let spend: number | null = null;
  const currency = draft.currency.trim().toUpperCase();
  if (draft.spend.trim() !== "") {
    if (!currency) errors.currency = "Choose the currency of the daily spend.";
    else {
      const parsed = majorToMinor(draft.spend, currency);
      if (parsed.ok) spend = parsed.minor;
      else errors.spend = parsed.message;
    }
  }
  return {
    fields: {
      purpose: draft.purpose.trim(),
      responsibilities,
      allowed_actions: allowedActions,
      constraints: {
        max_daily_spend_minor: spend,
        currency: spend === null ? null : currency,
        businesses: draft.businesses,
        notes: draft.notes.trim() || null,
      },
      escalation: draft.escalation.trim(),
    },
    errors,
  };
}

const FIELD_OF_PATH: Record<string, TPassportField> = {
  purpose: "purpose",
  responsibilities: "responsibilities",
  allowed_actions: "allowed_actions",
  "constraints.max_daily_spend_minor": "spend",
  "constraints.currency": "currency",
  "constraints.businesses": "businesses",
  "constraints.notes": "notes",
  escalation: "escalation",
};

/**
 * The form control a server issue belongs to (`responsibilities.3` → responsibilities, saying
 * which line), or null: the summary. Paths of from-template's overrides (`overrides.…`) too.
 */
export function passportFieldOf(issue: TFieldIssue): { field: string; message?: string } | null {
  const path = issue.path.replace(/^overrides\./, "");
  const line = /^(responsibilities|allowed_actions)\.(\d+)$/.exec(path);
  if (line) return { field: line[1]!, message: `Line ${Number(line[2]) + 1}: ${issue.message}` };
  if (/^constraints\.businesses\.\d+$/.test(path)) return { field: "businesses" };
  const field = FIELD_OF_PATH[path];
  return field ? { field } : null;
}

/** The grant an accepted suggestion becomes, on the resource the owner chose. */
export function grantFromSuggestion(suggestion: TSuggestedGrant, resource: string): TGrantInput {
  return { ...suggestion, resource };
}

/** An agent's grants as agents.update takes them (to add one, the others are sent again unchanged). */
export function grantInputs(grants: TGrantRecord[]): TGrantInput[] {
  return grants.map((grant) => ({
    scope: grant.scope as TGrantInput["scope"],
    resource: grant.resource,
    level: grant.level,
    daily_limit_minor: grant.daily_limit_minor,
    monthly_limit_minor: grant.monthly_limit_minor,
    currency: grant.currency,
    over_limit: grant.over_limit,
  }));
}

/** Whether the agent already holds this grant exactly (scope, resource, level and limits). */
export function holdsGrant(grants: TGrantRecord[], wanted: TGrantInput): boolean {
  return grants.some(
    (grant) =>
      grant.scope === wanted.scope &&
      grant.resource === wanted.resource &&
      grant.level === wanted.level &&
      grant.daily_limit_minor === wanted.daily_limit_minor &&
      grant.monthly_limit_minor === wanted.monthly_limit_minor &&
      (grant.currency ?? null) === (wanted.currency ?? null) &&
      grant.over_limit === wanted.over_limit,
  );
}
