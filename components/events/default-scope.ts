// Where a new event or subscription belongs when the owner has not chosen yet (issue 37: a quick
// business expense must not land in personal money). In order: the business (or project) the
// owner came from (the link's ?business= or ?project=), the scope used last in this browser,
// the only business when there is one; with several businesses and no hint, nothing: the form
// asks. Personal is the default only when there is no business at all (it is then the only
// choice); otherwise only a deliberate choice, or the last one, makes it so.
// Pure, no imports: the panel runs it and the unit tests run it anywhere.

export const NO_SCOPE = "";
export const LAST_SCOPE_KEY = "finance.last-scope";

/** "b:<id>" for a business, "p:<id>" for a project, "personal". */
export type TScopeValue = string;

export function defaultScope(
  options: ReadonlyArray<{ value: TScopeValue }>,
  hints: { cameFrom?: TScopeValue | null; lastUsed?: TScopeValue | null },
): TScopeValue {
  const offered = (value: TScopeValue | null | undefined): value is TScopeValue =>
    !!value && options.some((option) => option.value === value);
  if (offered(hints.cameFrom)) return hints.cameFrom;
  if (offered(hints.lastUsed)) return hints.lastUsed;
  const businesses = options.filter((option) => option.value.startsWith("b:"));
  if (businesses.length === 1) return businesses[0]!.value;
  if (businesses.length === 0 && offered("personal")) return "personal";
  return NO_SCOPE;
}

/** The scope a page's query names (?project= before ?business=), or null. */
export function scopeFromQuery(params: { get(name: string): string | null }): TScopeValue | null {
  const project = params.get("project");
  if (project) return `p:${project}`;
  const business = params.get("business");
  return business ? `b:${business}` : null;
}
