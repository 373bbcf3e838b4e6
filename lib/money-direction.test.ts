// The direction of money (lib/money-direction.ts), as stated; its PostgreSQL form is checked
// against it in money-direction.int.test.ts.
import { describe, expect, it } from "vitest";
import { moneyDirection, moneyDirectionSql } from "./money-direction";

describe("moneyDirection", () => {
  it("sends costs out and revenue in; a refund goes its own way; other types go nowhere", () => {
    for (const type of ["expense", "ad_spend", "recurring_expense", "planned_expense"]) {
      expect(moneyDirection(type, null), type).toBe("out");
      expect(moneyDirection(type, "in"), type).toBe("out"); // the type decides, not the column
    }
    expect(moneyDirection("revenue", null)).toBe("in");
    expect(moneyDirection("revenue", "out")).toBe("in");
    expect(moneyDirection("refund", "in")).toBe("in"); // a cost paid back
    expect(moneyDirection("refund", "out")).toBe("out"); // revenue paid back
    expect(moneyDirection("refund", null)).toBeNull();
    expect(moneyDirection("refund", "sideways")).toBeNull();
    for (const type of ["subscription_change", "agent_action", "future_type"]) {
      expect(moneyDirection(type, "in"), type).toBeNull();
      expect(moneyDirection(type, null), type).toBeNull();
    }
  });

  it("refuses an alias that is not a plain identifier (it is pasted into SQL)", () => {
    expect(() => moneyDirectionSql("e; DROP TABLE x")).toThrow();
    expect(() => moneyDirectionSql("e")).not.toThrow();
  });
});
