// What the statement upload says when it fails: the contract's error body when the server sent
// one, else a message for the status (a proxy's page, a cut connection).
import { describe, expect, it } from "vitest";
import { newIdempotencyKey, uploadErrorOf } from "./upload";

const body = (code: string, message: string) => JSON.stringify({ error: { code, message, request_id: "req_1" } });

describe("uploadErrorOf", () => {
  it("carries the contract's code and message", () => {
    const error = uploadErrorOf(415, body("unsupported_media_type", "The file is not a CSV."));
    expect(error).toMatchObject({
      name: "UploadError",
      status: 415,
      code: "unsupported_media_type",
      message: "The file is not a CSV.",
    });
  });

  it("carries the fields the server refused", () => {
    const refused = JSON.stringify({
      error: {
        code: "validation_error",
        message: "account: must be 1 to 64 characters",
        request_id: "req_2",
        details: { issues: [{ path: "account", message: "must be 1 to 64 characters" }, { path: 7 }] },
      },
    });
    expect(uploadErrorOf(400, refused).issues).toEqual([{ path: "account", message: "must be 1 to 64 characters" }]);
    expect(uploadErrorOf(415, body("unsupported_media_type", "The file is not a CSV.")).issues).toEqual([]);
  });

  it("says what the body cap means for a statement file, unless the message already does", () => {
    expect(uploadErrorOf(413, body("payload_too_large", "The body exceeds 10485760 bytes.")).message).toBe(
      "The body exceeds 10485760 bytes. A statement file can be at most 10 MB.",
    );
    expect(uploadErrorOf(413, body("payload_too_large", "Files up to 10 MB.")).message).toBe("Files up to 10 MB.");
  });

  it("reads a proxy's page by its status", () => {
    expect(uploadErrorOf(413, "<html>Request Entity Too Large</html>")).toMatchObject({
      message: "The file is too large (at most 10 MB).",
      code: "payload_too_large",
    });
    expect(uploadErrorOf(502, "<html>Bad Gateway</html>", "req_gateway")).toMatchObject({
      message:
        "Something went wrong on our side. Try again in a moment. If it keeps happening, contact support and quote request id req_gateway.",
      status: 502,
      code: null,
    });
    expect(uploadErrorOf(500, JSON.stringify({ error: { code: 7 } })).message).toBe(
      "Something went wrong on our side. Try again in a moment.",
    );
  });

  it("reports the contract's internal_error as a fault on our side with its request id, not the server's retry advice", () => {
    const body = JSON.stringify({ error: { code: "internal_error", message: "Something went wrong…", request_id: "req_body" } });
    expect(uploadErrorOf(500, body, "req_header")).toMatchObject({
      message:
        "Something went wrong on our side. Try again in a moment. If it keeps happening, contact support and quote request id req_body.",
      code: "internal_error",
    });
  });
});

describe("newIdempotencyKey", () => {
  it("makes a fresh UUID v4 each time", () => {
    const keys = new Set(Array.from({ length: 20 }, newIdempotencyKey));
    expect(keys.size).toBe(20);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
