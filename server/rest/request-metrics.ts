// The /v1 handler with its calls counted and timed per operation (metrics/registry.ts). Wraps the
// REST layer's handler from outside (rest-handler.ts hands itself here once), so the layer knows
// nothing of metrics. The operation is a procedure's path (businesses.list), or a plain route's
// operationId; a path no route takes counts as "unmatched", so a scan cannot add a label per path.
import type { RouteTable, TRoute } from "./route-table";
import { metrics } from "../metrics/registry";

function operationName(route: TRoute): string {
  return route.target.kind === "procedure" ? route.target.procedurePath : (route.target.route.openapi.operationId ?? route.path);
}

export function withRequestMetrics<THandler extends (req: Request) => Promise<Response>>(
  handle: THandler,
  table: RouteTable,
): THandler {
  const timed = async (req: Request): Promise<Response> => {
    const started = process.hrtime.bigint();
    let operation = "unmatched";
    try {
      const found = table.match(req.method, new URL(req.url).pathname);
      if (found && "route" in found) operation = operationName(found.route);
    } catch {
      // An unparsable URL: the handler answers it; it counts as unmatched.
    }
    let status = 500;
    try {
      const response = await handle(req);
      status = response.status;
      return response;
    } finally {
      metrics().recordRequest(operation, req.method, status, Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
  return timed as THandler;
}
