import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error";
import { assertSameOrigin, crossSiteReason } from "./csrf";

const ALLOWED = "https://books.example.com";

function request(method: string, headers: Record<string, string> = {}): Request {
  return new Request("https://books.example.com/api/trpc/businesses.create", { method, headers });
}

function refused(req: Request, allowed = ALLOWED): AppError {
  try {
    assertSameOrigin(req, allowed);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected csrf_rejected");
}

describe("assertSameOrigin", () => {
  it("lets same-origin browser writes through", () => {
    expect(crossSiteReason(request("POST", { origin: ALLOWED, "sec-fetch-site": "same-origin" }), ALLOWED)).toBeNull();
    expect(crossSiteReason(request("POST", { origin: ALLOWED }), ALLOWED)).toBeNull();
    expect(crossSiteReason(request("POST", { "sec-fetch-site": "same-origin" }), ALLOWED)).toBeNull();
    expect(crossSiteReason(request("POST", { "sec-fetch-site": "none", origin: ALLOWED }), ALLOWED)).toBeNull();
    expect(crossSiteReason(request("DELETE", { referer: `${ALLOWED}/settings` }), ALLOWED)).toBeNull();
  });

  it("accepts PUBLIC_BASE_URL with a path or a trailing slash as the allowed origin", () => {
    expect(crossSiteReason(request("POST", { origin: ALLOWED }), `${ALLOWED}/`)).toBeNull();
    expect(crossSiteReason(request("POST", { origin: ALLOWED }), `${ALLOWED}/back-office`)).toBeNull();
  });

  it.each([
    ["cross-site fetch metadata", { "sec-fetch-site": "cross-site", origin: "https://evil.example" }],
    [
      "a sibling subdomain (same-site, which SameSite=Lax lets the cookie through for)",
      { "sec-fetch-site": "same-site", origin: "https://blog.example.com" },
    ],
    ["same-site even when Origin is forged to match", { "sec-fetch-site": "same-site", origin: ALLOWED }],
    ["an unknown Sec-Fetch-Site value", { "sec-fetch-site": "sideways", origin: ALLOWED }],
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["a foreign Origin despite a same-origin claim", { origin: "https://evil.example", "sec-fetch-site": "same-origin" }],
    ["another scheme", { origin: "http://books.example.com" }],
    ["another port", { origin: "https://books.example.com:8443" }],
    ["Origin: null", { origin: "null" }],
    ["a malformed Origin", { origin: "not a url" }],
    ["no Origin, no Sec-Fetch-Site, foreign Referer", { referer: "https://evil.example/page" }],
    ["no header at all", {}],
  ])("refuses %s with csrf_rejected (403)", (_label, headers) => {
    const error = refused(request("POST", headers));
    expect(error.code).toBe("csrf_rejected");
    expect(error.status).toBe(403);
  });

  it("checks every state-changing method", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(refused(request(method, { origin: "https://evil.example" })).code).toBe("csrf_rejected");
    }
  });

  it("never affects safe methods", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(() =>
        assertSameOrigin(request(method, { "sec-fetch-site": "cross-site", origin: "https://evil.example" }), ALLOWED),
      ).not.toThrow();
    }
  });

  it("never affects bearer calls", () => {
    const req = request("POST", {
      authorization: "Bearer ses_abc",
      "sec-fetch-site": "cross-site",
      origin: "https://evil.example",
    });
    expect(() => assertSameOrigin(req, ALLOWED)).not.toThrow();
    expect(() => assertSameOrigin(request("POST", { authorization: "Bearer agt_abc" }), ALLOWED)).not.toThrow();
  });

  it("does not treat other Authorization schemes as bearer calls", () => {
    expect(refused(request("POST", { authorization: "Basic dXNlcjpwYXNz", origin: "https://evil.example" })).code).toBe(
      "csrf_rejected",
    );
  });

  it("fails closed when the allowed origin is not a URL", () => {
    expect(refused(request("POST", { origin: ALLOWED }), "").code).toBe("csrf_rejected");
  });
});
