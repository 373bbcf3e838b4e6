import { describe, expect, it } from "vitest";
import { decodeWaitlistFlash, encodeWaitlistFlash } from "./waitlist-flash";
import { retryWords, waitlistOutcome } from "./waitlist-form";

const invalid = (...issues: { path: string; message: string }[]) => ({
  error: { code: "validation_error", message: "x", details: { issues: issues.map((issue) => ({ ...issue, code: "custom" })) } },
});

describe("waitlistOutcome", () => {
  it("accepts a 202", () => {
    expect(waitlistOutcome(202, { data: { status: "accepted" } }, null)).toEqual({ accepted: true });
  });

  it("puts the email's error beside the field and every other one above the form, all at once", () => {
    const body = invalid(
      { path: "email", message: "must be an email address" },
      { path: "source", message: "must be at most 64 characters" },
    );
    expect(waitlistOutcome(400, body, null)).toEqual({
      accepted: false,
      errors: { email: "Email must be an email address.", form: "The link's source tag must be at most 64 characters." },
    });
    expect(waitlistOutcome(400, { error: { code: "validation_error" } }, null)).toEqual({
      accepted: false,
      errors: { form: "The form could not be read. Check it and try again." },
    });
  });

  it("says when to try again past the limit, and something calm for anything else", () => {
    expect(waitlistOutcome(429, null, "55")).toEqual({
      accepted: false,
      errors: { form: "Too many sign-ups from your network. Try again in 55 seconds." },
    });
    expect(retryWords(3600)).toBe("in 60 minutes");
    expect(retryWords(50_000)).toBe("in 14 hours");
    expect(retryWords(null)).toBe("in a moment");
    expect(waitlistOutcome(500, null, null).accepted).toBe(false);
  });
});

describe("the no-JavaScript flash", () => {
  it("round-trips what was typed and the errors, and drops what is not ours", () => {
    const flash = { email: "ada@", source: "news", errors: { email: "Email must be an email address." } };
    expect(decodeWaitlistFlash(encodeWaitlistFlash(flash))).toEqual(flash);
    expect(decodeWaitlistFlash(encodeWaitlistFlash({ ...flash, email: "x".repeat(400) }))?.email).toBe("");
    expect(decodeWaitlistFlash("not base64 json")).toBeNull();
    expect(decodeWaitlistFlash(undefined)).toBeNull();
    expect(decodeWaitlistFlash(Buffer.from('{"email":5,"errors":{"form":7}}').toString("base64url"))).toEqual({
      email: "",
      source: "",
      errors: {},
    });
  });
});
