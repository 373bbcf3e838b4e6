// How the panel reads the server's refusals: the contract code, the issues by field, and a
// summary for what no shown field carries.
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import {
  appCodeOf,
  formErrorByPath,
  formErrorOf,
  isSignedOutError,
  issuesOf,
  messageOf,
  ServerAnswerError,
  serverFaultOf,
} from "./errors";

/** A tRPC client error as the server's errorFormatter shapes it (data.appCode, data.details). */
function serverError(message: string, data: Record<string, unknown> | null): TRPCClientError<never> {
  return new TRPCClientError(message, { result: { error: { code: -32600, message, data } } } as never);
}

const validation = (issues: unknown[]) =>
  serverError("The request failed validation.", { appCode: "validation_error", details: { issues } });

describe("appCodeOf and isSignedOutError", () => {
  it("reads the contract code of a server error, nothing of another error", () => {
    expect(appCodeOf(serverError("Gone", { appCode: "not_found" }))).toBe("not_found");
    expect(appCodeOf(serverError("Odd", { appCode: 42 }))).toBeUndefined();
    expect(appCodeOf(new Error("plain"))).toBeUndefined();
    expect(appCodeOf("not an error")).toBeUndefined();
  });

  it("takes unauthenticated, session_expired and session_revoked for a signed-out owner", () => {
    for (const code of ["unauthenticated", "session_expired", "session_revoked"]) {
      expect(isSignedOutError(serverError("x", { appCode: code }))).toBe(true);
    }
    expect(isSignedOutError(serverError("x", { appCode: "scope_denied" }))).toBe(false);
    expect(isSignedOutError(new Error("unauthenticated"))).toBe(false);
  });
});

describe("issuesOf", () => {
  it("keeps the issues that have a message, with an empty path where none is given", () => {
    const error = validation([
      { path: "name", message: "must not be empty" },
      { message: "the body is not an object" },
      { path: "currency" },
      null,
      "junk",
    ]);
    expect(issuesOf(error)).toEqual([
      { path: "name", message: "must not be empty" },
      { path: "", message: "the body is not an object" },
    ]);
  });

  it("answers no issues for an error without details", () => {
    expect(issuesOf(serverError("Gone", { appCode: "not_found" }))).toEqual([]);
    expect(issuesOf(serverError("Odd", { appCode: "validation_error", details: { issues: "none" } }))).toEqual([]);
    expect(issuesOf(new Error("plain"))).toEqual([]);
  });
});

describe("formErrorOf", () => {
  it.each([
    [
      "puts an issue beside the field it names (its first segment), as a sentence",
      [
        { path: "amount_minor", message: "must be an exact integer" },
        { path: "business_id.0", message: "no such business!" },
      ],
      ["amount_minor", "business_id"],
      { fields: { amount_minor: "Must be an exact integer.", business_id: "No such business!" }, summary: null },
    ],
    [
      "shows the first issue beside a field and sums up a second one on it",
      [
        { path: "amount_minor", message: "must be an exact integer" },
        { path: "amount_minor", message: "must be positive" },
      ],
      ["amount_minor"],
      { fields: { amount_minor: "Must be an exact integer." }, summary: "Amount_minor: must be positive." },
    ],
    [
      "sums up the issues of fields the form does not show, naming their path",
      [
        { path: "name", message: "too long" },
        { path: "payload.note", message: "not allowed" },
        { path: "(body)", message: "malformed JSON" },
      ],
      ["name"],
      { fields: { name: "Too long." }, summary: "Payload.note: not allowed. Malformed JSON." },
    ],
  ])("%s", (_, issues, shown, expected) => {
    expect(formErrorOf(validation(issues), shown)).toEqual(expected);
  });

  it("shows the error's own message when there are no issues", () => {
    expect(formErrorOf(serverError("This account is already connected", { appCode: "state_conflict" }), ["name"])).toEqual({
      fields: {},
      summary: "This account is already connected.",
    });
  });

  it("says the server could not be reached for a client error without server data", () => {
    expect(formErrorOf(new TRPCClientError("fetch failed"), [])).toEqual({
      fields: {},
      summary: "The server could not be reached. Check your connection and try again.",
    });
  });

  it("falls back to a generic sentence for an error without a message", () => {
    expect(formErrorOf(new Error(""), [])).toEqual({ fields: {}, summary: "Something went wrong. Try again." });
    expect(formErrorOf(undefined, [])).toEqual({ fields: {}, summary: "Something went wrong. Try again." });
  });
});

