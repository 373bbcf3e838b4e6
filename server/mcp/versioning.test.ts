// Versioning 7 for MCP tools: the server's version is the contract's major.minor; stability and
// deprecation are declared per tool and shown where a client reads them (description prefix,
// _meta); declarations that break the policy are refused before a server is built.
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { CONTRACT_VERSION } from "../shared/contract-version";
import type { TProcedureMeta } from "../trpc/meta";
import { resolveTool, resolveTools, type TMcpToolDeclaration } from "./tools";
import {
  DEPRECATED_MARKER,
  EXPERIMENTAL_MARKER,
  META_DEPRECATION,
  META_STABILITY,
  mcpServerVersion,
  toolDescription,
  versioningProblems,
} from "./versioning";

const fixtureMeta = (extra: Partial<TProcedureMeta> = {}): TProcedureMeta => ({
  openapi: { method: "GET", path: "/v1/fixtures/{id}", summary: "A fixture", description: "Reads one fixture." },
  ...extra,
});

const fixture = (extra: Partial<TMcpToolDeclaration> = {}): TMcpToolDeclaration => ({
  name: "get_fixture",
  procedure: "fixtures.get",
  meta: fixtureMeta(),
  input: z.object({ id: z.string() }),
  stability: "stable",
  ...extra,
});

describe("the server's version", () => {
  it("is the contract's major.minor", () => {
    expect(mcpServerVersion()).toBe(CONTRACT_VERSION.split(".").slice(0, 2).join("."));
    expect(mcpServerVersion("1.0.0-rc.9")).toBe("1.0");
    expect(mcpServerVersion("2.13.4")).toBe("2.13");
    expect(() => mcpServerVersion("v1")).toThrow(/major.minor/);
  });
});

describe("stability", () => {
  it("marks an experimental tool in its description and _meta; a stable one carries no marker", () => {
    const experimental = resolveTool(fixture({ stability: "experimental" }));
    expect(experimental.description).toBe(
      `${EXPERIMENTAL_MARKER} May change without a deprecation period. A fixture. Reads one fixture. (REST: GET /v1/fixtures/{id})`,
    );
    expect(experimental._meta[META_STABILITY]).toBe("experimental");
    const stable = resolveTool(fixture());
    expect(stable.description.startsWith("A fixture.")).toBe(true);
    expect(stable._meta[META_STABILITY]).toBe("stable");
  });

  it("refuses a stable tool over an experimental operation", () => {
    const declaration = fixture({ meta: fixtureMeta({ experimental: true }) });
    expect(() => resolveTools([declaration])).toThrow(/get_fixture is declared stable but calls an experimental operation/);
    expect(() => resolveTools([{ ...declaration, stability: "experimental" }])).not.toThrow();
  });
});

describe("deprecation", () => {
  const replacement = fixture({ name: "get_fixture_v2", stability: "experimental" });
  const deprecated = fixture({ deprecation: { since: "2026-12-01", sunset: "2027-03-01", replacement: "get_fixture_v2" } });

  it("prefixes the description with the marker, the sunset date and the replacement, and says so in _meta", () => {
    const [tool] = resolveTools([deprecated, replacement]);
    expect(tool!.description.startsWith(`${DEPRECATED_MARKER} Sunset 2027-03-01; use get_fixture_v2 instead. A fixture.`)).toBe(
      true,
    );
    expect(tool!._meta[META_DEPRECATION]).toEqual({ sunset: "2027-03-01", replacement: "get_fixture_v2" });
    // An experimental tool that is deprecated: the deprecation comes first.
    expect(toolDescription("Text.", "experimental", { sunset: "2027-03-01", replacement: "x" })).toBe(
      `${DEPRECATED_MARKER} Sunset 2027-03-01; use x instead. ${EXPERIMENTAL_MARKER} May change without a deprecation period. Text.`,
    );
  });

  it("deprecates the tool of a deprecated /v1 operation with the operation's sunset and replacement", () => {
    const deprecation = {
      since: "2027-03-01",
      sunset: "2027-06-30",
      replacement: "GET /v1/fixtures/v2",
      link: "/CHANGELOG.md#fixtures",
    };
    const tool = resolveTool(fixture({ meta: fixtureMeta({ deprecation }) }));
    expect(tool.description.startsWith(`${DEPRECATED_MARKER} Sunset 2027-06-30; use GET /v1/fixtures/v2 instead.`)).toBe(true);
  });

  it("refuses a deprecation shorter than 90 days, without a replacement, or naming no tool", () => {
    const problems = versioningProblems([
      {
        name: "a",
        stability: "stable",
        operationExperimental: false,
        deprecation: { since: "2027-01-01", sunset: "2027-03-01", replacement: "b" },
      },
      {
        name: "b",
        stability: "stable",
        operationExperimental: false,
        deprecation: { since: "2027-01-01", sunset: "2027-06-01", replacement: " " },
      },
      {
        name: "c",
        stability: "stable",
        operationExperimental: false,
        deprecation: { since: "2027-01-01", sunset: "2027-06-01", replacement: "c" },
      },
      {
        name: "d",
        stability: "stable",
        operationExperimental: false,
        deprecation: { since: "2027-01-01", sunset: "2027-06-01", replacement: "gone" },
      },
      {
        name: "e",
        stability: "stable",
        operationExperimental: false,
        deprecation: { since: "2027-02-30", sunset: "soon", replacement: "a" },
      },
    ]);
    expect(problems).toEqual([
      "a: sunset 2027-03-01 is less than 90 days after 2027-01-01",
      "b: a deprecation names its replacement",
      "c: a tool cannot replace itself",
      "d: its replacement gone is not a tool",
      "e: deprecation since 2027-02-30 is not a day (YYYY-MM-DD)",
      "e: sunset soon is not a day (YYYY-MM-DD)",
    ]);
    expect(() =>
      resolveTools([fixture({ deprecation: { since: "2027-01-01", sunset: "2027-02-01", replacement: "x" } })]),
    ).toThrow(/less than 90 days/);
  });

  it("refuses two tools of one name", () => {
    expect(() => resolveTools([fixture(), fixture()])).toThrow(/two tools are named get_fixture/);
  });
});
