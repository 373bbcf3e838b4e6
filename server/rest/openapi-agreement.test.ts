// The start-up check of createRestHandler: trpc-to-openapi (which documents /v1) and the REST
// layer's route table (which serves it) must put the same operation at every method and path.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { appRouter } from "../router";
import { ownerProcedure, publicProcedure, router } from "../trpc/init";
import { assertOpenApiAgrees } from "./openapi";
import { createRestHandler } from "./rest-handler";
import { routesFromRouter } from "./route-table";

const ok = z.object({ data: z.object({ ok: z.boolean() }) });

function thing(path: `/${string}`, operationId?: string) {
  return publicProcedure
    .meta({ openapi: { method: "GET", path, operationId } })
    .input(z.object({}))
    .output(ok)
    .query(() => ({ data: { ok: true } }));
}

describe("the OpenAPI document and the REST layer agree", () => {
  it("holds for the application's router", () => {
    expect(() => assertOpenApiAgrees(appRouter, routesFromRouter(appRouter))).not.toThrow();
  });

  it("refuses at start-up a router whose path the generator documents elsewhere (a trailing slash)", () => {
    const disagreeing = router({ a: thing("/v1/test/a"), b: thing("/v1/test/b/") });
    expect(() => createRestHandler({ router: disagreeing })).toThrow(/GET \/v1\/test\/b\/ \(b\) is served but not documented/);
    expect(() => createRestHandler({ router: disagreeing })).toThrow(/GET \/v1\/test\/b \(b\) is documented but not served/);
  });

  it("refuses a route table that sends a path to another operation than the document names", () => {
    const agreeing = router({ a: thing("/v1/test/a"), b: thing("/v1/test/b", "getB") });
    const routes = routesFromRouter(agreeing);
    expect(() => assertOpenApiAgrees(agreeing, routes)).not.toThrow();
    const swapped = routes.map((route) => ({ ...route, operationId: route.operationId === "a" ? "getB" : "a" }));
    expect(() => assertOpenApiAgrees(agreeing, swapped)).toThrow(/GET \/v1\/test\/a is getB here but a in the document/);
    expect(() => assertOpenApiAgrees(agreeing, routes.slice(1))).toThrow(/GET \/v1\/test\/a \(a\) is documented but not served/);
  });

  it("leaves out, on both sides, procedures without OpenAPI meta or with it disabled", () => {
    const panelOnly = router({
      a: thing("/v1/test/a"),
      hidden: ownerProcedure
        .meta({ openapi: { method: "GET", path: "/v1/test/hidden", enabled: false } })
        .input(z.object({}))
        .output(ok)
        .query(() => ({ data: { ok: true } })),
      panel: ownerProcedure.input(z.object({})).query(() => ({ data: { ok: true } })),
    });
    expect(() => createRestHandler({ router: panelOnly })).not.toThrow();
    expect(createRestHandler({ router: panelOnly }).routes.routes.map((route) => route.path)).toEqual(["/v1/test/a"]);
  });
});
