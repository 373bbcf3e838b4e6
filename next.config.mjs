// /v1, /mcp and /api answer JSON (or CSV), never a page: static headers so a browser never sniffs
// them into HTML nor frames them, at no cost to the REST path (the proxy, proxy.ts, which sets
// the panel pages' nonce-based CSP, does not run for them).
const API_SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" },
  { key: "X-Frame-Options", value: "DENY" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native-ish and wasm packages are loaded by Node at run time, not bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "@prisma/schema-engine-wasm",
    "pg",
    "trpc-to-openapi",
    "pg-boss",
  ],
  poweredByHeader: false,
  // The build does not type-check again: `npm run typecheck` (part of `npm test`) does, with the
  // route and page export checks the build would make (`next typegen` writes .next/types first,
  // and tsconfig.json includes them). A build, hence a first `npm start`, is half as long.
  typescript: { ignoreBuildErrors: true },
  async headers() {
    return [
      { source: "/v1/:path*", headers: API_SECURITY_HEADERS },
      { source: "/v1", headers: API_SECURITY_HEADERS },
      { source: "/mcp", headers: API_SECURITY_HEADERS },
      { source: "/oauth/register", headers: API_SECURITY_HEADERS },
      { source: "/oauth/token", headers: API_SECURITY_HEADERS },
      { source: "/.well-known/:path*", headers: API_SECURITY_HEADERS },
      { source: "/api/:path*", headers: API_SECURITY_HEADERS },
    ];
  },
  typedRoutes: false,
};

export default nextConfig;
