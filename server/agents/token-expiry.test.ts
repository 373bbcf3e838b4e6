// An agent token's lifetime: in the future, at most one calendar year ahead (the boundary
// exactly, with a fixed clock).
import { describe, expect, it } from "vitest";
import { AGENT_TOKEN_TTL_MS } from "../auth/lifetimes";
import { isAppError } from "../errors/app-error";
import { tokenExpiry } from "./agent-service";

const NOW = new Date("2026-11-24T10:00:00.000Z");

function refusal(requested: string, now = NOW) {
  try {
    tokenExpiry(requested, now);
  } catch (error) {
    if (isAppError(error)) return { code: error.code, details: error.details };
    throw error;
  }
  return null;
}

describe("tokenExpiry", () => {
  it("defaults to 90 days", () => {
    expect(tokenExpiry(undefined, NOW).getTime()).toBe(NOW.getTime() + AGENT_TOKEN_TTL_MS);
  });

  it("accepts exactly one year ahead and refuses one millisecond more, naming token_expires_at", () => {
    expect(tokenExpiry("2027-11-24T10:00:00.000Z", NOW).toISOString()).toBe("2027-11-24T10:00:00.000Z");
    expect(refusal("2027-11-24T10:00:00.001Z")).toMatchObject({
      code: "validation_error",
      details: { issues: [{ path: "token_expires_at" }] },
    });
  });

  it("counts a calendar year: across 29 February it is 366 days; from 29 February it ends on 1 March", () => {
    const beforeLeap = new Date("2027-06-01T00:00:00.000Z");
    expect(tokenExpiry("2028-06-01T00:00:00.000Z", beforeLeap).toISOString()).toBe("2028-06-01T00:00:00.000Z");
    const leapDay = new Date("2028-02-29T12:00:00.000Z");
    expect(tokenExpiry("2029-03-01T12:00:00.000Z", leapDay).toISOString()).toBe("2029-03-01T12:00:00.000Z");
    expect(refusal("2029-03-01T12:00:00.001Z", leapDay)).toMatchObject({ code: "validation_error" });
  });

  it("still refuses a time that is not in the future", () => {
    expect(refusal(NOW.toISOString())).toMatchObject({ code: "validation_error" });
  });
});
