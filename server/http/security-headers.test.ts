// The panel's security headers (proxy.ts): a nonce-based CSP, no framing, nosniff, the
// Referrer-Policy (same-origin where the URL holds a token), Permissions-Policy, and HSTS only
// when PUBLIC_BASE_URL is https.
import { describe, expect, it } from "vitest";
import { isHttpsBaseUrl, newCspNonce, panelSecurityHeaders } from "./security-headers";

describe("panel security headers", () => {
  it("send a nonce-based CSP that forbids framing, plus nosniff, Referrer- and Permissions-Policy", () => {
    const nonce = newCspNonce();
    const headers = panelSecurityHeaders({ nonce, pathname: "/approvals", https: false });
    const csp = headers["Content-Security-Policy"]!;
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(headers["X-Frame-Options"]).toBe("DENY");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["Permissions-Policy"]).toContain("camera=()");
  });

  it("make a new nonce for every response", () => {
    const nonces = new Set(Array.from({ length: 100 }, () => newCspNonce()));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it("send HSTS (and upgrade insecure requests) only when PUBLIC_BASE_URL is https", () => {
    expect(isHttpsBaseUrl("https://books.example.com")).toBe(true);
    expect(isHttpsBaseUrl("http://localhost:3000")).toBe(false);
    expect(isHttpsBaseUrl(undefined)).toBe(false);

    const secure = panelSecurityHeaders({ nonce: "n", pathname: "/", https: true });
    expect(secure["Strict-Transport-Security"]).toBe("max-age=31536000; includeSubDomains");
    expect(secure["Content-Security-Policy"]).toContain("upgrade-insecure-requests");

    const plain = panelSecurityHeaders({ nonce: "n", pathname: "/", https: false });
    expect(plain).not.toHaveProperty("Strict-Transport-Security");
    expect(plain["Content-Security-Policy"]).not.toContain("upgrade-insecure-requests");
  });

  it("keep the sign-in link's token from other sites: same-origin Referrer-Policy on /sign-in/verify", () => {
    expect(panelSecurityHeaders({ nonce: "n", pathname: "/sign-in/verify", https: false })["Referrer-Policy"]).toBe(
      "same-origin",
    );
  });

  it("allow eval only under next dev", () => {
    const dev = panelSecurityHeaders({ nonce: "n", pathname: "/", https: false, dev: true });
    expect(dev["Content-Security-Policy"]).toContain("'unsafe-eval'");
  });
});
