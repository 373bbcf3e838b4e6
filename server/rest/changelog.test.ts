// CHANGELOG.md records every change to the contract surface (contract Versioning 1, 4, 6): each
// additive operation has an entry, and each deprecated operation an entry under Deprecated with
// its own anchor (where its Link header points), the day it was declared, its sunset and its
// replacement. A deprecation shorter than 90 days does not even start (assertDeprecations).
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { appRouter } from "../router";
import type { TDeprecation } from "../trpc/meta";
import { publicProcedure, router } from "../trpc/init";
import { CONTRACT_VERSION } from "./contract";
import { deprecationProblems, MIN_DEPRECATION_DAYS } from "./deprecation";
import { createRestHandler } from "./rest-handler";
import { routesFromRouter } from "./route-table";
import { createV1Handler } from "./v1";

const CHANGELOG = fs.readFileSync(new URL("../../CHANGELOG.md", import.meta.url), "utf8");
const ADDITIVE = fs.readFileSync(new URL("../../docs/contract/additive-operations.tsv", import.meta.url), "utf8");

type TDeprecatedOperation = { method: string; path: string; deprecation: TDeprecation };

/** The lines under one `### <heading>` of any version. */
function section(text: string, heading: string): string[] {
  const lines: string[] = [];
  let inside = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("## ") || line.startsWith("### ")) inside = line === `### ${heading}`;
    else if (inside) lines.push(line);
  }
  return lines;
}

/** What CHANGELOG.md lacks for these additive and deprecated operations (empty: nothing). */
function changelogProblems(text: string, additive: string[], deprecated: TDeprecatedOperation[]): string[] {
  const problems: string[] = [];
  for (const operation of additive) {
    if (!text.includes(`\`${operation}\``)) problems.push(`${operation} (additive) has no CHANGELOG entry`);
  }
  // An entry is a bullet with its continuation lines.
  const entries = section(text, "Deprecated")
    .join("\n")
    .split(/\n(?=- )/);
  for (const { method, path, deprecation } of deprecated) {
    const operation = `${method} ${path}`;
    const anchor = deprecation.link.split("#").pop()!;
    const entry = entries.find((candidate) => candidate.includes(`<a id="${anchor}"></a>`));
    if (!entry) {
      problems.push(`${operation} is deprecated but no Deprecated entry has the anchor ${anchor}`);
      continue;
    }
    const flat = entry.replace(/\s+/g, " ");
    if (!flat.includes(`\`${operation}\``)) problems.push(`${operation}: its entry does not name it`);
    if (!flat.includes(`declared ${deprecation.since}`))
      problems.push(`${operation}: its entry lacks "declared ${deprecation.since}"`);
    if (!flat.includes(`sunset ${deprecation.sunset}`))
      problems.push(`${operation}: its entry lacks "sunset ${deprecation.sunset}"`);
    if (!flat.includes(`use ${deprecation.replacement}`))
      problems.push(`${operation}: its entry lacks "use ${deprecation.replacement}"`);
  }
  return problems;
}

const deprecatedOf = (routes: { method: string; path: string; deprecation?: TDeprecation }[]): TDeprecatedOperation[] =>
  routes.flatMap((route) =>
    route.deprecation ? [{ method: route.method, path: route.path, deprecation: route.deprecation }] : [],
  );

const additiveOperations = () =>
  ADDITIVE.trim()
    .split("\n")
    .slice(1)
    .map((line) => line.split("\t"))
    .map(([method, path]) => `${method} ${path}`);