describe("formErrorByPath", () => {
  const fieldOf = (issue: { path: string; message: string }) =>
    issue.path.startsWith("grants.")
      ? { field: issue.path, message: issue.path.endsWith("currency") ? "Pick one" : undefined }
      : null;

  it("lets the form name the field and reword the message; the rest goes to the summary", () => {
    const error = validation([
      { path: "grants.0.currency", message: "required with a limit" },
      { path: "grants.1.level", message: "invalid option" },
      { path: "grants.1.level", message: "ignored: the first message per field wins" },
      { path: "name", message: "must not be empty" },
    ]);
    expect(formErrorByPath(error, fieldOf)).toEqual({
      fields: { "grants.0.currency": "Pick one.", "grants.1.level": "Invalid option." },
      summary: "Name: must not be empty.",
    });
  });

  it("reads an error without issues like formErrorOf", () => {
    const error = serverError("The owner suspended the agent", { appCode: "agent_suspended" });
    expect(formErrorByPath(error, fieldOf)).toEqual({ fields: {}, summary: "The owner suspended the agent." });
  });
});

describe("server faults and lost connections", () => {
  /** A tRPC JSON error answer with its HTTP response (the link keeps it in meta). */
  function answered(status: number, data: Record<string, unknown> | null, requestId?: string): TRPCClientError<never> {
    const response = new Response("{}", { status, headers: requestId ? { "x-request-id": requestId } : {} });
    return new TRPCClientError("Something went wrong on our side; retry with the same Idempotency-Key.", {
      result: { error: { code: -32603, message: "x", data } },
      meta: { response },
    } as never);
  }

  it("reports internal_error as a fault on our side with the answer's request id", () => {
    const error = answered(500, { appCode: "internal_error" }, "req_abc123");
    expect(serverFaultOf(error)).toBe(
      "Something went wrong on our side. Try again in a moment. If it keeps happening, contact support and quote request id req_abc123.",
    );
    expect(formErrorOf(error, ["name"]).summary).toBe(serverFaultOf(error));
    expect(messageOf(error)).toBe(serverFaultOf(error));
  });

  it("reports a 5xx answer that is not the endpoint's JSON (an error page) as a server fault, not a lost connection", () => {
    const error = TRPCClientError.from(new ServerAnswerError(502, "req_proxy"));
    expect(messageOf(error)).toBe(
      "Something went wrong on our side. Try again in a moment. If it keeps happening, contact support and quote request id req_proxy.",
    );
    expect(messageOf(TRPCClientError.from(new ServerAnswerError(500, null)))).toBe(
      "Something went wrong on our side. Try again in a moment.",
    );
  });

  it("says what a non-JSON 4xx answer was, and that the server could not be reached only when nothing answered", () => {
    expect(messageOf(TRPCClientError.from(new ServerAnswerError(413, null)))).toBe("The server answered HTTP 413.");
    expect(messageOf(TRPCClientError.from(new TypeError("Failed to fetch")))).toBe(
      "The server could not be reached. Check your connection and try again.",
    );
  });

  it("leaves the contract's other errors alone", () => {
    expect(serverFaultOf(answered(409, { appCode: "state_conflict" }))).toBeNull();
    expect(serverFaultOf(new Error("plain"))).toBeNull();
  });
});
