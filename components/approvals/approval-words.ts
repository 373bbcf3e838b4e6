// How the approvals inbox says things (issue 37, "Saying things plainly"): what kind of thing
// waits, where a grant applies (the business by its name, never `business:<uuid>`), the ad
// account and business a budget change is on, when a change takes effect, and what approving
// did, in words rather than as JSON. Formatting only: every figure comes from the server.
import { formatMinor } from "@/lib/money";

/** The names the inbox shows instead of ids: businesses, and connected accounts (integrations). */
export type TApprovalNames = {
  businesses: Readonly<Record<string, string>>;
  integrations: Readonly<Record<string, { name: string; account_id: string | null; business_id: string | null }>>;
};

export const NO_NAMES: TApprovalNames = { businesses: {}, integrations: {} };

/** The pill beside an approval's title: an agent's proposed change, or its request. */
export function approvalKindLabel(kind: string): string {
  return kind === "write" ? "Proposed change" : "Request";
}

/** Where a grant applies: "*" → "all your businesses and personal money"; "business:<id>" → "Kiosk" (by name). */
export function resourceText(resource: string | undefined, names: TApprovalNames): string {
  if (!resource) return "somewhere not said";
  if (resource === "*") return "everything you own";
  const [type, id = ""] = resource.split(":", 2);
  if (type === "business") {
    const name = names.businesses[id];
    return name ? `the business ${name}` : "a business that is no longer listed";
  }
  if (type === "project") return "a project";
  if (type === "personal") return "your personal money";
  return resource;
}

/** The ad account a budget change is on: "Meta Ads (act_123) of Kiosk"; null when unknown. */
export function adAccountText(integrationId: string | undefined, names: TApprovalNames): string | null {
  if (!integrationId) return null;
  const account = names.integrations[integrationId];
  if (!account) return null;
  const business = account.business_id ? names.businesses[account.business_id] : undefined;
  return `${account.name}${account.account_id ? ` (${account.account_id})` : ""}${business ? ` of ${business}` : ""}`;
}

/**
 * When a budget change takes effect: the day it names; else, while it waits, the day the owner
 * approves; once decided or recorded within its limits, the day it was (decided_at's day).
 */
export function effectiveText(
  input: { effective_on?: string; status: string; decided_at: string | null },
  formatDay: (day: string) => string,
): string {
  if (input.effective_on) return `From ${formatDay(input.effective_on)}`;
  if (input.status === "pending") return "From the day you approve";
  if (input.decided_at) return `From ${formatDay(input.decided_at.slice(0, 10))}`;
  return "From the day it was made";
}

type TOutcome = { status?: unknown; data?: unknown };

/**
 * What approving did, in words: an ad budget change written ("The new daily budget of €70.00 is
 * set; €20.00 a day counts against the agent's limit"), a permission granted, a connect request's
 * remaining step (its message), or plainly that it was done. Never JSON.
 */
export function outcomeText(result: unknown, locale: string, currency: string | null): string {
  if (!result || typeof result !== "object") return "Done.";
  const { status, data } = result as TOutcome;
  const message =
    data && typeof data === "object" && "message" in data && typeof (data as { message: unknown }).message === "string"
      ? (data as { message: string }).message
      : null;
  if (status === "failed") return message ? `It failed: ${message}` : "It failed.";
  if (status !== "succeeded") return message ?? (typeof status === "string" ? `${sentence(status)}.` : "Done.");
  if (data && typeof data === "object") {
    const record = data as Record<string, unknown>;
    if (typeof record.counted_daily_minor === "number" && typeof record.new_daily_budget_minor === "number") {
      const money = (minor: number) =>
        currency || typeof record.currency === "string"
          ? formatMinor(minor, (record.currency as string | undefined) ?? currency ?? "", locale)
          : String(minor);
      return (
        `Done: the daily budget is now ${money(record.new_daily_budget_minor)}` +
        `, and ${money(record.counted_daily_minor)} a day counts against the agent's limit.`
      );
    }
    if ("granted" in record) return "Done: the agent has the permission.";
  }
  return message ? `Done. ${message}` : "Done.";
}

/** "needs_owner_action" → "Needs owner action". */
function sentence(code: string): string {
  const words = code.replace(/[._]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
