// The app's API over real HTTP in the test process: a node:http server on 127.0.0.1 that
// stamps the socket address as the server entry does (scripts/serve.mjs) and hands /v1 to
// the test API's REST handler and /mcp to an MCP handler whose tools call that same handler,
// as app/v1 and app/mcp do in Next. For clients that need a URL (the MCP SDK's transports, a
// spawned process); everything else calls the handler in process (api.ts).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, type TMcpHandler } from "../../server/mcp/http";
import { stampSocketAddress } from "../../scripts/serve.mjs";
import type { TTestApi } from "./api";

export type TServedApp = {
  /** `http://127.0.0.1:<port>` */
  url: string;
  mcp: TMcpHandler;
  close: () => Promise<void>;
};

async function toRequest(req: http.IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && chunks.length > 0;
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
  });
}

export async function serveApp(api: TTestApi): Promise<TServedApp> {
  const mcp = createMcpHandler({ v1: api.handler, getDb: async () => api.db });
  let origin = "";
  const server = http.createServer((req, res) => {
    stampSocketAddress(req);
    void (async () => {
      const request = await toRequest(req, origin);
      const path = new URL(request.url).pathname;
      const response =
        path === "/mcp"
          ? await mcp(request)
          : path.startsWith("/v1")
            ? await api.handler(request)
            : new Response("not found", { status: 404 });
      res.statusCode = response.status;
      response.headers.forEach((value, name) => res.setHeader(name, value));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    mcp,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
