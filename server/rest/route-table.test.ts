import { describe, expect, it } from "vitest";
import { RouteTable, type TRoute } from "./route-table";

const route = (method: TRoute["method"], path: string): TRoute => ({
  method,
  path,
  access: { kind: "owner" },
  successStatus: 200,
  idempotency: "required",
  experimental: false,
  target: { kind: "procedure", procedurePath: `${method} ${path}` },
});

describe("RouteTable", () => {
  // Declared parameter-first on purpose: literal segments must still win.
  const table = new RouteTable([
    route("GET", "/v1/agents/{id}"),
    route("PATCH", "/v1/agents/{id}"),
    route("GET", "/v1/agents/me"),
    route("GET", "/v1/imports/{id}"),
    route("GET", "/v1/imports/presets"),
    route("GET", "/v1/agents/{id}/economics"),
    route("GET", "/v1/agents/me/economics"),
  ]);

  it.each([
    ["/v1/agents/me", "GET /v1/agents/me"],
    ["/v1/agents/9b2f", "GET /v1/agents/{id}"],
    ["/v1/imports/presets", "GET /v1/imports/presets"],
    ["/v1/agents/me/economics", "GET /v1/agents/me/economics"],
    ["/v1/agents/x/economics", "GET /v1/agents/{id}/economics"],
  ])("GET %s is %s", (path, expected) => {
    const match = table.match("GET", path);
    expect(match && "route" in match ? match.route.target : null).toEqual({ kind: "procedure", procedurePath: expected });
  });

  it("extracts path parameters", () => {
    const match = table.match("GET", "/v1/agents/abc");
    expect(match && "params" in match ? match.params : null).toEqual({ id: "abc" });
  });

  it("takes a trailing slash, and nothing with an empty or an extra segment", () => {
    const target = (path: string) => {
      const match = table.match("GET", path);
      return match && "route" in match ? match.route.target : match;
    };
    expect(target("/v1/agents/abc/")).toEqual({ kind: "procedure", procedurePath: "GET /v1/agents/{id}" });
    expect(target("/v1/agents//abc")).toBeNull();
    expect(target("/v1/agents/abc/x/y")).toBeNull();
    expect(target("/v1/agents")).toBeNull();
  });

  it("tells the allowed methods of a known path, and nothing for an unknown one", () => {
    expect(table.match("DELETE", "/v1/agents/abc")).toEqual({ allowed: ["GET", "PATCH"] });
    expect(table.match("GET", "/v1/unknown")).toBeNull();
  });

  it("lets a literal path win only for the methods it has (GET literal beside POST parameter)", () => {
    const webhooks = new RouteTable([route("POST", "/v1/webhooks/{provider}"), route("GET", "/v1/webhooks/social_ads")]);
    const target = (method: string, path: string) => {
      const match = webhooks.match(method, path);
      return match && "route" in match ? match.route.target : match;
    };
    expect(target("GET", "/v1/webhooks/social_ads")).toEqual({ kind: "procedure", procedurePath: "GET /v1/webhooks/social_ads" });
    expect(target("POST", "/v1/webhooks/social_ads")).toEqual({
      kind: "procedure",
      procedurePath: "POST /v1/webhooks/{provider}",
    });
    expect(target("GET", "/v1/webhooks/payments_a")).toEqual({ allowed: ["POST"] });
  });

  it("refuses two operations for one method and path", () => {
    expect(() => new RouteTable([route("GET", "/v1/x"), route("GET", "/v1/x")])).toThrow(/Two operations/);
  });
});
