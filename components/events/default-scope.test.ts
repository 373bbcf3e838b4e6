import { describe, expect, it } from "vitest";
import { defaultScope, NO_SCOPE, scopeFromQuery } from "./default-scope";

const options = (...values: string[]) => values.map((value) => ({ value }));
const TWO = options("b:berlin", "p:berlin-app", "b:austin", "personal");

describe("the default scope of a new event or subscription", () => {
  it("is the business the owner came from, when it is offered", () => {
    expect(defaultScope(TWO, { cameFrom: "b:austin", lastUsed: "b:berlin" })).toBe("b:austin");
    expect(defaultScope(TWO, { cameFrom: "p:berlin-app" })).toBe("p:berlin-app");
    // An archived or unknown business is not offered: the next hint decides.
    expect(defaultScope(TWO, { cameFrom: "b:gone", lastUsed: "b:berlin" })).toBe("b:berlin");
  });

  it("is the scope used last, Personal included when it was chosen", () => {
    expect(defaultScope(TWO, { lastUsed: "b:berlin" })).toBe("b:berlin");
    expect(defaultScope(TWO, { lastUsed: "personal" })).toBe("personal");
  });

  it("is the only business without a hint, and nothing (the form asks) with several", () => {
    expect(defaultScope(options("b:berlin", "p:berlin-app", "personal"), {})).toBe("b:berlin");
    expect(defaultScope(TWO, {})).toBe(NO_SCOPE);
    expect(defaultScope(TWO, { cameFrom: null, lastUsed: "b:gone" })).toBe(NO_SCOPE);
  });

  it("is Personal only when no business exists", () => {
    expect(defaultScope(options("personal"), {})).toBe("personal");
  });

  it("reads the scope a link names", () => {
    expect(scopeFromQuery(new URLSearchParams("business=abc"))).toBe("b:abc");
    expect(scopeFromQuery(new URLSearchParams("business=abc&project=def"))).toBe("p:def");
    expect(scopeFromQuery(new URLSearchParams(""))).toBeNull();
  });
});
