// POST /mcp: the MCP companion (server/mcp/), beside /v1 in the same app; its tools call the
// process's /v1 handler. GET and DELETE are exported so they answer 405 in the contract's
// error body, not Next's empty one; OPTIONS so its Allow is the handler's (Next's own would list
// every exported method, those that answer 405 too).
import { registerNodeDispatch } from "@/server/http/node-dispatch";
import { createMcpHandler, MCP_PATH, type TMcpHandler } from "@/server/mcp/http";
import { getV1Handler } from "@/server/rest/v1";
import { appRouter } from "@/server/router";
import { operationDefinitions } from "@/server/rest/route-table";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const globalForMcp = globalThis as unknown as { mcpHandler?: TMcpHandler };

const handle = (req: Request) => {
  globalForMcp.mcpHandler ??= createMcpHandler({
    v1: getV1Handler(),
    procedures: operationDefinitions(appRouter),
  });
  return globalForMcp.mcpHandler(req);
};

// Later requests go straight to it from the server entry, as /v1's do (server/http/node-dispatch.ts):
// the same answer, and the same handling of a body an early answer leaves unread.
registerNodeDispatch("mcp", handle, (url) => url.split("?", 1)[0] === MCP_PATH);

export { handle as POST, handle as GET, handle as DELETE, handle as PUT, handle as PATCH, handle as OPTIONS };
