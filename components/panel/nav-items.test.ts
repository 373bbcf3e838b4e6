import { describe, expect, it } from "vitest";
import { NAV_ITEMS, visibleNavItems } from "./nav-items";

describe("visibleNavItems", () => {
  it("lists the Waitlist only for its readers", () => {
    const hrefs = (reader: boolean) => visibleNavItems(NAV_ITEMS, { waitlist_reader: reader }).map((item) => item.href);
    expect(hrefs(true)).toContain("/waitlist");
    expect(hrefs(false)).not.toContain("/waitlist");
    // Everything else is the same for both.
    expect(hrefs(true).filter((href) => href !== "/waitlist")).toEqual(hrefs(false));
  });
});
