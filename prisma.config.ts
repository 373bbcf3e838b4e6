// Prisma CLI configuration. The datasource URL is only read by CLI commands; the app
// connects through driver adapters (see server/db/client.ts).
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/unused" },
});
