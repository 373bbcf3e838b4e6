// Calls a tRPC procedure through trpc-to-openapi's HTTP handler, created once per process
// (its fetch adapter rebuilds the handler, and outside production the whole OpenAPI
// document, on every request). The REST layer has already read and checked the body; the
// adapter maps path and query parameters, coerces query strings and runs the procedure.
import type { AnyRouter } from "@trpc/server";
import {
  createOpenApiNodeHttpHandler,
  createProcedureCache,
  getInputOutputParsers,
  instanceofZodTypeCoercible,
  instanceofZodTypeObject,
  unwrapZodType,
} from "trpc-to-openapi";
import type { TContext } from "../trpc/context";
import type { TRoute } from "./route-table";

type TCallState = { ctx: TContext; error?: unknown };

export type TProcedureResult = { ok: true; status: number; body: string } | { ok: false; error: unknown };

export type TProcedureInvoker = (call: {
  req: Request;
  url: URL;
  body: Record<string, unknown> | undefined;
  ctx: TContext;
}) => Promise<TProcedureResult>;

export function createProcedureInvoker(router: AnyRouter, routes: TRoute[]): TProcedureInvoker {
  assertAdapterAgrees(router, routes);
  lockBodyCoercion(router, routes);
  const calls = new WeakMap<object, TCallState>();
  const handler = createOpenApiNodeHttpHandler({
    router,
    createContext: ({ req }: { req: object }) => calls.get(req)!.ctx,
    onError: ({ error, req }: { error: unknown; req: object }) => {
      const state = calls.get(req);
      if (state) state.error = error;
    },
  } as unknown as Parameters<typeof createOpenApiNodeHttpHandler>[0]);

  const jsonHeaders = new Headers({ "content-type": "application/json" });
  return ({ req: incoming, url, body, ctx }) =>
    new Promise((resolve) => {
      // The incoming Request itself (its signal still tells when the client goes away), with the
      // body the REST layer already parsed; writes always look like JSON to the adapter.
      const query = queryOf(url);
      const req = new Proxy(incoming, {
        get: (target, prop) => {
          if (prop === "body") return body;
          if (prop === "query") return query;
          if (prop === "url") return url.href;
          if (prop === "headers" && body !== undefined) return jsonHeaders;
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
        has: (target, prop) => (prop === "body" ? body !== undefined : prop === "query" || prop in target),
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

/**
 * The query as the adapter wants it (name → values), on an object without a prototype: the
 * adapter's own parser indexes a plain object by name, so `?__proto__=1` or `?constructor=1`
 * made it throw (500).
 */
function queryOf(url: URL): Record<string, string[]> {
  const query = Object.create(null) as Record<string, string[]>;
  url.searchParams.forEach((value, name) => {
    (query[name] ??= []).push(value);
  });
  return query;
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

type TZodLike = { _def: Record<string, unknown>; shape?: Record<string, unknown> };

/** The number/boolean/bigint/date schemas of an input object, as the adapter walks them. */
function coercibleLeaves(schema: TZodLike, found: Set<TZodLike> = new Set()): Set<TZodLike> {
  for (const field of Object.values(schema.shape ?? {})) {
    const unwrapped = unwrapZodType(field as never, false) as unknown as TZodLike;
    if (instanceofZodTypeCoercible(unwrapped as never)) found.add(unwrapped);
    else if (instanceofZodTypeObject(unwrapped as never)) coercibleLeaves(unwrapped, found);
  }
  return found;
}

/**
 * The adapter coerces string values to numbers and booleans (right for query strings) by
 * setting `coerce` on the shared zod schemas, which would also make JSON bodies accept
 * `"amount_minor": "100"` (and `""` as 0), and leak into the panel's tRPC calls. A JSON body
 * has real types, so the schemas of write inputs are locked to never coerce. A schema shared
 * between a query and a body cannot be both: that fails at start-up.
 */
function lockBodyCoercion(router: AnyRouter, routes: TRoute[]): void {
  const procedures = router._def.procedures as Record<string, Parameters<typeof getInputOutputParsers>[0]>;
  const body = new Set<TZodLike>();
  const query = new Set<TZodLike>();
  for (const route of routes) {
    if (route.target.kind !== "procedure") continue;
    const procedure = procedures[route.target.procedurePath];
    if (!procedure) continue;
    const input = unwrapZodType(getInputOutputParsers(procedure).inputParser as never, true) as unknown as TZodLike;
    if (!instanceofZodTypeObject(input as never)) continue;
    const takesBody = route.method !== "GET" && route.method !== "DELETE";
    coercibleLeaves(input, takesBody ? body : query);
  }
  for (const leaf of body) {
    if (query.has(leaf)) throw new Error("A zod schema instance is used both in a query and in a JSON body; give each its own.");
    if (Object.getOwnPropertyDescriptor(leaf._def, "coerce")?.get) continue; // locked by an earlier handler
    Object.defineProperty(leaf._def, "coerce", { get: () => false, set: () => {}, configurable: false });
  }
}
