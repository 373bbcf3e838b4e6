// The app's API over real HTTP in the test process: a node:http server on 127.0.0.1 that
// stamps the socket address as the server entry does (scripts/serve.mjs) and hands /v1 to
// the test API's REST handler and /mcp to an MCP handler whose tools call that same handler,
// both through the server entry's dispatcher (server/http/node-dispatch.ts). For clients that
// need a URL (the MCP SDK's transports, a spawned process); everything else calls the handler
// in process (api.ts).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeDispatch } from "../../server/http/node-dispatch";
import { appRouter } from "../../server/router";
import { operationDefinitions } from "../../server/rest/route-table";
import { createMcpHandler, type TMcpHandler } from "../../server/mcp/http";
import { settleUnreadBody, stampSocketAddress } from "../../scripts/serve.mjs";
import type { TTestApi } from "./api";

export type TServedApp = {
  /** `http://127.0.0.1:<port>` */
  url: string;
  mcp: TMcpHandler;
  close: () => Promise<void>;
};

export async function serveApp(api: TTestApi): Promise<TServedApp> {
  const mcp = createMcpHandler({
    v1: api.handler,
    procedures: operationDefinitions(appRouter),
    getDb: async () => api.db,
  });
  // The server entry's dispatcher (server/http/node-dispatch.ts) carries both, as it carries /v1 in production.
  const dispatchers = [
    createNodeDispatch(api.handler, (url) => url.startsWith("/v1")),
    createNodeDispatch(mcp, (url) => url.split("?", 1)[0] === "/mcp"),
  ];
  const server = http.createServer((req, res) => {
    stampSocketAddress(req);
    settleUnreadBody(req, res);
    if (dispatchers.some((dispatch) => dispatch(req, res))) return;
    res.writeHead(404).end("not found");
  });
  // As the server entry sets them (scripts/serve.mjs): with Node's 5 s, a client reusing an idle
  // socket just as the server closes it gets ECONNRESET (seen with the SDK client's fetch).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    mcp,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
