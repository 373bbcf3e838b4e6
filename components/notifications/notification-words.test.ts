// How the panel words notifications: the bell's count and label, where a notification's record is
// seen, the kinds the inbox filters by, what became of it, the delivery log's rows and the
// webhook's refusals.
import { describe, expect, it } from "vitest";
import {
  bellLabel,
  kindLabel,
  NOTIFICATION_KINDS,
  resolutionText,
  deliveryErrorText,
  deliveryRows,
  refLink,
  unreadBadge,
  webhookRuleMessage,
  WEBHOOK_RULE_MESSAGES,
} from "./notification-words";

describe("the bell", () => {
  it("shows no badge at 0, the count up to 99, then 99+", () => {
    expect(unreadBadge(0)).toBeNull();
    expect(unreadBadge(1)).toBe("1");
    expect(unreadBadge(99)).toBe("99");
    expect(unreadBadge(100)).toBe("99+");
  });

  it("says how many are unread in its accessible name (the whole count, not the badge's)", () => {
    expect(bellLabel(3)).toBe("Notifications, 3 unread");
    expect(bellLabel(150)).toBe("Notifications, 150 unread");
    expect(bellLabel(0)).toBe("Notifications, none unread");
  });
});

describe("refLink", () => {
  it("links each kind of record to the page that shows it", () => {
    expect(refLink({ type: "alert", id: "a1" })?.href).toBe("/integrations#alerts-heading");
    expect(refLink({ type: "approval", id: "p1" })?.href).toBe("/approvals");
    expect(refLink({ type: "import", id: "i1" })?.href).toBe("/imports");
    expect(refLink({ type: "agent", id: "0b9c6c51-3c1e-4f4e-9a53-2d55b8f3d9a1" })?.href).toBe(
      "/agents/0b9c6c51-3c1e-4f4e-9a53-2d55b8f3d9a1",
    );
    expect(refLink({ type: "daily_brief", id: "2026-11-24" })).toEqual({
      href: "/brief?date=2026-11-24",
      label: "Read the brief",
    });
  });

  it("has no link for no record or a kind the panel has no page for", () => {
    expect(refLink(null)).toBeNull();
    expect(refLink({ type: "goal", id: "g1" })).toBeNull();
  });
});

describe("deliveryRows", () => {
  it("lists the webhook and email attempts of every notification, newest first, without in_app", () => {
    const rows = deliveryRows([
      {
        id: "n2",
        title: "Payout failed",
        delivered: [
          { channel: "in_app", at: "2026-03-02T10:00:00.000Z", status: "delivered" },
          { channel: "webhook", at: "2026-03-02T10:00:01.000Z", status: "failed", error: "http_500", attempt: 1 },
          { channel: "webhook", at: "2026-03-02T10:01:01.000Z", status: "delivered", attempt: 2 },
        ],
      },
      {
        id: "n1",
        title: "Approval waiting",
        delivered: [{ channel: "email", at: "2026-03-01T09:00:00.000Z", status: "delivered", attempt: 1 }],
      },
    ]);
    expect(rows.map((row) => [row.channel, row.status, row.error, row.attempt, row.title])).toEqual([
      ["webhook", "delivered", null, 2, "Payout failed"],
      ["webhook", "failed", "http_500", 1, "Payout failed"],
      ["email", "delivered", null, 1, "Approval waiting"],
    ]);
    expect(new Set(rows.map((row) => row.key)).size).toBe(3);
  });

  it("is empty when nothing was sent anywhere but the panel", () => {
    expect(
      deliveryRows([
        { id: "n1", title: "t", delivered: [{ channel: "in_app", at: "2026-03-01T09:00:00.000Z", status: "delivered" }] },
      ]),
    ).toEqual([]);
  });
});

describe("words for failures", () => {
  it("reads a delivery error code", () => {
    expect(deliveryErrorText("http_503")).toBe("The receiver answered HTTP 503");
    expect(deliveryErrorText("timeout")).toBe("No answer within 10 seconds");
    expect(deliveryErrorText("something_new")).toBe("something_new");
  });

  it("has a message for every pinned webhook_url_invalid rule, and a fallback", () => {
    expect(Object.keys(WEBHOOK_RULE_MESSAGES).sort()).toEqual([
      "address",
      "credentials",
      "not_absolute",
      "scheme",
      "unresolvable",
    ]);
    expect(webhookRuleMessage("address")).toBe("This address is private or local; the webhook must be a public https URL.");
    expect(webhookRuleMessage(undefined)).toMatch(/refused/);
  });
});

describe("kinds, not codes", () => {
  it("offers each kind as a code prefix the API takes", () => {
    expect(NOTIFICATION_KINDS.map((kind) => kind.label)).toContain("Approvals");
    for (const kind of NOTIFICATION_KINDS) expect(kind.value).toMatch(/^[a-z_]+\.\*$/);
  });

  it("names a notification's kind from its code", () => {
    expect(kindLabel("integration.payout_failed")).toBe("Integration alert");
    expect(kindLabel("approval.pending")).toBe("Approval");
    expect(kindLabel("import.rows_rejected")).toBe("Import");
    expect(kindLabel("daily_brief.ready")).toBe("Daily brief");
    expect(kindLabel("something.new")).toBe("Notice");
  });
});

describe("resolutionText", () => {
  it("says what the owner decided, nothing while it waits", () => {
    expect(resolutionText(null)).toBeNull();
    expect(resolutionText({ status: "approved", decided_at: "2026-12-07T10:00:00.000Z" })).toBe("You approved it");
    expect(resolutionText({ status: "rejected", decided_at: null })).toBe("You rejected it");
    expect(resolutionText({ status: "dismissed", decided_at: null })).toBe("You dismissed it");
  });
});
