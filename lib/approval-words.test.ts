import { describe, expect, it } from "vitest";
import { approvalActionLabel, approvalActionPhrase } from "./approval-words";

describe("approval words", () => {
  it("names known actions in words, never by their code", () => {
    expect(approvalActionLabel("ad_budget_change.create")).toBe("Change an ad budget");
    expect(approvalActionLabel("grant_scope")).toBe("Grant a permission");
    expect(approvalActionLabel("connect_integration")).toBe("Connect an integration");
    expect(approvalActionLabel("provide_data")).toBe("Provide data");
  });

  it("says an unknown action in words rather than as a code", () => {
    expect(approvalActionLabel("invoice_reminder.send")).toBe("Invoice reminder send");
    expect(approvalActionLabel("")).toBe("");
  });

  it("lower-cases the first letter inside a sentence", () => {
    expect(approvalActionPhrase("ad_budget_change.create")).toBe("change an ad budget");
  });
});
