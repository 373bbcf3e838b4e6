// The seam between the REST layer and a tRPC procedure, on tRPC's documented server-side
// caller: the layer matched the route once, assembles the input from that match, and calls
// the procedure by its path with the request's context. Nothing here reads a library's
// internals; coercion belongs to the schemas (a query field converts its own text, e.g.
// zQueryNumber in server/shared/schemas.ts; a JSON body keeps its types).
import type { AnyRouter } from "@trpc/server";
import type { TContext } from "../trpc/context";
import { createCallerFactory } from "../trpc/init";

/** Methods whose procedure input comes from the query string (and the path), not the body. */
const QUERY_METHODS = new Set(["GET", "DELETE"]);

/**
 * A procedure's input, as clients have always sent it: the JSON body's fields (writes) or the
 * query parameters (GET, DELETE), then the path parameters, which win over a field of the same
 * name. A query parameter is its text, or the list of its texts when the name repeats;
 * `__proto__` is ignored (an unknown parameter, like any other).
 */
export function procedureInput(
  method: string,
  params: Record<string, string>,
  query: URLSearchParams,
  body: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (!QUERY_METHODS.has(method)) return Object.assign({}, body, params);
  const input: Record<string, unknown> = {};
  for (const [name, value] of query) {
    if (name === "__proto__") continue;
    const seen = Object.hasOwn(input, name) ? input[name] : undefined;
    input[name] = seen === undefined ? value : Array.isArray(seen) ? [...(seen as string[]), value] : [seen, value];
  }
  return Object.assign(input, params);
}

export type TProcedureCaller = (ctx: TContext, procedurePath: string, input: unknown) => Promise<unknown>;

/** Calls a procedure of `router` by its path (`businesses.get`) as the context's actor. */
export function createProcedureCaller(router: AnyRouter): TProcedureCaller {
  const createCaller = createCallerFactory(router);
  return (ctx, procedurePath, input) => {
    let target: unknown = createCaller(ctx);
    for (const segment of procedurePath.split(".")) target = (target as Record<string, unknown>)[segment];
    return (target as (input: unknown) => Promise<unknown>)(input);
  };
}
