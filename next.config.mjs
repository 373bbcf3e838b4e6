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
  typedRoutes: false,
};

export default nextConfig;
