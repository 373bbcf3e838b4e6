// The panel's security headers, set per request by proxy.ts: a Content-Security-Policy whose
// scripts need this response's nonce (Next reads it from the request's CSP header and puts
// it on its own inline and bundle scripts), no framing anywhere (frame-ancestors 'none',
// and X-Frame-Options for old browsers), nosniff, a Referrer-Policy, a Permissions-Policy,
// and HSTS when the panel is served over https (PUBLIC_BASE_URL).
//
// /v1 and /api answers get static headers from next.config.mjs instead (nosniff, no framing),
// so the REST path never runs the proxy. Kept free of heavy imports: the proxy bundles it.
import { randomBytes } from "node:crypto";

/**
 * Pages whose URL holds a secret (the mailed sign-in link's token): no Referer to any other
 * origin. same-origin rather than no-referrer, because with no-referrer browsers send
 * `Origin: null` on the page's own form POST, which the CSRF rule refuses (server/sign-in/login-link.ts).
 * Keep in step with VERIFY_PATH (server/auth/panel-session.ts).
 */
const PRIVATE_URL_PATHS = new Set(["/sign-in/verify"]);

/** One year, the usual preload-list minimum. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Features the panel never uses, switched off for it and anything it could embed. */
const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()";

/** A fresh nonce for one response: 16 random bytes, base64. */
export function newCspNonce(): string {
  return randomBytes(16).toString("base64");
}

export type TPanelHeaderInput = {
  nonce: string;
  /** The request's path (for the Referrer-Policy of pages whose URL holds a secret). */
  pathname: string;
  /** PUBLIC_BASE_URL is https: HSTS, and insecure subresources are upgraded. */
  https: boolean;
  /** `next dev`: React needs eval for its debugging stacks. */
  dev?: boolean;
};

export function contentSecurityPolicy({ nonce, https, dev = false }: Omit<TPanelHeaderInput, "pathname">): string {
  return [
    "default-src 'self'",
    // strict-dynamic: scripts a nonced script loads (Next's chunks) run; nothing else does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // Inline style attributes (React's style={…}) are allowed; scripts are what the nonce guards.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** The headers of one panel response. */
export function panelSecurityHeaders(input: TPanelHeaderInput): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(input),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": PRIVATE_URL_PATHS.has(input.pathname) ? "same-origin" : "strict-origin-when-cross-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    ...(input.https ? { "Strict-Transport-Security": `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains` } : {}),
  };
}

/** Whether PUBLIC_BASE_URL (default http://localhost:$PORT) is an https origin. */
export function isHttpsBaseUrl(publicBaseUrl: string | undefined): boolean {
  return /^https:\/\//i.test(publicBaseUrl?.trim() ?? "");
}
