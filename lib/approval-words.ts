// How an approval's action is said to a person, the same in the panel and in the notification
// that tells the owner it waits: what is asked, never its action code (`ad_budget_change.create`).
// Pure formatting, shared by the server's notification text and the panel.

const ACTION_LABELS: Record<string, string> = {
  "ad_budget_change.create": "Change an ad budget",
  grant_scope: "Grant a permission",
  connect_integration: "Connect an integration",
  provide_data: "Provide data",
};

/** "ad_budget_change.create" → "Change an ad budget"; an action without a label is said in words ("a_b.c" → "A b c"). */
export function approvalActionLabel(action: string): string {
  const known = ACTION_LABELS[action];
  if (known) return known;
  const words = action.replace(/[._]+/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : action;
}

/** The action's label inside a sentence: "Change an ad budget" → "change an ad budget". */
export function approvalActionPhrase(action: string): string {
  const label = approvalActionLabel(action);
  return label.charAt(0).toLowerCase() + label.slice(1);
}
