// Calls a tRPC procedure through trpc-to-openapi's HTTP handler, created once per process
// (its fetch adapter rebuilds the handler, and outside production the whole OpenAPI
// document, on every request). The REST layer has already read and checked the body; the
// adapter maps path and query parameters, coerces query strings and runs the procedure.
import type { AnyRouter } from "@trpc/server";
import { createOpenApiNodeHttpHandler, createProcedureCache } from "trpc-to-openapi";
import type { TContext } from "../trpc/context";
import type { TRoute } from "./route-table";

type TCallState = { ctx: TContext; error?: unknown };

export type TProcedureResult = { ok: true; status: number; body: string } | { ok: false; error: unknown };

export type TProcedureInvoker = (call: {
  method: string;
  url: URL;
  body: Record<string, unknown> | undefined;
  ctx: TContext;
}) => Promise<TProcedureResult>;

export function createProcedureInvoker(router: AnyRouter, routes: TRoute[]): TProcedureInvoker {
  assertAdapterAgrees(router, routes);
  const calls = new WeakMap<object, TCallState>();
  const handler = createOpenApiNodeHttpHandler({
    router,
    createContext: ({ req }: { req: object }) => calls.get(req)!.ctx,
    onError: ({ error, req }: { error: unknown; req: object }) => {
      const state = calls.get(req);
      if (state) state.error = error;
    },
  } as unknown as Parameters<typeof createOpenApiNodeHttpHandler>[0]);

  return ({ method, url, body, ctx }) =>
    new Promise((resolve) => {
      const request = new Request(url, { method, headers: { "content-type": "application/json" } });
      // The adapter reads `req.body` when present: hand it the parsed object.
      const req = new Proxy(request, {
        get: (target, prop) => (prop === "body" ? body : (target as unknown as Record<PropertyKey, unknown>)[prop]),
        has: (target, prop) => (prop === "body" ? body !== undefined : prop in target),
      });
      const state: TCallState = { ctx };
      calls.set(req, state);
      let statusCode = 200;
      const res = {
        setHeader: () => {},
        get statusCode() {
          return statusCode;
        },
        set statusCode(code: number) {
          statusCode = code;
        },
        end: (text: string) => {
          resolve(state.error === undefined ? { ok: true, status: statusCode, body: text } : { ok: false, error: state.error });
        },
      };
      (handler as unknown as (req: unknown, res: unknown) => Promise<void>)(req, res).catch((error: unknown) =>
        resolve({ ok: false, error }),
      );
    });
}

/** Fails fast if the adapter would send a path to another procedure than the route table. */
function assertAdapterAgrees(router: AnyRouter, routes: TRoute[]): void {
  const lookup = createProcedureCache(router as Parameters<typeof createProcedureCache>[0]);
  for (const route of routes) {
    if (route.target.kind !== "procedure") continue;
    const sample = route.path.replace(/\{(\w+)\}/g, "sample-$1");
    const found = lookup(route.method, sample);
    if (found?.procedure?.path !== route.target.procedurePath) {
      throw new Error(
        `${route.method} ${route.path} would reach ${found?.procedure?.path ?? "nothing"} in the OpenAPI adapter; ` +
          "declare procedures with literal segments before those with parameters in the router.",
      );
    }
  }
}