describe("CHANGELOG.md", () => {
  it("has a section for the current contract version, in Keep a Changelog form", () => {
    expect(CHANGELOG).toMatch(/^# Changelog\n/);
    expect(CHANGELOG).toContain("## [Unreleased]");
    expect(CHANGELOG).toMatch(new RegExp(`^## \\[${CONTRACT_VERSION.replaceAll(".", "\\.")}\\] - \\d{4}-\\d{2}-\\d{2}$`, "m"));
  });

  it("has an entry for every additive operation and every deprecated operation the service serves", () => {
    const handler = createV1Handler({ getDb: async () => Promise.reject(new Error("no database in this test")) });
    expect(additiveOperations().length).toBeGreaterThan(0);
    expect(changelogProblems(CHANGELOG, additiveOperations(), deprecatedOf(handler.routes.routes))).toEqual([]);
  });

  it("finds a deprecated operation without its entry, or with an entry lacking the sunset or the replacement", () => {
    const deprecation: TDeprecation = {
      since: "2027-01-04",
      sunset: "2027-04-05",
      replacement: "GET /v1/things-v2",
      link: "https://example.test/CHANGELOG.md#deprecated-get-v1-things",
    };
    const operations = [{ method: "GET", path: "/v1/things", deprecation }];
    expect(changelogProblems("# Changelog\n", ["GET /v1/new"], operations)).toEqual([
      "GET /v1/new (additive) has no CHANGELOG entry",
      "GET /v1/things is deprecated but no Deprecated entry has the anchor deprecated-get-v1-things",
    ]);
    const good = [
      "## [1.1.0] - 2027-01-04",
      "### Deprecated",
      '- <a id="deprecated-get-v1-things"></a>`GET /v1/things`: declared 2027-01-04, sunset 2027-04-05;',
      "  use GET /v1/things-v2 (it pages).",
    ].join("\n");
    expect(changelogProblems(good, [], operations)).toEqual([]);
    expect(changelogProblems(good.replace("sunset 2027-04-05", "sunset soon"), [], operations)).toEqual([
      'GET /v1/things: its entry lacks "sunset 2027-04-05"',
    ]);
    expect(changelogProblems(good.replace("use GET /v1/things-v2", "see the docs"), [], operations)).toEqual([
      'GET /v1/things: its entry lacks "use GET /v1/things-v2"',
    ]);
  });
});

describe("a deprecation's declaration (Versioning 4)", () => {
  const declared = (deprecation: Partial<TDeprecation>) => ({
    since: "2027-01-01",
    sunset: "2027-04-01",
    replacement: "GET /v1/thing-v2",
    link: "https://example.test/CHANGELOG.md#deprecated-get-v1-thing",
    ...deprecation,
  });

  it("lasts at least 90 days: 90 is allowed, 89 is not", () => {
    expect(MIN_DEPRECATION_DAYS).toBe(90);
    expect(deprecationProblems("GET /v1/thing", declared({ sunset: "2027-04-01" }))).toEqual([]); // 90 days
    expect(deprecationProblems("GET /v1/thing", declared({ sunset: "2027-03-31" }))).toEqual([
      "GET /v1/thing: sunset 2027-03-31 is less than 90 days after 2027-01-01 (Versioning 4)",
    ]);
  });

  it("names real days, a replacement and its CHANGELOG.md entry", () => {
    expect(
      deprecationProblems("GET /v1/thing", declared({ since: "2027-02-30", replacement: " ", link: "https://x.test/docs" })),
    ).toEqual([
      "GET /v1/thing: deprecation since 2027-02-30 is not a day (YYYY-MM-DD)",
      "GET /v1/thing: a deprecation names its replacement",
      "GET /v1/thing: the link must point at its CHANGELOG.md entry (…/CHANGELOG.md#anchor)",
    ]);
  });

  it("stops the REST layer from starting with a deprecation under 90 days", () => {
    const short = router({
      thing: publicProcedure
        .meta({
          openapi: { method: "GET", path: "/v1/test/short" },
          access: { kind: "public" },
          deprecation: declared({ sunset: "2027-02-01" }),
        })
        .input(z.object({}))
        .output(z.object({ data: z.object({}) }))
        .query(() => ({ data: {} })),
    });
    expect(() => createRestHandler({ router: short })).toThrow(/less than 90 days after 2027-01-01/);
  });

  it("none is declared today in the application (the Deprecated section says so)", () => {
    expect(deprecatedOf(routesFromRouter(appRouter))).toEqual([]);
    expect(section(CHANGELOG, "Deprecated").join("\n")).toContain("Nothing.");
  });
});
