// Readable words for the audit log's machine names: "reservation.released" → "Reservation
// released", "budget_reservation" → "Budget reservation". Unknown names are humanised, never hidden.

/** The kinds of record entries are about, as the filter offers them (target_type). */
export const TARGET_TYPES = [
  { value: "business", label: "Business" },
  { value: "project", label: "Project" },
  { value: "event", label: "Event" },
  { value: "subscription", label: "Subscription" },
  { value: "budget_reservation", label: "Budget reservation" },
  { value: "cash_snapshot", label: "Cash snapshot" },
  { value: "goal", label: "Goal" },
  { value: "agent", label: "Agent" },
  { value: "approval", label: "Approval" },
  { value: "integration", label: "Integration" },
  { value: "import", label: "Import" },
  { value: "session", label: "Session" },
  { value: "owner", label: "Your profile" },
] as const;

/** Action filters offered as suggestions: a prefix (…*) per area, and a few exact ones. */
export const ACTION_SUGGESTIONS = [
  { value: "access.denied", label: "Access denied (an agent went beyond its grants)" },
  { value: "agent.*", label: "Agents" },
  { value: "approval.*", label: "Approvals" },
  { value: "business.*", label: "Businesses" },
  { value: "cash_snapshot.*", label: "Cash balances" },
  { value: "event.*", label: "Events" },
  { value: "goal.*", label: "Goals" },
  { value: "import.*", label: "Imports" },
  { value: "integration.*", label: "Integrations" },
  { value: "me.updated", label: "Profile and settings changed" },
  { value: "project.*", label: "Projects" },
  { value: "reservation.*", label: "Budget reservations" },
  { value: "session.*", label: "Sign-ins and sessions" },
  { value: "signal.*", label: "Signals" },
  { value: "subscription.*", label: "Subscriptions" },
] as const;

function sentence(words: string): string {
  const text = words.replace(/[_.]+/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function targetLabel(type: string): string {
  return TARGET_TYPES.find((t) => t.value === type)?.label ?? sentence(type);
}

const SUBJECTS: Record<string, string> = {
  me: "Profile",
  cash_snapshot: "Cash balance",
  reservation: "Budget reservation",
  access: "Access",
};

/** "reservation.released" → "Budget reservation released"; "signal.payout_failed" → "Signal: payout failed". */
export function actionLabel(action: string): string {
  const dot = action.indexOf(".");
  if (dot < 0) return sentence(action);
  const subject = action.slice(0, dot);
  const verb = action.slice(dot + 1).replace(/[_.]+/g, " ");
  if (subject === "signal") return `Signal: ${verb}`;
  return `${SUBJECTS[subject] ?? sentence(subject)} ${verb}`;
}

/** The filters of the Audit log page, as its address carries them (/audit?target_id=…). */
export const AUDIT_FILTER_FIELDS = ["actor_type", "actor_id", "action", "target_type", "target_id", "from", "to"] as const;
export type TAuditFilters = Record<(typeof AUDIT_FILTER_FIELDS)[number], string>;
export const NO_AUDIT_FILTERS: TAuditFilters = {
  actor_type: "",
  actor_id: "",
  action: "",
  target_type: "",
  target_id: "",
  from: "",
  to: "",
};

/** The filters of a query string (unknown keys and repeated values ignored; the API checks the values). */
export function auditFiltersFrom(params: Record<string, string | string[] | undefined>): TAuditFilters {
  const filters = { ...NO_AUDIT_FILTERS };
  for (const field of AUDIT_FILTER_FIELDS) {
    const value = params[field];
    if (typeof value === "string") filters[field] = value.slice(0, 128);
  }
  return filters;
}

/** The Audit log's address for these filters (the empty ones left out). */
export function auditHref(filters: Partial<TAuditFilters>): string {
  const query = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const text = query.toString();
  return text ? `/audit?${text}` : "/audit";
}
