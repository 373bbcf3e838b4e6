// How the panel words notifications: the bell's label, severities, kinds (not codes), what became
// of what a notification is about, where its record is seen, the delivery log's rows and the
// webhook's refusals. Formatting only: what a notification is and who receives it is decided on
// the server.
import type { TNotification } from "@/server/notifications/notification.schema";

export type TSeverity = TNotification["severity"];

/** The bell's badge shows the count up to 99, then "99+". */
const BADGE_MAX = 99;

export function unreadBadge(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > BADGE_MAX ? `${BADGE_MAX}+` : String(unread);
}

/** The bell link's accessible name: "Notifications, 3 unread". */
export function bellLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : "Notifications, none unread";
}

export const SEVERITY_LABELS: Record<TSeverity, string> = { info: "Info", warning: "Warning", critical: "Critical" };

/** For a channel's lowest severity: what it receives. */
export const MIN_SEVERITY_OPTIONS: ReadonlyArray<{ value: TSeverity; label: string }> = [
  { value: "info", label: "Everything (info and above)" },
  { value: "warning", label: "Warnings and critical" },
  { value: "critical", label: "Critical only" },
];

/** Where the record a notification is about can be seen in the panel; null when it has no page. */
export function refLink(ref: TNotification["ref"]): { href: string; label: string } | null {
  if (!ref) return null;
  switch (ref.type) {
    case "alert":
      return { href: "/integrations#alerts-heading", label: "See the alerts" };
    case "approval":
      return { href: "/approvals", label: "Open approvals" };
    case "import":
      return { href: "/imports", label: "Open imports" };
    case "agent":
      return { href: `/agents/${encodeURIComponent(ref.id)}`, label: "Open the agent" };
    case "daily_brief":
      return { href: `/brief?date=${encodeURIComponent(ref.id)}`, label: "Read the brief" };
    default:
      return null;
  }
}

/** The kinds of notification the owner filters by, each a code prefix the API takes (code=<prefix>*). */
export const NOTIFICATION_KINDS: ReadonlyArray<{ value: string; label: string }> = [
  { value: "integration.*", label: "Integration alerts" },
  { value: "approval.*", label: "Approvals" },
  { value: "import.*", label: "Imports" },
  { value: "agent.*", label: "Agents" },
  { value: "daily_brief.*", label: "Daily brief" },
  { value: "plan.*", label: "Your plan" },
];

/** A notification's kind in words, from its code: "integration.payout_failed" → "Integration alert". */
export function kindLabel(code: string): string {
  const prefix = code.split(".")[0] ?? "";
  return KIND_SINGULAR[prefix] ?? "Notice";
}

const KIND_SINGULAR: Record<string, string> = {
  integration: "Integration alert",
  approval: "Approval",
  import: "Import",
  agent: "Agent",
  daily_brief: "Daily brief",
  plan: "Your plan",
};

/** What became of the approval a notification is about: "Approved", "Rejected", "Dismissed"; null while it waits. */
export function resolutionText(resolution: TNotification["resolution"]): string | null {
  if (!resolution) return null;
  return RESOLUTION_WORDS[resolution.status] ?? "Decided";
}

const RESOLUTION_WORDS: Record<string, string> = {
  approved: "You approved it",
  rejected: "You rejected it",
  dismissed: "You dismissed it",
};

export type TDeliveryRow = {
  key: string;
  at: string;
  channel: "webhook" | "email";
  status: "delivered" | "failed";
  error: string | null;
  attempt: number | null;
  notificationId: string;
  title: string;
};

/** The webhook and email attempts recorded on these notifications, newest first (in_app is not sent anywhere). */
export function deliveryRows(notifications: ReadonlyArray<Pick<TNotification, "id" | "title" | "delivered">>): TDeliveryRow[] {
  const rows: TDeliveryRow[] = [];
  for (const notification of notifications) {
    notification.delivered.forEach((attempt, index) => {
      if (attempt.channel !== "webhook" && attempt.channel !== "email") return;
      rows.push({
        key: `${notification.id}-${index}`,
        at: attempt.at,
        channel: attempt.channel,
        status: attempt.status,
        error: attempt.error ?? null,
        attempt: attempt.attempt ?? null,
        notificationId: notification.id,
        title: notification.title,
      });
    });
  }
  return rows.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** A failed attempt's error code in words. */
export function deliveryErrorText(error: string): string {
  const http = /^http_(\d{3})$/.exec(error);
  if (http) return `The receiver answered HTTP ${http[1]}`;
  return DELIVERY_ERRORS[error] ?? error;
}

const DELIVERY_ERRORS: Record<string, string> = {
  redirect_refused: "The receiver redirected; redirects are not followed",
  timeout: "No answer within 10 seconds",
  address_refused: "The address is private or local",
  dns_failed: "The host name did not resolve",
  connection_failed: "The connection failed",
  tls_failed: "The TLS handshake failed",
};

/** What a refused webhook URL (422 webhook_url_invalid, details.rule) means to the owner. */
export const WEBHOOK_RULE_MESSAGES: Record<string, string> = {
  not_absolute: "Enter a whole URL such as https://example.com/hooks/finance (at most 2048 characters).",
  scheme: "The webhook must use https.",
  credentials: "Leave the user name and password out of the URL; verify deliveries with the signing secret instead.",
  unresolvable: "This host name does not resolve. Check the spelling, or that its DNS record exists.",
  address: "This address is private or local; the webhook must be a public https URL.",
};

export function webhookRuleMessage(rule: string | undefined): string {
  return (rule && WEBHOOK_RULE_MESSAGES[rule]) || "This URL was refused; the webhook must be a public https URL.";
}
