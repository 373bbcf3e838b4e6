import fs from "node:fs";
import path from "node:path";
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import local from "./scripts/eslint/import-cycles.mjs";

const projectRoot = import.meta.dirname;

// The layer order (README, "A map of the code"), from the top: app/ → the adapters (rest/, trpc/,
// mcp/, and each domain's procedures and routes.ts) → the domain services → the foundation. Beside
// app/, two more entry points: jobs/ (started by instrumentation.ts) and sign-in/ (the panel's
// Auth.js door, served by app/api/). Every other folder of server/ is a domain.
const FOUNDATION = ["auth", "crypto", "db", "errors", "http", "mail", "metrics", "shared"];
const ADAPTERS = ["rest", "trpc", "mcp"];
const ENTRIES = ["jobs", "sign-in"];
const DOMAINS = fs
  .readdirSync(path.join(projectRoot, "server"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && ![...FOUNDATION, ...ADAPTERS, ...ENTRIES].includes(entry.name))
  .map((entry) => entry.name);
/** They assemble every domain; app/, scripts and tests import them, nothing in server/ else. */
const COMPOSITION_ROOTS = [
  "server/router.ts",
  "server/rest/v1.ts",
  "server/trpc/panel-endpoint.ts",
  "server/trpc/server-caller.ts",
  "server/state-columns.ts",
];
/** What a domain's procedures (trpc/) and plain routes (rest/) are built from. */
const KIT = [
  "server/trpc/init.ts",
  "server/trpc/meta.ts",
  "server/trpc/context.ts",
  "server/rest/plain-route.ts",
  "server/rest/outcome.ts",
];

// Specifiers as written: `@/server/<name>…`, or `../<name>…` from a file one folder (or two)
// below server/ (`./<name>…` from a file directly in server/).
const under = (names, { fromServerRoot = false } = {}) =>
  `^(@/server/|${fromServerRoot ? "\\./" : "(\\.\\./)+"})(${names.join("|")})(/|$)`;
const rootNames = COMPOSITION_ROOTS.map((file) => file.replace(/^server\/(.*)\.ts$/, "$1"));
const SEE = "README, A map of the code.";
const ban = (regex, message, extra = {}) => ({ regex, message: `${message} ${SEE}`, ...extra });
const noEntries = (options) =>
  ban(under(ENTRIES, options), "jobs/ and sign-in/ are entry points: only app/, instrumentation.ts and tests import them.");
const noRoots = (options) =>
  ban(
    under(rootNames, options),
    "A composition root (the app router, the route table, the panel endpoint) is imported by app/ only.",
  );
const layer = (files, patterns, ignores = []) => ({
  files,
  ignores: ["**/*.test.ts", "**/*.test.tsx", ...ignores],
  rules: { "no-restricted-imports": ["error", { patterns }] },
});

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".next/",
      ".data/",
      "server/db/generated/",
      "test-results/",
      "playwright-report/",
      "next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    files: ["scripts/**", "e2e/**", "test/**", "docs/examples/**", "**/*.test.ts"],
    rules: { "no-console": "off" },
  },
  {
    // Tests read loosely typed JSON bodies.
    files: ["e2e/**", "test/**", "**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },

  // --- The layer order. Tests may cross it. ---
  layer(
    DOMAINS.map((domain) => `server/${domain}/**`),
    [
      ban(
        under(["rest"]),
        "Domains never import the REST layer; a plain route (routes.ts) may import rest/plain-route and rest/outcome.",
      ),
      noEntries(),
      noRoots(),
    ],
    ["server/*/routes.ts"],
  ),
  layer(
    ["server/*/routes.ts"],
    [
      ban(
        "^(@/server/|(\\.\\./)+)rest/(?!(plain-route|outcome)$)",
        "A plain route imports rest/plain-route and rest/outcome, nothing else of the REST layer.",
      ),
      noEntries(),
      noRoots(),
    ],
  ),
  layer(
    ADAPTERS.map((adapter) => `server/${adapter}/**`),
    [noEntries(), noRoots()],
    COMPOSITION_ROOTS,
  ),
  layer(
    FOUNDATION.map((folder) => `server/${folder}/**`),
    [
      ban(
        under([...DOMAINS, ...ADAPTERS, ...ENTRIES, "router"]),
        "The foundation (auth, crypto, db, errors, http, mail, shared) imports no domain, adapter or entry point.",
      ),
    ],
  ),
  layer(
    ["server/log.ts"],
    [
      ban(
        under([...DOMAINS, ...ADAPTERS, ...ENTRIES, "router"], { fromServerRoot: true }),
        "log.ts is foundation: it imports no domain, adapter or entry point.",
      ),
    ],
  ),
  layer(
    ["server/env.ts"],
    [
      ban(
        "^(\\.|@/)",
        "env.ts is the lowest layer: it imports nothing of the project (a module reading a setting imports env.ts).",
      ),
    ],
  ),
  layer(
    ["lib/**"],
    [
      // The tRPC client needs the app router's type, and a type is all it gets.
      ban("^(@/|(\\.\\./)+)server/", "lib/ is shared by the panel and the server: it imports nothing from server/ but types.", {
        allowTypeImports: true,
      }),
      ban(
        "^(@/|(\\.\\./)+)(app|components)/",
        "lib/ is shared by the panel and the server: it imports nothing from app/ or components/.",
      ),
    ],
  ),

  layer(
    ["components/**"],
    [
      // Components run in the browser: server runtime reaches them through one client-safe module.
      ban(
        "^(@/|(\\.\\./)+)server/(?!panel-contract$)",
        "components/ import server runtime only from server/panel-contract (types from anywhere in server/).",
        { allowTypeImports: true },
      ),
    ],
  ),
  layer(
    ["server/panel-contract.ts"],
    [
      ban(
        under(["db", "env", "log", "crypto", "mail", "jobs", "rest", "trpc", "mcp"], { fromServerRoot: true }),
        "server/panel-contract.ts ends up in the browser: it re-exports only modules that import nothing server-only.",
      ),
    ],
  ),
  layer(
    ["client/**"],
    [
      // The typed client stands alone (agents copy it); only its generator, a script, reads the server.
      ban("^(@/|(\\.\\./)+)(server|app|components|lib|scripts)/", "client/ imports nothing of the project but its own files."),
    ],
  ),

  // --- No import cycle between files, nor between the folders of server/. ---
  {
    files: ["**/*.ts", "**/*.tsx"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    plugins: { local },
    rules: {
      "local/import-cycles": [
        "error",
        {
          projectRoot,
          sources: ["app", "components", "lib", "server", "scripts", "test", "e2e"],
          folderRoot: "server",
          compositionRoots: COMPOSITION_ROOTS,
          kit: KIT,
        },
      ],
    },
  },
);
