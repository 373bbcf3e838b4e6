// The routes the REST layer serves and the operations /v1/openapi.json documents come from the
// same procedure meta (route-table.ts reads it with trpc-to-openapi's exported helpers); this
// proves they name the same operations at the same method and path.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { appRouter } from "../router";
import { ownerProcedure, publicProcedure, router } from "../trpc/init";
import { buildOpenApiDocument } from "./openapi";
import { createRestHandler } from "./rest-handler";
import { routesFromRouter } from "./route-table";

const ok = z.object({ data: z.object({ ok: z.boolean() }) });

function thing(path: `/${string}`) {
  return publicProcedure
    .meta({ openapi: { method: "GET", path } })
    .input(z.object({}))
    .output(ok)
    .query(() => ({ data: { ok: true } }));
}

/** The document's operations, without the CORS preflights it adds (OPTIONS, answered by the REST layer itself). */
const operations = (doc: { paths?: Record<string, object> }) =>
  Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => method !== "options")
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

describe("the OpenAPI document and the REST layer's routes", () => {
  it("name the same operations for the application's router", () => {
    const routes = routesFromRouter(appRouter);
    const doc = buildOpenApiDocument(appRouter, routes, []);
    expect(operations(doc).sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
  });

  it("serve a path at the place the generator documents it (a trailing slash is normalised, as the generator does)", async () => {
    const handler = createRestHandler({ router: router({ a: thing("/v1/test/a"), b: thing("/v1/test/b/") }) });
    expect(handler.routes.routes.map((route) => route.path).sort()).toEqual(["/v1/test/a", "/v1/test/b"]);
    const doc = buildOpenApiDocument(router({ a: thing("/v1/test/a"), b: thing("/v1/test/b/") }), handler.routes.routes, []);
    expect(operations(doc).sort()).toEqual(["GET /v1/test/a", "GET /v1/test/b"]);
  });

  it("refuses to document a route table that leaves out an operation", () => {
    const agreeing = router({ a: thing("/v1/test/a"), b: thing("/v1/test/b") });
    const routes = routesFromRouter(agreeing);
    expect(() => buildOpenApiDocument(agreeing, routes.slice(1), [])).toThrow(/GET \/v1\/test\/a, which no route serves/);
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
      nested: router({ deeper: thing("/v1/test/deeper") }),
    });
    const routes = createRestHandler({ router: panelOnly }).routes.routes;
    expect(routes.map((route) => route.path)).toEqual(["/v1/test/a", "/v1/test/deeper"]);
    expect(routes.map((route) => (route.target.kind === "procedure" ? route.target.procedurePath : null))).toEqual([
      "a",
      "nested.deeper",
    ]);
    expect(operations(buildOpenApiDocument(panelOnly, routes, []))).toEqual(["GET /v1/test/a", "GET /v1/test/deeper"]);
  });
});
